/**
 * What the page says about run files (importRun.ts): a bad file's problem, a valid run waiting
 * for Show or Overlay, an overlay drawn, and the banner over an imported run with the way back to
 * the experiment. File names, run names and messages come from files: rendered as text only.
 */
import type { RunBundle } from '../../share/bundle';
import { isActivePhase } from '../../engine/protocol';
import { useLab } from '../store';
import { backToExperiment, overlayImportedRun, showImportedRun } from './importRun';

function stepsOf(bundle: RunBundle): number {
  let n = 0;
  for (const e of bundle.record.events) if (e.type === 'step') n++;
  return n;
}

/** "6 of 6 RL steps on wasm, saved 2 Jan 2025, 03:04" */
function runFileText(bundle: RunBundle): string {
  const { record } = bundle;
  const finished = record.events.at(-1)?.type === 'done';
  const saved = new Date(bundle.createdAt);
  const when = Number.isNaN(saved.getTime()) ? bundle.createdAt : saved.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `${stepsOf(bundle)} of ${record.spec.steps} RL steps${finished ? '' : ' (stopped early)'}${record.backend ? ` on ${record.backend}` : ''}, saved ${when}`;
}

export function ImportNotices() {
  const notice = useLab((s) => s.importNotice);
  const imported = useLab((s) => s.imported);
  const runId = useLab((s) => s.run.runId);
  const active = useLab((s) => isActivePhase(s.run.phase));
  const setNotice = useLab((s) => s.setImportNotice);
  const removeCompare = useLab((s) => s.removeCompare);
  const shown = imported && imported.runId === runId ? imported : null;

  return (
    <div className="notices import-notices">
      {notice?.kind === 'error' && (
        <div role="alert" className="notice notice-error" data-testid="import-error">
          <span data-testid="import-message">
            {notice.fileName}: {notice.message}
          </span>{' '}
          <button type="button" className="link" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {notice?.kind === 'ready' && (
        <div role="status" className="notice notice-info import-ready" data-testid="import-ready">
          <span>
            Run file <strong data-testid="import-ready-name">{notice.bundle.name}</strong> ({notice.fileName}): {runFileText(notice.bundle)}.
          </span>
          <span className="button-row">
            <button type="button" className="primary" data-testid="import-show" onClick={() => showImportedRun(notice.bundle)}>
              {active ? 'Stop the current run and show this one' : 'Show this run'}
            </button>
            <button type="button" data-testid="import-overlay" title="Draw it dashed behind the current run" onClick={() => overlayImportedRun(notice.bundle)}>
              Overlay on the charts
            </button>
            <button type="button" className="link" onClick={() => setNotice(null)}>
              Cancel
            </button>
          </span>
        </div>
      )}
      {notice?.kind === 'overlaid' && (
        <div role="status" className="notice notice-info" data-testid="import-overlaid" data-layer={notice.layerId}>
          <span>
            <strong>{notice.name}</strong> is drawn behind the current run (dashed).
          </span>{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              removeCompare(notice.layerId);
              setNotice(null);
            }}
          >
            Remove the overlay
          </button>{' '}
          <button type="button" className="link" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {shown && (
        <div role="status" className="notice imported-banner" data-testid="imported-banner">
          <span>
            Imported run <strong data-testid="imported-name">{shown.name}</strong> — not trained here
            {shown.backend ? ` (trained on ${shown.backend})` : ''}. The experiment panel shows its experiment: Start trains it here.
          </span>{' '}
          <button type="button" data-testid="imported-back" onClick={backToExperiment}>
            Back to my experiment
          </button>
        </div>
      )}
    </div>
  );
}
