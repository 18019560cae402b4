/**
 * "Too slow to train here": how long this machine would take for a preset's RL steps, from what
 * the worker measured, and the rule that shows the reference run alone instead. Pure.
 *
 * The rule (docs/LAB.md, "Reference runs"): the projected time is the preset's RL steps times this
 * machine's time per RL step of the cohort, which is
 *   - once a run of the preset has MIN_TIMED_STEPS RL steps: the median compute time of its last
 *     steps (run.recent, at most RATE_WINDOW), or else
 *   - the time per step the backend measurement timed for this cohort on this device (the
 *     `measurement` event, measured at the first Start of the cohort or remembered from an
 *     earlier visit), for the backend it chose.
 * Above TOO_SLOW_MS (10 minutes) the lab shows the preset's reference alone, once per preset and
 * page load (a run in progress is stopped); "Train it here anyway" trains regardless. The warm
 * start is not counted (presets ship theirs) and neither is a speed limit the student chose.
 */
import { cohortSignature } from '../../engine/backendChoice';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { EngineState } from '../store/runSlice';
import type { StepCost } from '../store/progress';

/** Over this projected RL time the lab shows the reference instead of training: 10 minutes. */
export const TOO_SLOW_MS = 10 * 60_000;
/** RL steps of a run before its own step times are trusted over the measurement (the first compiles shaders). */
export const MIN_TIMED_STEPS = 3;

export interface Projection {
  /** Milliseconds per RL step on this machine. */
  msPerStep: number;
  /** Where that figure comes from: this run's last steps, or the backend measurement. */
  source: 'run' | 'measurement';
  backend: string | null;
  steps: number;
  /** msPerStep x steps. */
  projectedMs: number;
  tooSlow: boolean;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The projection for `spec` on this machine, or null when nothing has been timed for it.
 * `recent` are the step costs of a run of `spec` (empty when there is none).
 */
export function projectRun(spec: ExperimentSpec, recent: readonly StepCost[], measurement: EngineState['measurement'], backend: string | null = null): Projection | null {
  const timed = recent.map((r) => r.stepMs).filter((ms) => Number.isFinite(ms) && ms > 0);
  let msPerStep: number | null = null;
  let source: Projection['source'] = 'run';
  let by = backend;
  if (timed.length >= MIN_TIMED_STEPS) msPerStep = median(timed);
  else if (measurement && measurement.status !== 'measuring' && measurement.chosen && measurement.key.endsWith(`|cohort=${cohortSignature(spec)}`)) {
    const row = measurement.rows.find((r) => r.backend === measurement.chosen && r.status === 'ok');
    if (row?.msPerStep != null && Number.isFinite(row.msPerStep) && row.msPerStep > 0) {
      msPerStep = row.msPerStep;
      source = 'measurement';
      by = measurement.chosen;
    }
  }
  if (msPerStep == null) return null;
  const projectedMs = msPerStep * spec.steps;
  return { msPerStep, source, backend: by, steps: spec.steps, projectedMs, tooSlow: projectedMs > TOO_SLOW_MS };
}

/** "about 12 min", "about 40 s" */
export function aboutDuration(ms: number): string {
  if (ms < 90_000) return `about ${Math.max(1, Math.round(ms / 1000))} s`;
  if (ms < 90 * 60_000) return `about ${Math.round(ms / 60_000)} min`;
  return `about ${(ms / 3_600_000).toFixed(1)} h`;
}

/** Why the reference is shown alone, in words. */
export function projectionText(p: Projection): string {
  const per = p.msPerStep >= 1000 ? `${(p.msPerStep / 1000).toFixed(1)} s` : `${Math.round(p.msPerStep)} ms`;
  const where = p.source === 'run' ? 'the median of its last RL steps here' : 'timed when the backend was chosen';
  return (
    `This machine needs ${per} per RL step of this preset${p.backend ? ` on ${p.backend}` : ''} (${where}): ` +
    `its ${p.steps} steps would take ${aboutDuration(p.projectedMs)}, over the ${TOO_SLOW_MS / 60_000}-minute limit for training here.`
  );
}
