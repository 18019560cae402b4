/**
 * Before a run: what will happen, how long it takes, and where to press Start (a reopened
 * share link showed empty scores with no hint to press Start). Gone once the run begins.
 *
 * It names the run bar's Start rather than carrying a second one (two Start
 * buttons on one screen): the run bar is the page's one set of run controls, kept in view at the top.
 */
import { useMemo } from 'react';
import { PRESETS } from '../../core/experiment/presets';
import { otherTask } from '../controls/presetTask';
import { presetRuntime } from '../controls/presetRuntimes';
import { useLab } from '../store';
import { useStartReason } from '../run/useStartReason';
import { GlossaryTerm } from '../GlossaryTerm';

export function HeroStart() {
  const phase = useLab((s) => s.run.phase);
  const steps = useLab((s) => s.run.stepsReceived);
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const draft = useLab((s) => s.draft);
  const reason = useStartReason();
  const other = useMemo(() => otherTask(draft.task, presetId), [draft.task, presetId]);
  if (phase !== 'idle' || steps > 0) return null;
  const preset = PRESETS[presetId];
  const runtime = edited ? null : presetRuntime(presetId);
  // An arm named after its reward scheme is not named twice ("self (self)").
  const arms = draft.arms.map((a) => (a.id === a.scheme ? a.id : `${a.id} (${a.scheme})`)).join(', ');
  return (
    <div className="hero-start" data-testid="hero-start">
      <p>
        <strong>{other ? `Your question, ${other.title}` : preset && !edited ? preset.title : 'Your experiment'}:</strong> the same <GlossaryTerm term="Warm start">warm-started</GlossaryTerm> models train in{' '}
        {draft.arms.length} <GlossaryTerm term="Arm">arms</GlossaryTerm>, each rewarded its own way ({arms}), for {draft.steps} <GlossaryTerm term="RL step">RL steps</GlossaryTerm>
        {runtime ? (
          <>
            ; about <span title={`Measured on ${runtime.measuredOn}`}>{runtime.range} on {runtime.machine}</span>
          </>
        ) : (
          ''
        )}
        .
      </p>
      <p data-testid="hero-start-hint">
        {reason ? <span className="sub">Start, in the run bar at the top, waits: {reason}</span> : <>Press <strong>▶ Start</strong> in the run bar at the top: it warm-starts the cohort, then trains every arm.</>}
      </p>
    </div>
  );
}
