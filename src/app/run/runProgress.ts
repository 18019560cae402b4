/**
 * The run bar's progress ("a progress bar for the warm start, the backend check and the
 * RL phase") and the time left, estimated from this machine's own pace: the wall time between the
 * last RL steps that arrived (evaluation steps and a speed limit included, as a student waits them).
 * Pure; RunStatus.tsx draws it.
 */
import type { RunState } from '../store/runSlice';

export interface RunProgress {
  /** What is going on, for people: "Warm start", "RL steps". */
  stage: string;
  /** Done so far in [0, 1]; null: unknown (an indeterminate bar). */
  fraction: number | null;
  /** Estimated ms left of this stage (null: not yet known). */
  leftMs: number | null;
}

/** Median of the gaps between consecutive arrivals (null with fewer than two gaps). */
export function medianStepMs(arrivals: readonly number[]): number | null {
  if (arrivals.length < 3) return null;
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]).sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  return gaps.length % 2 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
}

/** Time left of the RL phase: the median step of this machine times the steps still to come. */
export function rlLeftMs(arrivals: readonly number[], step: number, steps: number): number | null {
  const per = medianStepMs(arrivals);
  return per == null ? null : Math.max(0, steps - step) * per;
}

type ProgressInput = Pick<RunState, 'phase' | 'paused' | 'warm' | 'step' | 'steps' | 'arrivals' | 'halt'>;

/** The progress of the run on screen; null when there is none to show (no run, or it stopped). */
export function runProgress(run: ProgressInput, measuring: boolean): RunProgress | null {
  if (run.halt) return null;
  switch (run.phase) {
    case 'preparing':
      return { stage: measuring ? 'Checking which backend is fastest here' : 'Preparing', fraction: null, leftMs: null };
    case 'warmstart':
      return { stage: 'Warm start', fraction: run.warm?.fraction ?? 0, leftMs: run.warm?.etaMs ?? null };
    case 'rl':
      if (run.step == null) return { stage: 'Evaluating the warm-started models', fraction: null, leftMs: null };
      return { stage: 'RL steps', fraction: run.steps > 0 ? Math.min(1, run.step / run.steps) : null, leftMs: run.paused ? null : rlLeftMs(run.arrivals, run.step, run.steps) };
    case 'done':
      return { stage: 'Done', fraction: 1, leftMs: 0 };
    default:
      return null;
  }
}
