/**
 * The saved runs of this browser, for the page: a small store the runs list reads (rows,
 * problems in words), the saver wired to the training worker (every run started or resumed is
 * saved as it goes), and what the list's buttons do: Open, Resume, Overlay, Rename, Delete.
 *
 * Resume: the saved events are checked, those after the checkpoint's step are dropped (the
 * continued run emits them again, the same numbers: the runner is deterministic from a
 * checkpoint), the rest are replayed into the run store so the charts show the whole history, and
 * the worker continues from the checkpoint, its events appended to the same saved run.
 */
import { create } from 'zustand';
import { isActivePhase } from '../../engine/protocol';
import { useLab } from '../store';
import { type RecordedEvent, replayRecord } from '../store/record';
import { startedRunState } from '../store/runSlice';
import { lab, observeRuns } from '../trainingWorker';
import { type LoadedRun, type SavedRunMeta, checkLoadedRun, checkMeta, cleanName, defaultRunName, recordOf, resumePlan } from './runData';
import { RunSaver } from './runSaver';
import { blockRunsOf, lastRunOf } from './lastRun';
import { seedResult } from '../store/seedsSlice';
import { VERDICT_SEEDS } from '../../core/experiment/verdict';
import { type RunStore, idbRunStore, storageProblem } from './savedRuns';

export interface SavedRunsState {
  /** False where the browser offers no IndexedDB: nothing is saved. */
  available: boolean;
  loaded: boolean;
  metas: SavedRunMeta[];
  /** Stored runs whose row cannot be read, with why. */
  bad: { id: string; problem: string }[];
  /** Saving or reading failed (null: all well). */
  problem: string | null;
  /** What the last action could not do, in words. */
  notice: string | null;
  /** The page's run id -> the saved run it is written to. */
  live: Record<number, string>;
  /** The saved run shown again after the page loaded (lastRun.ts), while it is on the charts. */
  restored: { id: string; runId: number; name: string; stepsDone: number; steps: number; resumable: boolean } | null;
}

export const useSavedRuns = create<SavedRunsState>()(() => ({ available: true, loaded: false, metas: [], bad: [], problem: null, notice: null, live: {}, restored: null }));

const set = (patch: Partial<SavedRunsState>) => useSavedRuns.setState(patch);

/** Compare-layer id of a saved run drawn behind the live one. */
export const overlayId = (savedId: string) => `saved:${savedId}`;

let store: RunStore | null = null;
let saver: RunSaver | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

export const NO_INDEXEDDB =
  'Runs are not saved: this browser offers no storage for this page (private browsing, or storage turned off). Runs still train here, but a reload loses them.';

/**
 * Open the saved runs and save every run from now on. Returns the cleanup (React effect).
 * `factory`: the IndexedDB to use (tests and the e2e's "no IndexedDB" case pass another).
 */
export function startSavedRuns(factory: IDBFactory | undefined = globalThis.indexedDB): () => void {
  store = idbRunStore(factory, () => set({ problem: 'Saved runs are blocked by another tab of Cohort Lab with an older version: close it, then reload.' }));
  if (!store) {
    set({ available: false, loaded: true, problem: NO_INDEXEDDB });
    return () => {};
  }
  const s = new RunSaver(store, {
    backend: () => useLab.getState().engine.report?.backend ?? null,
    onSaved: refreshSoon,
    onProblem: (problem) => set({ problem }),
  });
  saver = s;
  observeRuns({
    started(runId, spec, memberPart) {
      const { presetId, edited } = useLab.getState();
      const id = s.begin(runId, { name: defaultRunName(presetId, edited), presetId, edited, spec, backend: useLab.getState().engine.report?.backend ?? null, memberPart });
      set({ live: { ...useSavedRuns.getState().live, [runId]: id } });
    },
    event: (ev) => s.event(ev),
  });
  void refresh().then(showLastRun);
  const hide = () => void s.flushAll();
  window.addEventListener('pagehide', hide);
  return () => {
    observeRuns(null);
    window.removeEventListener('pagehide', hide);
    if (saver === s) saver = null;
  };
}

