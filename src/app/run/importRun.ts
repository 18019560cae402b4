/**
 * Opening a run file (src/share/bundle.ts) in the page: read it (size checked before reading),
 * say in words what is wrong with a bad one, and for a valid one let the student choose to show
 * it in place of the current run (replayed through the live reducer, never trained) or to overlay
 * it on the charts (the compare slice). A bad file changes nothing but the notice; showing one
 * keeps the experiment that was on screen, to go back to.
 */
import { getPreset, PRESETS } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { isActivePhase } from '../../engine/protocol';
import { type RunBundle, MAX_BUNDLE_CHARS, megabytes, parseBundle } from '../../share/bundle';
import { mergePatchDiff } from '../../share/mergePatch';
import { specFingerprint } from '../../share/url';
import { useLab } from '../store';
import { showRecord } from '../store/liveRecord';
import { replayRecord } from '../store/record';
import { seedResult } from '../store/seedsSlice';
import { checkRunFileTasksOffThread } from '../taskCheck';
import { lab } from '../trainingWorker';

/** What a dropped or picked file offers: a name, a size and its text. */
export interface RunFileSource {
  name: string;
  size: number;
  text(): Promise<string>;
}

const shortName = (name: string) => (name.length > 80 ? `${name.slice(0, 80)}…` : name);

/** Read a run file and set the notice: its problem, or the run, ready to show or overlay. Never throws. */
export async function openRunFile(file: RunFileSource): Promise<void> {
  const fileName = shortName(file.name || 'the file');
  const notice = useLab.getState().setImportNotice;
  if (file.size > MAX_BUNDLE_CHARS) {
    notice({ kind: 'error', fileName, message: `This run file could not be loaded: it is ${megabytes(file.size)}; the limit is ${megabytes(MAX_BUNDLE_CHARS)}.` });
    return;
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    notice({ kind: 'error', fileName, message: 'This run file could not be loaded: the browser could not read it.' });
    return;
  }
  // Its tasks are checked in a worker first (each run's spec holds one): a costly task never holds the page.
  await checkRunFileTasksOffThread(text);
  openRunText(fileName, text);
}

/** Parse a run file's text and set the notice (the part of openRunFile tests call directly). */
export function openRunText(fileName: string, text: string): void {
  const result = parseBundle(text);
  useLab.getState().setImportNotice(result.ok ? { kind: 'ready', fileName, bundle: result.bundle } : { kind: 'error', fileName, message: result.error });
}

/** The preset an imported experiment is shown under: the one it names, one it equals, or the current one. */
export function presetFor(spec: ExperimentSpec, named: string | undefined, current: string): { presetId: string; edited: boolean } {
  const fingerprint = specFingerprint(spec);
  const id = (named && getPreset(named) ? named : undefined) ?? Object.values(PRESETS).find((p) => specFingerprint(p.spec) === fingerprint)?.id ?? current;
  return { presetId: id, edited: mergePatchDiff(getPreset(id)!.spec, spec) !== undefined };
}

let imports = 0;

/**
 * Show a run file in place of the current run: a run in progress is stopped first, the charts are
 * the file's events replayed, the experiment panel shows its spec.
 */
export function showImportedRun(bundle: RunBundle): void {
  const s = useLab.getState();
  if (isActivePhase(s.run.phase)) lab.reset();
  // Negative ids are never a worker's: no late event of a live run can land on an imported one.
  const runId = -++imports;
  const previous = s.imported && s.run.runId === s.imported.runId ? s.imported.previous : { presetId: s.presetId, edited: s.edited, draft: s.draft };
  const { record } = bundle;
  const { presetId, edited } = presetFor(record.spec, bundle.preset, s.presetId);
  showRecord(runId, record, presetId);
  useLab.setState({
    run: replayRecord(record, runId),
    imported: { runId, name: bundle.name, createdAt: bundle.createdAt, backend: record.backend, previous },
    importNotice: null,
  });
  useLab.getState().loadSpec(presetId, record.spec, edited);
  useLab.getState().selectInspectorStep(null);
  // A file of several runs (a class room, "Run N seeds") opens as "Run N seeds" shows them: bands and claims over the runs.
  if (bundle.seeds?.length) useLab.setState({ seeds: { plan: null, results: bundle.seeds.map(seedResult), stopped: null } });
  else useLab.getState().clearSeeds();
}

/** Draw a run file behind the current run (dashed, the compare slice); the current run is untouched. */
export function overlayImportedRun(bundle: RunBundle): void {
  const s = useLab.getState();
  const id = `import:${bundle.createdAt}:${bundle.name}`;
  s.addCompare({ id, label: bundle.name, series: replayRecord(bundle.record, 0).series });
  s.setImportNotice({ kind: 'overlaid', name: bundle.name, layerId: id });
}

/** Leave an imported run: clear it and put back the experiment that was on screen before. */
export function backToExperiment(): void {
  const s = useLab.getState();
  const imported = s.imported;
  if (!imported) return;
  if (s.run.runId === imported.runId) s.resetRun();
  s.clearSeeds();
  s.loadSpec(imported.previous.presetId, imported.previous.draft, imported.previous.edited);
  s.setImported(null);
}
