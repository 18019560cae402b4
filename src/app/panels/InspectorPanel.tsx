import { useMemo } from 'react';
import { useLab } from '../store';
import { sampleIndex } from '../lib/votes';
import { MAX_SAMPLE_STEPS } from '../store/runSlice';
import { MemberRollouts } from './MemberRollouts';
import { Panel } from './Panel';

export function InspectorPanel() {
  const samples = useLab((s) => s.run.samples);
  const ui = useLab((s) => s.ui);
  const selectStep = useLab((s) => s.selectInspectorStep);
  const selectArm = useLab((s) => s.selectInspectorArm);
  const runArms = useLab((s) => s.run.spec?.arms);
  const steps = useMemo(() => samples.map((s) => s.step), [samples]);
  const index = sampleIndex(steps, ui.inspectorStep);
  const entry = index >= 0 ? samples[index] : null;
  const arms = entry ? entry.samples.map((s) => s.armId) : [];
  const armId = ui.inspectorArm && arms.includes(ui.inspectorArm) ? ui.inspectorArm : arms[0];
  const sample = entry?.samples.find((s) => s.armId === armId) ?? null;
  const scheme = runArms?.find((a) => a.id === armId)?.scheme;

  return (
    <Panel
      id="inspector"
      title="5. Rollout inspector"
      wide
      intro={
        <p>
          One prompt from a training step, exactly as each model saw it: its G sampled completions, the answer extracted from
          each, how the answers voted, the pseudo-label the reward was computed against, the reward each completion got, and
          whether it was really right. Drag the slider to look back over the last {MAX_SAMPLE_STEPS} steps.
        </p>
      }
    >
      {!entry || !sample ? (
        <p className="empty" data-testid="inspector-empty">
          Completions appear here after the first RL step.
        </p>
      ) : (
        <div className="inspector" data-testid="inspector" data-step={entry.step}>
          <div className="inspector-controls">
            <label className="field-inline">
              Step <strong data-testid="inspector-step">{entry.step}</strong>
              <input
                type="range"
                min={0}
                max={samples.length - 1}
                value={index}
                aria-label="Step to inspect"
                data-testid="inspector-slider"
                onChange={(e) => {
                  const i = Number(e.target.value);
                  selectStep(i >= samples.length - 1 ? null : steps[i]);
                }}
              />
            </label>
            <label className="field-inline">
              <input type="checkbox" checked={ui.inspectorStep == null} onChange={(e) => selectStep(e.target.checked ? null : entry.step)} /> follow latest
            </label>
            <div role="tablist" aria-label="Arm" className="tabs">
              {arms.map((id) => (
                <button key={id} type="button" role="tab" aria-selected={id === armId} className={id === armId ? 'tab active' : 'tab'} onClick={() => selectArm(id)}>
                  {id}
                </button>
              ))}
            </div>
          </div>
          <p className="prompt-line">
            Prompt <code data-testid="inspector-prompt">{sample.prompt}</code> truth <code data-testid="inspector-truth">{sample.truth}</code>{' '}
            <span className="sub">arm {sample.armId}{scheme ? ` (${scheme} reward)` : ''}</span>
          </p>
          <div className="member-rollouts">
            {sample.members.map((m) => (
              <MemberRollouts key={m.memberId} member={m} truth={sample.truth} />
            ))}
          </div>
        </div>
      )}
    </Panel>
  );
}
