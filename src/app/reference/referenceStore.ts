/**
 * Reference runs in the page: the shipped reference of the preset on screen (referenceSource.ts)
 * drawn dashed behind the live curves as a compare layer (store/compareSlice.ts), and the
 * reference shown alone, as the page's run, when asked or when this machine is too slow to train
 * the preset (projection.ts).
 *
 * `startReferences()` keeps the lab in step with the experiment on screen:
 *   - an unedited preset: its reference is looked up; when there is one and it was revealed
 *     ("Reveal the reference run", after the prediction: predict first, then reveal), layer
 *     `reference:PRESET` is in the lab's compare layers; anything else (another preset, an edited
 *     spec, not revealed, the reference shown alone) removes it. Hidden by default: the measured
 *     answer is not on screen while the class is asked to predict it;
 *   - the reference shown alone ends when another run takes the page (Start, an imported run),
 *     or when the preset changes or the spec is edited;
 *   - once per preset and page load, a projection over TOO_SLOW_MS shows the reference alone.
 * A separate small store (not a lab slice): it holds page state about shipped files only.
 */
import { create } from 'zustand';
import { getPreset } from '../../core/experiment/presets';
import { isActivePhase } from '../../engine/protocol';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { type ReferenceFile, referenceFingerprint, referenceLabel } from '../../share/reference';
import { useLab } from '../store';
import type { RunSeries } from '../store/series';
import { lab } from '../trainingWorker';
import { type Projection, projectRun } from './projection';
import { type ReferenceSource, siteReferenceSource } from './referenceSource';
import { referenceRunState, referenceSeries } from './referenceSeries';

export type ReferenceStatus =
  | { kind: 'idle' }
  | { kind: 'loading'; presetId: string }
  | { kind: 'ready'; presetId: string; reference: ReferenceFile; series: RunSeries }
  | { kind: 'none'; presetId: string }
  | { kind: 'stale'; presetId: string; message: string }
  | { kind: 'error'; presetId: string; message: string }
  /** The experiment on screen is an edited preset: no reference applies. */
  | { kind: 'edited'; presetId: string };

/** The reference shown alone as the page's run (`runId`: negative, never a worker's). */
export interface ReferenceOnly {
  runId: number;
  presetId: string;
  /** Why: the student asked (null), or the projection that was too slow. */
  slow: Projection | null;
}

export interface ReferenceState {
  status: ReferenceStatus;
  /**
   * The presets whose reference was revealed in this page load ("Reveal the reference run"): drawn
   * behind the live curves. Empty at first: the curves stay hidden until the prediction is made.
   */
  revealed: string[];
  only: ReferenceOnly | null;
  /** Presets the too-slow rule already showed alone in this page load (it acts once per preset). */
  slowShown: string[];
}

export function initialReferenceState(): ReferenceState {
  return { status: { kind: 'idle' }, revealed: [], only: null, slowShown: [] };
}

export const useReference = create<ReferenceState>()(() => initialReferenceState());

export const layerId = (presetId: string) => `reference:${presetId}`;

/** Ids of reference-only runs: far below the imported runs' -1, -2, ... */
let onlyRuns = 0;
const nextOnlyRunId = () => -1_000_000 - ++onlyRuns;

export interface ReferenceDeps {
  source: ReferenceSource;
  /** Stop the run in progress (the worker's). */
  stopRun(): void;
}

let deps: ReferenceDeps | null = null;

function readyReference(presetId: string): Extract<ReferenceStatus, { kind: 'ready' }> | null {
  const st = useReference.getState().status;
  return st.kind === 'ready' && st.presetId === presetId ? st : null;
}

/** Whether the reference of `presetId` was revealed. */
export const referenceRevealed = (r: Pick<ReferenceState, 'revealed'>, presetId: string): boolean => r.revealed.includes(presetId);

/** Reveal the reference of the experiment on screen, or hide it again. */
export function setShowReference(show: boolean, presetId = useLab.getState().presetId): void {
  const { revealed } = useReference.getState();
  if (show === revealed.includes(presetId)) return;
  useReference.setState({ revealed: show ? [...revealed, presetId] : revealed.filter((p) => p !== presetId) });
}

/**
 * Show the preset's reference alone, as the page's run: a run in progress is stopped, the charts
 * draw the seed means as the main series. `slow`: the projection that made the lab do it.
 */
export function showReferenceOnly(slow: Projection | null = null): boolean {
  const s = useLab.getState();
  const ready = readyReference(s.presetId);
  if (!ready || s.edited) return false;
  if (isActivePhase(s.run.phase)) (deps?.stopRun ?? lab.reset)();
  const runId = nextOnlyRunId();
  // The run first: `only` names a run the page already shows (sync drops it otherwise).
  useLab.setState({ run: referenceRunState(ready.reference, runId) });
  useReference.setState({ only: { runId, presetId: ready.presetId, slow } });
  useLab.getState().selectInspectorStep(null);
  return true;
}

/** Leave the reference shown alone: the page shows no run (the experiment is unchanged). */
export function leaveReferenceOnly(): void {
  const only = useReference.getState().only;
  if (!only) return;
  useReference.setState({ only: null });
  if (useLab.getState().run.runId === only.runId) useLab.getState().resetRun();
}

