/**
 * Export, in the run bar: the run shown (live or imported) as a run file that the lab opens again
 * (src/share/bundle.ts), and its metrics as CSV (members, pairs) or JSON for a spreadsheet or a
 * notebook (lib/exportMetrics.ts). Enabled once the run has at least one RL step.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { getPreset } from '../../core/experiment/presets';
import { MAX_BUNDLE_CHARS, cleanName, megabytes, serializeBundle, serializeSeedsBundle } from '../../share/bundle';
import { mergePatchDiff } from '../../share/mergePatch';
import { downloadText } from '../lib/download';
import { fileStem, memberMetricsCsv, metricsJson, pairMetricsCsv } from '../lib/exportMetrics';
import { useLab } from '../store';
import { recordOf } from '../store/liveRecord';
import { pageVerdictSentence, withVerdictLine } from './verdictOnPage';


/** A name that says what the run was: its preset, seed and steps (or the imported file's name). */
function defaultName(): string {
  const { run, imported } = useLab.getState();
  if (imported && imported.runId === run.runId) return imported.name;
  const shown = recordOf(run.runId);
  const preset = shown?.preset ? getPreset(shown.preset) : undefined;
  const spec = run.spec;
  const what = preset ? `${preset.id}${spec && mergePatchDiff(preset.spec, spec) !== undefined ? ' (edited)' : ''}` : 'experiment';
  return `${what}, seed ${spec?.seed ?? '?'}, ${run.step ?? 0} of ${run.steps} steps`;
}

export function ExportMenu() {
  const runId = useLab((s) => s.run.runId);
  const stepsReceived = useLab((s) => s.run.stepsReceived);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const enabled = runId !== 0 && stepsReceived > 0;

  useEffect(() => {
    if (!enabled) setOpen(false);
  }, [enabled]);
  // A new run, or the menu opened again: the last save's message is old news.
  useEffect(() => setStatus(null), [runId, open]);

  function openMenu() {
    setName(defaultName());
    setOpen(true);
  }

  function close() {
    setOpen(false);
    toggle.current?.focus();
  }

  function save(kind: 'bundle' | 'members' | 'pairs' | 'json') {
    const { run } = useLab.getState();
    const runName = cleanName(name);
    const stem = fileStem(runName);
    if (kind === 'bundle') {
      const shown = recordOf(run.runId);
      if (!shown) {
        setStatus({ kind: 'error', text: 'This run has no record to save (it was reset); its metrics can still be exported.' });
        return;
      }
      // A block of seeds on the page (an own task's Start, "Run N seeds") is saved whole: the file
      // opens as the block, and its verdict is read from its runs again.
      const block = useLab.getState().seeds;
      const seeds = block.plan ? [] : block.results.filter((r) => r.finished).map((r) => r.record);
      const text = seeds.length > 1 ? serializeSeedsBundle(seeds, runName, { preset: shown.preset }) : serializeBundle(shown.record, runName, { preset: shown.preset });
      if (text.length > MAX_BUNDLE_CHARS) {
        setStatus({ kind: 'error', text: `This run is too long for a run file (${megabytes(text.length)}; a run file may have ${megabytes(MAX_BUNDLE_CHARS)}): export its metrics as CSV or JSON instead.` });
        return;
      }
      downloadText(`${stem}.json`, text, 'application/json');
      setStatus({ kind: 'ok', text: `Saved ${stem}.json: open it again with “Open run file…”.` });
    } else if (kind === 'members') {
      downloadText(`${stem}-members.csv`, withVerdictLine(memberMetricsCsv(run.series), pageVerdictSentence(useLab.getState())), 'text/csv');
      setStatus({ kind: 'ok', text: `Saved ${stem}-members.csv.` });
    } else if (kind === 'pairs') {
      downloadText(`${stem}-pairs.csv`, withVerdictLine(pairMetricsCsv(run.series), pageVerdictSentence(useLab.getState())), 'text/csv');
      setStatus({ kind: 'ok', text: `Saved ${stem}-pairs.csv.` });
    } else {
      const backend = recordOf(run.runId)?.record.backend ?? null;
      downloadText(`${stem}-metrics.json`, metricsJson(run.series, { name: runName, spec: run.spec, backend }), 'application/json');
      setStatus({ kind: 'ok', text: `Saved ${stem}-metrics.json.` });
    }
  }

  return (
    <span className="export-menu" onKeyDown={(e) => e.key === 'Escape' && open && close()}>
      <button
        ref={toggle}
        type="button"
        data-testid="export-toggle"
        disabled={!enabled}
        aria-expanded={open}
        aria-controls={panelId}
        title={enabled ? 'Save this run as a file, or its metrics as CSV or JSON' : 'Export needs a run with at least one RL step'}
        onClick={() => (open ? close() : openMenu())}
      >
        Export ▾
      </button>
      {open && (
        <div className="export-panel" id={panelId} role="group" aria-label="Export this run" data-testid="export-panel">
          <label className="field">
            <span>Name</span>
            <input type="text" value={name} maxLength={120} data-testid="export-name" onChange={(e) => setName(e.target.value)} />
          </label>
          <div className="button-row">
            <button type="button" data-testid="export-bundle" title="The whole run (experiment and every step), to open again in Cohort Lab" onClick={() => save('bundle')}>
              Run file (.json)
            </button>
            <button type="button" data-testid="export-members-csv" title="One row per step, arm and member; a column per metric" onClick={() => save('members')}>
              Member metrics (.csv)
            </button>
            <button type="button" data-testid="export-pairs-csv" title="One row per step, arm and pair of members: agreement, kappa, shared errors" onClick={() => save('pairs')}>
              Pair metrics (.csv)
            </button>
            <button type="button" data-testid="export-metrics-json" title="Every chart column as JSON arrays" onClick={() => save('json')}>
              Metrics (.json)
            </button>
          </div>
          {status && (
            <p role={status.kind === 'error' ? 'alert' : 'status'} className={status.kind === 'error' ? 'export-status error' : 'export-status'} data-testid="export-status">
              {status.text}
            </p>
          )}
        </div>
      )}
    </span>
  );
}
