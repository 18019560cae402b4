import { useEffect, useState } from 'react';
import { useDraftValidation } from '../controls/validation';
import { useLab } from '../store';
import { DEFAULT_MODEL_ID, modelIdProblem, sharedModelWarnings } from '../../export/trl/modelIds';
import { downloadBlob } from '../lib/download';

type ExportState = { kind: 'idle' } | { kind: 'building' } | { kind: 'done'; fileName: string; notes: string[] } | { kind: 'error'; message: string };

/**
 * "Export for GPUs": the experiment on screen as a runnable TRL project (a zip), one Hugging Face
 * model id per member. The builder is the one `npm run export` uses (src/export/trl), loaded on
 * first use so the page does not carry it.
 */
export function ExportTrlButton() {
  const validation = useDraftValidation();
  const memberIds = useLab((s) => s.draft.members.map((m) => m.id).join('\u0000')).split('\u0000').filter(Boolean);
  const presetId = useLab((s) => (s.edited ? null : s.presetId));
  const [open, setOpen] = useState(false);
  const [models, setModels] = useState<Record<string, string>>({});
  const [state, setState] = useState<ExportState>({ kind: 'idle' });

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const modelOf = (id: string) => models[id] ?? DEFAULT_MODEL_ID;
  const problems = memberIds.map((id) => modelIdProblem(modelOf(id)));
  // Members of one model differ only by their sampling seeds: say so before the download.
  const shared = sharedModelWarnings(memberIds, memberIds.map(modelOf));
  const reason = !validation.ok
    ? `Fix the experiment first: ${validation.problems[0].message}`
    : problems.some((p) => p !== null)
      ? 'Fix the model ids first.'
      : null;

  async function exportZip() {
    if (!validation.ok || reason) return;
    setState({ kind: 'building' });
    try {
      const { buildTrlZip } = await import('../../export/trl/browser');
      const zip = buildTrlZip(validation.spec, memberIds.map(modelOf), presetId);
      downloadBlob(zip.fileName, new Blob([zip.bytes as BlobPart], { type: 'application/zip' }));
      setState({ kind: 'done', fileName: zip.fileName, notes: zip.export.notes });
    } catch (e) {
      setState({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }

  return (
    <span className="export-trl">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="export-trl-panel"
        data-testid="export-trl"
        title="Download this experiment as a Python project for Hugging Face TRL, to train real language models on GPUs"
        onClick={() => setOpen(!open)}
      >
        Export for GPUs
      </button>
      {open && (
        <div className="export-trl-panel" id="export-trl-panel" role="group" aria-label="Export for GPUs" data-testid="export-trl-panel">
          <p className="export-trl-about">
            A Python project for Hugging Face TRL (GRPOTrainer): every member of each arm trains as its own process and
            the members swap their votes through a shared folder, as in Co-RL. One model id per member. Nothing is trained
            here; the project's README says what maps to what.
          </p>
          {memberIds.map((id, i) => (
            <label key={id} className="export-trl-model">
              <span>Model for {id}</span>
              <input
                type="text"
                value={modelOf(id)}
                spellCheck={false}
                aria-invalid={problems[i] !== null}
                data-testid={`export-model-${id}`}
                onChange={(e) => setModels({ ...models, [id]: e.target.value })}
              />
              {problems[i] && <span className="field-problem">{problems[i]}</span>}
            </label>
          ))}
          {shared.map((w) => (
            <p key={w} className="notice notice-warn" data-testid="export-trl-shared-model">
              {w}
            </p>
          ))}
          <div className="export-trl-actions">
            <button type="button" className="primary" disabled={reason !== null || state.kind === 'building'} data-testid="export-trl-download" onClick={() => void exportZip()}>
              {state.kind === 'building' ? 'Building…' : 'Download zip'}
            </button>
            <button type="button" className="link" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
          {reason && <p className="start-reason">{reason}</p>}
          {state.kind === 'done' && (
            <div role="status" className="export-trl-status" data-testid="export-trl-status">
              Downloaded {state.fileName}.
              {state.notes.length > 0 && (
                <ul>
                  {state.notes.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          {state.kind === 'error' && (
            <p role="alert" className="start-reason" data-testid="export-trl-error">
              {state.message}
            </p>
          )}
        </div>
      )}
    </span>
  );
}