/** Read the list again (rows checked; a bad one is listed with its problem). */
export async function refresh(): Promise<void> {
  if (!store) return;
  try {
    const rows = await store.list();
    const metas: SavedRunMeta[] = [];
    const bad: SavedRunsState['bad'] = [];
    for (const raw of rows) {
      const m = checkMeta(raw);
      if (m.ok) metas.push(m.value);
      else bad.push({ id: String((raw as { id?: unknown } | null)?.id ?? '?').slice(0, 64), problem: m.problem });
    }
    set({ metas, bad, loaded: true });
  } catch (e) {
    set({ loaded: true, problem: `Saved runs cannot be read: ${storageProblem(e)}. Runs still train here.` });
  }
}

/**
 * Once, when the page has loaded its saved runs: if nothing has been started or opened yet, show
 * the last saved run of the experiment on screen (finished, or to be resumed), as Open would.
 */
async function showLastRun(): Promise<void> {
  const untouched = () => {
    const s = useLab.getState();
    return s.run.runId === 0 && s.run.phase === 'idle' && s.imported == null && s.seeds.plan == null;
  };
  if (!untouched()) return;
  const draft = useLab.getState().draft;
  // A task of one's own trains a block of seeds: its link reopened shows the block, and its verdict, again.
  const block = draft.task.id === 'custom' ? blockRunsOf(useSavedRuns.getState().metas, draft, VERDICT_SEEDS) : null;
  if (block) {
    const runs = await Promise.all(block.map((m) => load(m.id)));
    if (!untouched()) return;
    if (runs.every((r): r is LoadedRun => r != null)) {
      const records = runs.map((r) => recordOf(r));
      const last = block[block.length - 1];
      lab.showRun(replayRecord(records[records.length - 1], 0));
      useLab.setState({ seeds: { plan: null, results: records.map(seedResult), stopped: null } });
      set({ restored: { id: last.id, runId: useLab.getState().run.runId, name: last.name, stepsDone: last.stepsDone, steps: last.spec.steps, resumable: false } });
      return;
    }
  }
  const last = lastRunOf(useSavedRuns.getState().metas, draft);
  if (!last) return;
  const run = await load(last.id);
  if (!run || !untouched()) return;
  lab.showRun(replayRecord(recordOf(run), 0));
  const resumable = last.status !== 'done' && last.status !== 'halted';
  set({ restored: { id: last.id, runId: useLab.getState().run.runId, name: last.name, stepsDone: last.stepsDone, steps: last.spec.steps, resumable } });
}

function refreshSoon(): void {
  if (refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refresh();
  }, 300);
}

/** The saved run the page's run trains into now (null: none). */
export function liveSavedId(runId: number): string | null {
  return useSavedRuns.getState().live[runId] ?? null;
}

async function load(id: string): Promise<LoadedRun | null> {
  if (!store) return null;
  const name = useSavedRuns.getState().metas.find((m) => m.id === id)?.name ?? id;
  try {
    // What the saver still holds (e.g. a run stopped a moment ago) lands first.
    await saver?.flushAll();
    const raw = await store.load(id);
    if (!raw) {
      set({ notice: `“${name}” is no longer saved.` });
      void refresh();
      return null;
    }
    const checked = checkLoadedRun(raw.meta, raw.events, raw.checkpoint);
    if (!checked.ok) {
      set({ notice: `“${name}” cannot be opened: ${checked.problem}.` });
      return null;
    }
    return checked.value;
  } catch (e) {
    set({ notice: `“${name}” cannot be read: ${storageProblem(e)}.` });
    return null;
  }
}

