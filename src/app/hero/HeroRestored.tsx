/**
 * After a reload, the hero says which saved run is on the charts again (runsController's
 * showLastRun), with Resume when it can go on, and how to start afresh.
 */
import { useLab } from '../store';
import { savedRuns, useSavedRuns } from '../runs/runsController';

export function HeroRestored() {
  const restored = useSavedRuns((s) => s.restored);
  const runId = useLab((s) => s.run.runId);
  if (!restored || restored.runId !== runId) return null;
  return (
    <p className="hero-restored" role="status" data-testid="hero-restored" data-resumable={restored.resumable}>
      <span>
        Your last run of this experiment, saved in this browser: <strong>“{restored.name}”</strong>, {restored.stepsDone} of {restored.steps} RL steps
        {restored.resumable ? ', not finished.' : '.'}
      </span>{' '}
      {restored.resumable && (
        <button type="button" className="primary" data-testid="hero-resume" onClick={() => void savedRuns.resume(restored.id)}>
          ▶ Resume it
        </button>
      )}{' '}
      <span className="sub">Start trains it afresh.</span>
    </p>
  );
}
