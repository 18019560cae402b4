/**
 * The reference run of the preset on screen, under the run bar (referenceStore.ts): hidden until
 * revealed, with the question to predict first beside "Reveal the reference run" (reveal.ts; in
 * workshop mode it waits for the workshop card's prediction), then what the dashed layer is, "Show the reference only", and, while the
 * reference is shown alone, the banner saying it was not trained here (and why, when this machine
 * is too slow). Presets without a reference say so. Plain text throughout.
 *
 * data-testid="reference-bar" carries data-status (idle, loading, ready, none, stale, error,
 * edited) and data-layer ("on" when the reference layer is in the lab's compare layers).
 */
import { useEffect, useMemo } from 'react';
import { otherTask } from '../controls/presetTask';
import { referenceLabel, seedsText } from '../../share/reference';
import { useLab } from '../store';
import { lab } from '../trainingWorker';
import { projectionText } from './projection';
import { layerId, leaveReferenceOnly, referenceRevealed, setShowReference, showReferenceOnly, startReferences, useReference } from './referenceStore';
import { revealBlock, revealQuestion } from './reveal';

export function ReferenceBar() {
  useEffect(() => startReferences(), []);
  const status = useReference((s) => s.status);
  const show = useReference((s) => status.kind === 'ready' && referenceRevealed(s, status.presetId));
  const blocked = useLab((s) => revealBlock(s.classroom.workshop));
  const only = useReference((s) => s.only);
  const runId = useLab((s) => s.run.runId);
  const layerOn = useLab((s) => status.kind === 'ready' && s.compare.some((l) => l.id === layerId(status.presetId)));
  const alone = only && only.runId === runId ? only : null;
  const task = useLab((s) => s.draft.task);
  const presetId = useLab((s) => s.presetId);
  const otherTitle = useMemo(() => otherTask(task, presetId)?.title ?? null, [task, presetId]);

  if (alone && status.kind === 'ready') {
    const ref = status.reference;
    const n = ref.seeds.length;
    return (
      <div className="notices reference-notices">
        <div role="status" className="notice reference-banner" data-testid="reference-banner" data-preset={ref.preset} data-reason={alone.slow ? 'slow' : 'asked'}>
          <span>
            <strong data-testid="reference-banner-title">
              Reference run (measured, {n} {n === 1 ? 'seed' : 'seeds'}, mean) — not trained on this machine
            </strong>
            . The charts show the seed means of preset <strong>{ref.preset}</strong> ({seedsText(ref.seeds)}, trained on {ref.backend}); Start trains it here.
            {alone.slow && (
              <span className="reference-why" data-testid="reference-slow">
                {' '}
                {projectionText(alone.slow)}
              </span>
            )}
          </span>
          <span className="button-row">
            <button
              type="button"
              className="primary"
              data-testid="reference-train"
              onClick={() => {
                leaveReferenceOnly();
                lab.start();
              }}
            >
              {alone.slow ? 'Train it here anyway' : 'Train it here'}
            </button>
            <button type="button" data-testid="reference-back" onClick={leaveReferenceOnly}>
              Back to the experiment
            </button>
          </span>
        </div>
      </div>
    );
  }

  return (
    <div className="reference-bar" data-testid="reference-bar" data-status={status.kind} data-layer={layerOn ? 'on' : 'off'}>
      {status.kind === 'ready' && (
        <>
          {!show && (
            <span className="reference-predict" data-testid="reference-predict">
              <strong>Predict first.</strong> {revealQuestion(status.presetId)}
            </span>
          )}
          <label className="check" title={blocked ?? 'The measured run of this preset, drawn dashed behind the live curves'}>
            <input type="checkbox" checked={show} disabled={blocked != null && !show} data-testid="reference-toggle" onChange={(e) => setShowReference(e.target.checked)} />{' '}
            {show ? 'Show reference run' : 'Reveal the reference run'}
          </label>
          <span className="sub" data-testid="reference-label">
            {referenceLabel(status.reference)} ({seedsText(status.reference.seeds)}, trained on {status.reference.backend}){layerOn ? ', drawn dashed behind the live curves' : ', hidden'}
          </span>
          {blocked && !show ? (
            <span className="sub" data-testid="reference-blocked">
              {blocked}
            </span>
          ) : (
            <button type="button" className="link" data-testid="reference-only" title="Show the measured reference alone in the charts, without training" onClick={() => showReferenceOnly()}>
              Show the reference only
            </button>
          )}
        </>
      )}
      {status.kind === 'none' && (
        <span className="sub" data-testid="reference-none">
          No reference run shipped for this preset.
        </span>
      )}
      {status.kind === 'edited' && (
        <span className="sub" data-testid="reference-edited">
          {otherTitle ? `"${otherTitle}" is not the preset's task: the preset's reference run does not apply.` : "Edited experiment: the preset's reference run does not apply."}
        </span>
      )}
      {status.kind === 'loading' && <span className="sub">Loading the reference run…</span>}
      {(status.kind === 'stale' || status.kind === 'error') && (
        <span className="sub" data-testid="reference-problem">
          {status.message}
        </span>
      )}
    </div>
  );
}