function showSpec(run: LoadedRun): void {
  // The Experiment panel shows the experiment on the charts (a spec of a preset that no longer
  // exists is left out: the panel keeps what it has).
  useLab.getState().loadSpec(run.meta.presetId, run.meta.spec, run.meta.edited);
}

export const savedRuns = {
  dismissNotice(): void {
    set({ notice: null });
  },

  /** Show a saved run on the charts as it was saved (no training). */
  async open(id: string): Promise<void> {
    const run = await load(id);
    if (!run) return;
    set({ notice: null });
    showSpec(run);
    lab.showRun(replayRecord(recordOf(run), 0));
  },

  /**
   * Continue an unfinished run from its checkpoint, into the same saved run. `follow(runId, kept)`
   * is told before the worker is (a class room seat streams the run: src/app/room/seatStream.ts):
   * the continued run's id and the saved events it goes on after, so its first event is at
   * position `kept.length`. True when the run was started.
   */
  async resume(id: string, opts: { follow?: (runId: number, kept: readonly RecordedEvent[]) => void } = {}): Promise<boolean> {
    const run = await load(id);
    if (!run || !saver) return false;
    const s = saver;
    const plan = resumePlan(run);
    const shown = plan.checkpoint ? replayRecord(recordOf(run, plan.keep), 0) : startedRunState(0, run.meta.spec);
    const stepsDone = plan.checkpoint?.step ?? 0;
    showSpec(run);
    // A paired seat's member part goes on as that member part (its checkpoint holds its member alone).
    const memberPart = run.meta.memberPart;
    const started = lab.continueRun(
      shown,
      plan.checkpoint,
      (runId) => {
        s.continue(runId, id, plan.keep.length, stepsDone, plan.checkpoint?.step ?? null);
        set({ notice: null, live: { ...useSavedRuns.getState().live, [runId]: id } });
        opts.follow?.(runId, plan.keep);
      },
      memberPart ? { memberPart } : {},
    );
    if (!started) set({ notice: 'The training worker is not running: reload the page.' });
    return started;
  },

  /** A saved run's events as saved (null: it cannot be read; the notice says why). */
  async events(id: string): Promise<RecordedEvent[] | null> {
    const run = await load(id);
    return run ? recordOf(run).events : null;
  },

  /** Draw a saved run behind the current one (the compare layers). */
  async overlay(id: string): Promise<void> {
    const run = await load(id);
    if (!run) return;
    useLab.getState().addCompare({ id: overlayId(id), label: run.meta.name, series: replayRecord(recordOf(run), 0).series });
  },

  removeOverlay(layerId: string): void {
    useLab.getState().removeCompare(layerId);
  },

  /** False (with a notice) when the name is empty or it could not be saved. */
  async rename(id: string, raw: string): Promise<boolean> {
    const name = cleanName(raw);
    if (!name || !saver) {
      set({ notice: 'A run needs a name: type at least one letter.' });
      return false;
    }
    try {
      await saver.rename(id, name);
    } catch (e) {
      set({ notice: `The run could not be renamed: ${storageProblem(e)}.` });
      return false;
    }
    const layer = useLab.getState().compare.find((l) => l.id === overlayId(id));
    if (layer) useLab.getState().addCompare({ ...layer, label: name });
    set({ notice: null });
    await refresh();
    return true;
  },

  async remove(id: string): Promise<void> {
    if (!saver) return;
    const { run } = useLab.getState();
    const wasLive = isActivePhase(run.phase) && liveSavedId(run.runId) === id;
    useLab.getState().removeCompare(overlayId(id));
    try {
      await saver.remove(id);
    } catch (e) {
      set({ notice: `The run could not be deleted: ${storageProblem(e)}.` });
      return;
    }
    const live = Object.fromEntries(Object.entries(useSavedRuns.getState().live).filter(([, v]) => v !== id));
    set({ live, notice: wasLive ? 'Deleted. The run on the charts goes on, unsaved.' : null });
    await refresh();
  },
};
