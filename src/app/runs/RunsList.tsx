/**
 * The saved runs of this browser (side column, under the experiment): name, experiment, steps
 * done of total, status and date of each, with Resume (unfinished) or Open (finished), Overlay
 * (drawn behind the run on the charts), Rename and Delete; and which runs are overlaid now.
 * Every message is text; every control a real button or input with a name.
 */
import { useEffect, useId, useState } from 'react';
import { isActivePhase } from '../../engine/protocol';
import { useLab } from '../store';
import { listRows, MAX_NAME_CHARS, type RunRow } from './runData';
import { overlayId, savedRuns, startSavedRuns, useSavedRuns } from './runsController';

export function RunsList() {
  useEffect(() => startSavedRuns(), []);
  const { available, loaded, metas, bad, problem, notice, live } = useSavedRuns();
  const runId = useLab((s) => s.run.runId);
  const busy = useLab((s) => isActivePhase(s.run.phase));
  const compare = useLab((s) => s.compare);
  const liveId = live[runId] ?? null;
  const rows = listRows(metas, liveId);
  const overlaid = new Set(compare.map((l) => l.id));

  return (
    <section className="saved-runs" aria-labelledby="saved-runs-title" data-testid="saved-runs" data-loaded={loaded}>
      <h2 id="saved-runs-title">Saved runs</h2>
      {problem && (
        <p className="notice notice-error" role="alert" data-testid="runs-problem">
          {problem}
        </p>
      )}
      {notice && (
        <p className="notice" role="status" data-testid="runs-notice">
          {notice}{' '}
          <button type="button" className="link" onClick={() => savedRuns.dismissNotice()}>
            Dismiss
          </button>
        </p>
      )}
      {compare.length > 0 && (
        <div className="overlays" data-testid="runs-overlays">
          <p className="sub">Drawn behind this run on the charts:</p>
          <ul>
            {compare.map((l) => (
              <li key={l.id} data-testid="overlay-item" data-layer-id={l.id}>
                <span>{l.label}</span>{' '}
                <button type="button" className="link" aria-label={`Remove overlay ${l.label}`} onClick={() => savedRuns.removeOverlay(l.id)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {available && loaded && rows.length === 0 && bad.length === 0 && (
        <p className="empty" data-testid="runs-empty">
          No saved runs yet. Every run is saved in this browser as it trains, so it survives a reload.
        </p>
      )}
      {busy && rows.some((r) => !r.live) && <p className="sub">Reset the run in progress to open or resume another.</p>}
      <ul className="runs-list">
        {rows.map((row) => (
          <RunItem key={row.id} row={row} busy={busy} overlaid={overlaid.has(overlayId(row.id))} />
        ))}
        {bad.map((b) => (
          <li key={`bad-${b.id}`} className="saved-run bad" data-testid="saved-run-bad">
            <p className="notice notice-error">
              A saved run ({b.id}) cannot be read: {b.problem}
            </p>
            <button type="button" onClick={() => void savedRuns.remove(b.id)} aria-label={`Delete unreadable run ${b.id}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RunItem({ row, busy, overlaid }: { row: RunRow; busy: boolean; overlaid: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(row.name);
  const [confirming, setConfirming] = useState(false);
  const nameId = useId();
  const date = new Date(row.createdAt).toLocaleString();

  async function saveName() {
    if (await savedRuns.rename(row.id, draft)) setEditing(false);
  }

  return (
    <li className="saved-run" data-testid="saved-run" data-run-id={row.id} data-status={row.status} data-steps-done={row.stepsDone} data-steps={row.steps} data-checkpoint-step={row.checkpointStep ?? ''} data-live={row.live}>
      {editing ? (
        <form
          className="rename"
          onSubmit={(e) => {
            e.preventDefault();
            void saveName();
          }}
        >
          <label htmlFor={nameId} className="sub">
            Name
          </label>
          <input
            id={nameId}
            type="text"
            value={draft}
            maxLength={MAX_NAME_CHARS}
            autoFocus
            data-testid="run-name-input"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(false);
            }}
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <p className="run-name" data-testid="run-name">
          {row.name}
          {row.live && <span className="badge">on the charts</span>}
        </p>
      )}
      <p className="run-meta sub">
        <span>{row.summary}</span>
        <br />
        <span data-testid="run-progress">
          {row.stepsDone}/{row.steps} steps
        </span>{' '}
        · <span data-testid="run-status">{row.statusText}</span> · <time dateTime={new Date(row.createdAt).toISOString()}>{date}</time>
      </p>
      <div className="button-row">
        {row.resumable ? (
          <button type="button" disabled={busy || row.live} title={busy ? 'Reset the run in progress first' : 'Continue training from its last checkpoint'} aria-label={`Resume ${row.name}`} onClick={() => void savedRuns.resume(row.id)}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={busy || row.live} title={busy ? 'Reset the run in progress first' : 'Show it on the charts'} aria-label={`Open ${row.name}`} onClick={() => void savedRuns.open(row.id)}>
            Open
          </button>
        )}
        {overlaid ? (
          <button type="button" aria-label={`Remove overlay ${row.name}`} onClick={() => savedRuns.removeOverlay(overlayId(row.id))}>
            Remove overlay
          </button>
        ) : (
          <button type="button" disabled={row.live} title="Draw it behind the current run on the charts" aria-label={`Overlay ${row.name}`} onClick={() => void savedRuns.overlay(row.id)}>
            Overlay
          </button>
        )}
        {!editing && (
          <button
            type="button"
            aria-label={`Rename ${row.name}`}
            onClick={() => {
              setDraft(row.name);
              setEditing(true);
            }}
          >
            Rename
          </button>
        )}
        {!confirming && (
          <button type="button" aria-label={`Delete ${row.name}`} onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-label={`Delete ${row.name}?`}>
          <p>
            Delete “{row.name}” from this browser? This cannot be undone.
            {row.live && busy ? ' The run goes on, unsaved.' : ''}
          </p>
          <div className="button-row">
            <button
              type="button"
              className="danger"
              data-testid="confirm-delete"
              onClick={() => {
                setConfirming(false);
                void savedRuns.remove(row.id);
              }}
            >
              Delete run
            </button>
            <button type="button" autoFocus onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
