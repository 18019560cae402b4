import { useMemo } from 'react';
import { isWarmStartMiss, type BackendReport } from '../../engine/protocol';
import { FIT_BUDGET } from './autoFit';
import { useLab } from '../store';
import { backendFromUrl } from '../trainingWorker';
import { savedRuns, useSavedRuns } from '../runs/runsController';
import { seedRuns } from '../seedRuns';
import { continuedMisses } from './warmMiss';

/**
 * Why the backend in use is not the first choice (infra's wording, asserted by e2e/backend.spec.ts),
 * or that it was forced by ?backend= even when it is the default one.
 */
export function bannerText(report: BackendReport, forced?: string | null): string | null {
  if (!report.reason) return forced && forced === report.backend ? `Using ${report.backend}: forced by ?backend=${forced}.` : null;
  const first = report.tried[0];
  if (first && first.name === 'webgpu' && !first.ok) return `WebGPU unavailable: ${report.reason}. Using ${report.backend} instead.`;
  return `Using ${report.backend}: ${report.reason}.`;
}

/**
 * WebGPU on SwiftShader is real WebGPU emulated on the CPU: correct but very slow (measured in
 * docs/BENCHMARKS.md: a rollout batch 15-250x slower than wasm on a 2-core machine). Say so, with
 * the way out, without changing the choice the user did not ask to change.
 */
export function emulationHint(report: BackendReport, forced?: string | null): string | null {
  if (report.backend !== 'webgpu' || report.adapter !== 'swiftshader') return null;
  return 'WebGPU is running on SwiftShader, a CPU emulation (no GPU found): training works but is slow. ' +
    (forced === 'webgpu'
      ? 'On this machine ?backend=wasm is much faster.'
      : 'Start trains on wasm instead: a CPU emulation of a GPU never beats it.');
}

/**
 * Backend banner, device-loss notice, ignored ?backend= warning, the shared link's problem, the
 * run's numerical blow-up (RunState.halt: why it stopped and what to change), and the run's error. Every message is rendered as text (React escapes it), never as HTML.
 */
export function Notices() {
  const engine = useLab((s) => s.engine);
  const error = useLab((s) => s.run.error);
  const recovery = useLab((s) => s.run.recovery);
  const workerDied = useLab((s) => s.run.workerDied);
  const runId = useLab((s) => s.run.runId);
  const savedId = useSavedRuns((s) => s.live[runId] ?? null);
  const halt = useLab((s) => s.run.halt);
  const linkNotice = useLab((s) => s.ui.linkNotice);
  const setLinkNotice = useLab((s) => s.setLinkNotice);
  const fitNotes = useLab((s) => s.ui.fitNotes);
  const hint = engine.report ? emulationHint(engine.report, backendFromUrl()) : null;
  // A run that went on past a warm-start miss says so, every time (warmMiss.ts).
  const runSpec = useLab((s) => s.run.spec);
  const members = useLab((s) => s.run.members);
  const misses = useMemo(() => continuedMisses(runSpec, members), [runSpec, members]);
  return (
    <div className="notices">
      {hint && (
        <div role="status" className="notice notice-info" data-testid="emulation-hint" title={hint}>
          <span className="notice-text">{hint}</span>
        </div>
      )}
      {recovery && (
        <div role="status" className="notice notice-warn" data-testid="run-recovered">
          {recoveryText(recovery)}
        </div>
      )}
      {engine.deviceLost && (
        <div role="alert" className="notice notice-error" data-testid="device-lost">
          {engine.deviceLost}. Now running on {engine.report?.backend ?? 'another backend'}.
        </div>
      )}
      {engine.warning && (
        <div role="status" className="notice notice-warn" data-testid="probe-warning">
          {engine.warning}
        </div>
      )}
      {linkNotice && (
        <div role={linkNotice.kind === 'error' ? 'alert' : 'status'} className={`notice ${linkNotice.kind === 'error' ? 'notice-error' : 'notice-warn'}`} data-testid={`link-${linkNotice.kind}`}>
          <span data-testid="link-message">{linkNotice.message}</span>{' '}
          <button type="button" className="link" onClick={() => setLinkNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {fitNotes.length > 0 && (
        <div role="status" className="notice notice-info" data-testid="fit-notes">
          {fitNotes.map((note, i) => (
            <p key={i} data-testid="fit-note">
              {note}
            </p>
          ))}
          <div className="hint">{FIT_BUDGET}</div>
        </div>
      )}
      {halt && (
        <div role="alert" className="notice notice-error" data-testid="run-halt" data-step={halt.step} data-quantity={halt.quantity} data-value={halt.value}>
          <strong>Stopped at step {halt.step}: a number became {halt.value}.</strong>
          <div className="hint" data-testid="run-halt-explanation">
            {halt.explanation}
          </div>
        </div>
      )}
      {misses.length > 0 && (
        <div role="status" className="notice notice-warn" data-testid="warm-miss">
          {misses.map((m, i) => (
            <p key={i}>{m}</p>
          ))}
        </div>
      )}
      {error && (
        <div role="alert" className="notice notice-error" data-testid="run-error">
          <strong>{error.message}</strong>
          <div className="hint">{error.hint}</div>
          {isWarmStartMiss(error.message) && (
            <button type="button" data-testid="go-on" title="Keep the best weights the warm start reached and train them with RL" onClick={goOnFromBest}>
              Go on from the best reached
            </button>
          )}
          {workerDied && savedId && (
            <button type="button" data-testid="resume-after-crash" onClick={() => void savedRuns.resume(savedId)}>
              Resume from the last checkpoint
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** Start again, this time going on into RL from the best weights each warm start reached (a cached warm start is not trained again). */
function goOnFromBest(): void {
  useLab.getState().editDraft((d) => ({ ...d, warmStart: { ...d.warmStart, onMiss: 'continue' } }));
  seedRuns.startDraft();
}

/** What a run rebuilt after a lost device says (runController.ts; the steps after the checkpoint run again). */
export function recoveryText(r: { fromStep: number | null; lostAtStep: number | null }): string {
  const lost = r.lostAtStep !== null ? ` at step ${r.lostAtStep}` : ' during the warm start';
  if (r.fromStep === null) return `The GPU device was lost${lost}. The run started again from the beginning on a fresh device; nothing was saved yet to continue from.`;
  return `The GPU device was lost${lost}. The run was rebuilt from its checkpoint of step ${r.fromStep} on a fresh device and goes on; the steps after ${r.fromStep} are computed again.`;
}