/** Whether the page shows the reference alone now. */
export function referenceOnlyShown(): ReferenceOnly | null {
  const only = useReference.getState().only;
  return only && useLab.getState().run.runId === only.runId ? only : null;
}

const fingerprints = new WeakMap<ExperimentSpec, string>();
function fingerprintOf(spec: ExperimentSpec): string {
  let f = fingerprints.get(spec);
  if (f === undefined) fingerprints.set(spec, (f = referenceFingerprint(spec)));
  return f;
}

let syncing = false;
let again = false;
let wanted: string | null = null;

/** Bring the lookup, the layer, the reference-only view and the too-slow rule in line with the lab. */
function sync(): void {
  if (syncing) {
    again = true;
    return;
  }
  syncing = true;
  try {
    do {
      again = false;
      syncOnce();
    } while (again);
  } finally {
    syncing = false;
  }
}

function syncOnce(): void {
  const s = useLab.getState();
  const r = useReference.getState();
  const { presetId, edited } = s;

  // The lookup for the experiment on screen.
  if (edited) {
    if (r.status.kind !== 'edited' || r.status.presetId !== presetId) useReference.setState({ status: { kind: 'edited', presetId } });
  } else if (r.status.kind === 'idle' || r.status.kind === 'edited' || r.status.presetId !== presetId) {
    lookup(presetId);
  }

  // The reference shown alone ends with another run, another preset or an edit.
  const only = useReference.getState().only;
  if (only) {
    if (s.run.runId !== only.runId) useReference.setState({ only: null });
    else if (only.presetId !== presetId || edited) leaveReferenceOnly();
  }

  // The layer.
  const ready = edited ? null : readyReference(presetId);
  const shownAlone = referenceOnlyShown() != null;
  const want = ready && referenceRevealed(useReference.getState(), presetId) && !shownAlone ? layerId(presetId) : null;
  for (const l of useLab.getState().compare) if (l.id.startsWith('reference:') && l.id !== want) useLab.getState().removeCompare(l.id);
  if (want && ready && !useLab.getState().compare.some((l) => l.id === want)) {
    useLab.getState().addCompare({ id: want, label: referenceLabel(ready.reference), series: ready.series });
  }

  // Too slow to train here: the reference alone, once per preset and page load. Never for a
  // student's seat in a class room: that run is the class's (the teacher ends it, not this rule),
  // and a paired seat's step times include waiting for its partner's answers.
  const seated = useLab.getState().room.role === 'student';
  if (ready && !shownAlone && !seated && !useReference.getState().slowShown.includes(presetId)) {
    const run = useLab.getState().run;
    // The run's own step times count when it is a run of this preset (any seed).
    const ownRun = run.runId > 0 && run.spec != null && fingerprintOf(run.spec) === ready.reference.fingerprint;
    const p = projectRun(ready.reference.spec, ownRun ? run.recent : [], useLab.getState().engine.measurement, useLab.getState().engine.report?.backend ?? null);
    if (p?.tooSlow) {
      useReference.setState((st) => ({ slowShown: [...st.slowShown, presetId] }));
      showReferenceOnly(p);
    }
  }
}

function lookup(presetId: string): void {
  if (!getPreset(presetId) || !deps) return;
  wanted = presetId;
  useReference.setState({ status: { kind: 'loading', presetId } });
  void deps.source.lookup(presetId).then((found) => {
    // Another preset may be on screen by now: only the latest lookup lands.
    if (wanted !== presetId) return;
    const status: ReferenceStatus =
      found.kind === 'ready'
        ? { kind: 'ready', presetId, reference: found.reference, series: referenceSeries(found.reference) }
        : found.kind === 'none'
          ? { kind: 'none', presetId }
          : { kind: found.kind, presetId, message: found.message };
    // Landed even if the experiment was edited meanwhile: sync then marks it edited, and a lookup
    // dropped here would leave the status 'loading' for good once the edit is undone.
    if (useLab.getState().presetId === presetId) useReference.setState({ status });
  });
}

/**
 * Keep the page's reference runs in step with the lab (the module comment). Returns the cleanup
 * for React's effect; `opts` replaces the site and the worker in tests.
 */
export function startReferences(opts: Partial<ReferenceDeps> = {}): () => void {
  const mine: ReferenceDeps = { source: opts.source ?? siteReferenceSource(), stopRun: opts.stopRun ?? (() => lab.reset()) };
  deps = mine;
  const offLab = useLab.subscribe(sync);
  const offRef = useReference.subscribe(sync);
  sync();
  return () => {
    offLab();
    offRef();
    // The reference bar and the projector view each start this; when one view replaces the other
    // the new one may start before the old one's cleanup runs, which must not stop the new one.
    if (deps !== mine) return;
    deps = null;
    wanted = null;
    // A lookup in flight is dropped with `wanted`: the next start must look up again, not wait on it.
    if (useReference.getState().status.kind === 'loading') useReference.setState({ status: { kind: 'idle' } });
  };
}

/** Tests: forget everything. */
export function resetReferences(): void {
  useReference.setState(initialReferenceState());
  wanted = null;
}
