/**
 * Before a run: what will happen, how long it takes, and a clear Start (issue 23: a reopened share
 * link showed empty scores with no hint to press Start). Gone once the run begins.
 */
import { PRESETS } from '../../core/experiment/presets';
import { presetRuntime } from '../controls/presetRuntimes';
import { useLab } from '../store';
import { lab } from '../trainingWorker';
import { useStartReason } from '../run/useStartReason';
import { focusPauseSoon } from '../run/focusAfterStart';

export function HeroStart() {
  const phase = useLab((s) => s.run.phase);
  const steps = useLab((s) => s.run.stepsReceived);
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const draft = useLab((s) => s.draft);
  const reason = useStartReason();
  if (phase !== 'idle' || steps > 0) return null;
  const preset = PRESETS[presetId];
  const runtime = edited ? null : presetRuntime(presetId);
  const arms = draft.arms.map((a) => `${a.id} (${a.scheme})`).join(', ');
  return (
    <div className="hero-start" data-testid="hero-start">
      <p>
        <strong>{preset && !edited ? preset.title : 'Your experiment'}:</strong> {draft.steps} RL steps of the arms {arms}, all from the same
        warm-started models{runtime ? `; about ${runtime.range} on ${runtime.machine}` : ''}.
      </p>
      <button type="button" className="primary" data-testid="hero-start-button" disabled={reason != null} title={reason ?? 'Warm-start the cohort, then train every arm'} onClick={() => lab.start() && focusPauseSoon()}>
        ▶ Start
      </button>
      {reason && <span className="sub">{reason}</span>}
    </div>
  );
}
