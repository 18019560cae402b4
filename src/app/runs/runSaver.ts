/**
 * Saves runs as they go: follows the worker's events for every run the page starts or resumes
 * and writes them to a RunStore (savedRuns.ts) incrementally. Events are buffered and written
 * in batches (at most every FLUSH_MS), a checkpoint together with every event before it, and the
 * run's row with each batch. Writes go one at a time, in order.
 *
 * A write that fails (storage full, IndexedDB refused) loses nothing: the batch goes back into
 * the buffer and the next checkpoint or status change tries again; the run in memory goes on,
 * and what was saved before stays as it was. The problem is reported in words (onProblem).
 */
import type { Checkpoint } from '../../core/experiment/runner';
import type { MemberSeat } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { WorkerEvent } from '../../engine/protocol';
import { type SavedEvent, type SavedRunMeta, statusOf } from './runData';
import { RunGoneError, type RunStore, type RunWrite, storageProblem } from './savedRuns';

export const FLUSH_MS = 1000;

export interface SaverOptions {
  now?: () => number;
  /** A new saved run's id. */
  newId?: () => string;
  /** The backend in use (recorded when the base arrives). */
  backend?: () => string | null;
  /** After every write that landed (refresh the list). */
  onSaved?: () => void;
  /** A write failed (message), or writing works again (null). */
  onProblem?: (message: string | null) => void;
  /** Timers (tests pass a fake). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

/** What a new saved run is called and where its experiment came from. */
export interface NewRun {
  name: string;
  presetId: string;
  edited: boolean;
  spec: ExperimentSpec;
  backend: string | null;
  /** A paired seat's member part (absent: the whole experiment). */
  memberPart?: MemberSeat;
}

interface Tracked {
  savedId: string;
  /** Seq of the next event. */
  nextSeq: number;
  /** Not written yet: */
  create: SavedRunMeta | null;
  patch: Partial<SavedRunMeta>;
  events: SavedEvent[];
  checkpoint: Checkpoint | null;
  truncateFrom: number | undefined;
  /** Deleted, or taken over by a resumed run: nothing more is written. */
  detached: boolean;
  timer: unknown;
}

export class RunSaver {
  private readonly runs = new Map<number, Tracked>();
  private chain: Promise<void> = Promise.resolve();
  /** The last write failed: wait for a checkpoint or a status change before trying again. */
  private failing = false;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    private readonly store: RunStore,
    private readonly opts: SaverOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? (() => `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  }

  /** Save the run `runId` the page just started, as a new saved run; returns its id. */
  begin(runId: number, run: NewRun): string {
    const now = this.now();
    const meta: SavedRunMeta = {
      id: this.newId(),
      name: run.name,
      createdAt: now,
      updatedAt: now,
      presetId: run.presetId,
      edited: run.edited,
      spec: run.spec,
      backend: run.backend,
      status: 'running',
      stepsDone: 0,
      eventCount: 0,
      checkpointStep: null,
      error: null,
      ...(run.memberPart ? { memberPart: { armId: run.memberPart.armId, memberId: run.memberPart.memberId } } : {}),
    };
    this.track(runId, { savedId: meta.id, nextSeq: 0, create: meta, patch: {}, events: [], checkpoint: null, truncateFrom: undefined, detached: false, timer: null });
    this.flushSoon(runId, 0);
    return meta.id;
  }

  /**
   * Save the run `runId` into saved run `savedId`, which it continues: its saved events from
   * `keep` on are deleted (the run emits them again) and new ones follow them.
   */
  continue(runId: number, savedId: string, keep: number, stepsDone: number, checkpointStep: number | null): void {
    for (const t of this.runs.values()) if (t.savedId === savedId) this.detach(t);
    this.track(runId, {
      savedId,
      nextSeq: keep,
      create: null,
      patch: { status: 'running', stepsDone, eventCount: keep, checkpointStep, error: null },
      events: [],
      checkpoint: null,
      truncateFrom: keep,
      detached: false,
      timer: null,
    });
    this.flushSoon(runId, 0);
  }

  /** The saved run the page's run `runId` is written to (undefined: none). */
  savedIdOf(runId: number): string | undefined {
    const t = this.runs.get(runId);
    return t && !t.detached ? t.savedId : undefined;
  }

  /** Follow one worker event (never throws: saving must not disturb the run). */
  event(ev: WorkerEvent): void {
    if (!('runId' in ev)) return;
    const t = this.runs.get(ev.runId);
    if (!t || t.detached) return;
    switch (ev.type) {
      case 'runner': {
        const e = ev.event;
        // Warm-start progress is not kept; a second base (a continued run's) would break the order.
        if (e.type === 'warmstart' || (e.type === 'base' && t.nextSeq > 0)) return;
        t.events.push({ seq: t.nextSeq++, event: e });
        t.patch.eventCount = t.nextSeq;
        if (e.type === 'step') t.patch.stepsDone = e.step;
        if (e.type === 'base' && this.opts.backend) t.patch.backend = this.opts.backend();
        this.flushSoon(ev.runId, e.type === 'done' ? 0 : FLUSH_MS);
        return;
      }
      case 'checkpoint':
        t.checkpoint = ev.checkpoint;
        t.patch.checkpointStep = ev.checkpoint.step;
        this.flushNow(ev.runId);
        return;
      case 'state': {
        const status = statusOf(ev.phase, ev.paused, ev.halted);
        if (!status) return;
        t.patch.status = status;
        this.flushNow(ev.runId);
        return;
      }
      case 'error':
        t.patch.error = ev.message.slice(0, 2000);
        return;
      case 'recovered': {
        // Rebuilt from the checkpoint of fromStep after a lost device: the steps after it come
        // again, so what was kept of them goes (base at seq 0, step k at seq k).
        const keep = ev.fromStep === null ? 0 : ev.fromStep + 1;
        if (keep >= t.nextSeq) return;
        t.events = t.events.filter((e) => e.seq < keep);
        t.truncateFrom = Math.min(t.truncateFrom ?? keep, keep);
        t.nextSeq = keep;
        t.patch.eventCount = keep;
        t.patch.stepsDone = ev.fromStep ?? 0;
        this.flushNow(ev.runId);
        return;
      }
    }
  }

  /** Give a saved run a new name (also while it trains). */
  rename(savedId: string, name: string): Promise<void> {
    return this.enqueue(() => this.store.write({ id: savedId, patch: { name, updatedAt: this.now() } }), false);
  }

  /** Delete a saved run; a run training into it goes on unsaved. */
  remove(savedId: string): Promise<void> {
    for (const t of this.runs.values()) if (t.savedId === savedId) this.detach(t);
    return this.enqueue(() => this.store.delete(savedId), false);
  }

  /** Write everything buffered now (page hidden, tests). */
  flushAll(): Promise<void> {
    for (const runId of this.runs.keys()) this.flushNow(runId);
    return this.chain;
  }

  // ---------------------------------------------------------------- internals

  private track(runId: number, t: Tracked): void {
    const old = this.runs.get(runId);
    if (old) this.detach(old);
    this.runs.set(runId, t);
  }

  private detach(t: Tracked): void {
    t.detached = true;
    if (t.timer !== null) (this.opts.clearTimer ?? clearTimeout)(t.timer as ReturnType<typeof setTimeout>);
    t.timer = null;
    t.events = [];
    t.checkpoint = null;
  }

  private flushSoon(runId: number, ms: number): void {
    if (ms === 0) return this.flushNow(runId);
    const t = this.runs.get(runId);
    if (!t || t.timer !== null) return;
    t.timer = (this.opts.setTimer ?? setTimeout)(() => {
      t.timer = null;
      // After a failure, batches wait for the next checkpoint or status change.
      if (!this.failing) this.flushNow(runId);
    }, ms);
  }

  private flushNow(runId: number): void {
    const t = this.runs.get(runId);
    if (!t || t.detached) return;
    if (t.timer !== null) {
      (this.opts.clearTimer ?? clearTimeout)(t.timer as ReturnType<typeof setTimeout>);
      t.timer = null;
    }
    void this.enqueue(() => this.writeBatch(t)).catch(() => {});
  }

  /** Take what is buffered, write it, and put it back if the write fails. */
  private async writeBatch(t: Tracked): Promise<void> {
    if (t.detached) return;
    const batch: RunWrite = { id: t.savedId, patch: { ...t.patch, updatedAt: this.now() } };
    if (t.create) batch.create = t.create;
    if (t.truncateFrom !== undefined) batch.truncateFrom = t.truncateFrom;
    if (t.events.length) batch.events = t.events;
    if (t.checkpoint) batch.checkpoint = t.checkpoint;
    const taken = { create: t.create, patch: t.patch, events: t.events, checkpoint: t.checkpoint, truncateFrom: t.truncateFrom };
    t.create = null;
    t.patch = {};
    t.events = [];
    t.checkpoint = null;
    t.truncateFrom = undefined;
    try {
      await this.store.write(batch);
    } catch (e) {
      if (e instanceof RunGoneError) {
        this.detach(t);
        throw e;
      }
      if (!t.detached) {
        // Back in front of what arrived meanwhile; a newer checkpoint or field wins over the old.
        t.create = taken.create;
        t.patch = { ...taken.patch, ...t.patch };
        t.events = [...taken.events, ...t.events];
        t.checkpoint = t.checkpoint ?? taken.checkpoint;
        t.truncateFrom = taken.truncateFrom;
      }
      throw e;
    }
  }

  /**
   * Run store operations one after another. Saving a run's batches (`saving`) reports its
   * failures and recoveries through onProblem; the caller of a rename or delete reports its own.
   */
  private enqueue(op: () => Promise<void>, saving = true): Promise<void> {
    const run = this.chain.then(async () => {
      try {
        await op();
      } catch (e) {
        if (e instanceof RunGoneError && saving) return;
        if (!saving) throw e;
        this.failing = true;
        this.opts.onProblem?.(`Saving failed: ${storageProblem(e)}. The run goes on in this page; what was saved before is kept.`);
        throw e;
      }
      if (this.failing && saving) {
        this.failing = false;
        this.opts.onProblem?.(null);
      }
      this.opts.onSaved?.();
    });
    this.chain = run.catch(() => {});
    return run;
  }
}
