/**
 * Where saved runs live: IndexedDB, through the `idb` package (as warm starts do, in
 * src/engine/warmStartSource.ts, but in a database of their own, so neither needs the other's
 * upgrades). Three object stores:
 *
 *   runs         id -> SavedRunMeta                  (the list reads only these)
 *   events       [runId, seq] -> { runId, seq, event }  (appended as the run goes, batched)
 *   checkpoints  runId -> { runId, checkpoint }      (the latest one only)
 *
 * Every write is one transaction over the three stores: it lands whole or not at all (a failed
 * one is aborted), so a full disk never leaves a run half-written, and nothing here deletes or
 * overwrites a run because a write failed. What is read back is returned raw: runData.ts checks it.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Checkpoint } from '../../core/experiment/runner';
import type { SavedEvent, SavedRunMeta } from './runData';

/** One write to one saved run, applied in a single transaction. */
export interface RunWrite {
  id: string;
  /** The whole row when the run may not be stored yet (it is created then; else `patch` applies). */
  create?: SavedRunMeta;
  /** Fields of the stored row to change (the rest, e.g. a name given meanwhile, is kept). */
  patch: Partial<SavedRunMeta>;
  /** First delete the saved events with seq >= this (a resumed run emits them again). */
  truncateFrom?: number;
  events?: SavedEvent[];
  checkpoint?: Checkpoint;
}

/** A saved run's rows as stored, unchecked. */
export interface RawRun {
  meta: unknown;
  events: unknown[];
  checkpoint: unknown;
}

export interface RunStore {
  /** Every run's row (unchecked). */
  list(): Promise<unknown[]>;
  load(id: string): Promise<RawRun | null>;
  /** Throws RunGoneError when the run is not stored and the write does not create it. */
  write(w: RunWrite): Promise<void>;
  delete(id: string): Promise<void>;
}

/** The run was deleted (e.g. from the list while it trained): nothing more is written for it. */
export class RunGoneError extends Error {
  constructor(id: string) {
    super(`saved run ${id} is no longer stored`);
    this.name = 'RunGoneError';
  }
}

const DB_NAME = 'cohort-lab-runs';
const DB_VERSION = 1;

interface RunsDB extends DBSchema {
  runs: { key: string; value: SavedRunMeta };
  events: { key: [string, number]; value: { runId: string; seq: number; event: SavedEvent['event'] } };
  checkpoints: { key: string; value: { runId: string; checkpoint: Checkpoint } };
}

/** Every event key of run `id` from seq `from` on. */
const eventRange = (id: string, from = 0) => IDBKeyRange.bound([id, from], [id, Infinity]);

/** The browser's words for a storage failure, as a short reason the page can show. */
export function storageProblem(e: unknown): string {
  const name = (e as { name?: string } | null)?.name ?? '';
  const message = e instanceof Error ? e.message : String(e);
  if (name === 'QuotaExceededError' || /quota/i.test(message)) return "the browser's storage for this site is full (delete saved runs to make room)";
  if (name === 'InvalidStateError' || name === 'SecurityError' || name === 'UnknownError' || /indexeddb|private|not allowed|denied/i.test(message)) {
    return `the browser keeps no data for this page (private browsing, or storage turned off): ${message}`;
  }
  return message || name || 'unknown error';
}

/**
 * Saved runs in IndexedDB, or null where the browser has none. Opened on first use; a failed open
 * is retried next time. `onBlocked`: another tab holds an older version of the database open.
 */
export function idbRunStore(factory: IDBFactory | undefined = globalThis.indexedDB, onBlocked?: () => void): RunStore | null {
  if (!factory) return null;
  let db: Promise<IDBPDatabase<RunsDB>> | null = null;
  const open = () =>
    (db ??= openDB<RunsDB>(DB_NAME, DB_VERSION, {
      upgrade(d) {
        d.createObjectStore('runs', { keyPath: 'id' });
        d.createObjectStore('events', { keyPath: ['runId', 'seq'] });
        d.createObjectStore('checkpoints', { keyPath: 'runId' });
      },
      blocked: () => onBlocked?.(),
      // A newer page wants to upgrade: let it (this page reopens on its next write).
      blocking: () => {
        void db?.then((d) => d.close());
        db = null;
      },
      terminated: () => {
        db = null;
      },
    }).catch((e) => {
      db = null;
      throw e;
    }));

  return {
    async list() {
      return (await open()).getAll('runs');
    },
    async load(id) {
      const d = await open();
      const tx = d.transaction(['runs', 'events', 'checkpoints'], 'readonly');
      const [meta, events, cp] = await Promise.all([
        tx.objectStore('runs').get(id),
        tx.objectStore('events').getAll(eventRange(id)),
        tx.objectStore('checkpoints').get(id),
        tx.done,
      ]);
      if (meta === undefined) return null;
      return { meta, events: events.map((e) => ({ seq: e.seq, event: e.event })), checkpoint: cp?.checkpoint ?? null };
    },
    async write(w) {
      const d = await open();
      const tx = d.transaction(['runs', 'events', 'checkpoints'], 'readwrite');
      try {
        const runs = tx.objectStore('runs');
        const stored = await runs.get(w.id);
        if (!stored && !w.create) throw new RunGoneError(w.id);
        await runs.put({ ...(stored ?? w.create!), ...w.patch, id: w.id });
        const events = tx.objectStore('events');
        if (w.truncateFrom !== undefined) await events.delete(eventRange(w.id, w.truncateFrom));
        for (const e of w.events ?? []) await events.put({ runId: w.id, seq: e.seq, event: e.event });
        if (w.checkpoint) await tx.objectStore('checkpoints').put({ runId: w.id, checkpoint: w.checkpoint });
        await tx.done;
      } catch (e) {
        // All or nothing: puts that succeeded before the failure must not land on their own.
        try {
          tx.abort();
        } catch {
          /* already aborted by the failure */
        }
        await tx.done.catch(() => {});
        throw e;
      }
    },
    async delete(id) {
      const d = await open();
      const tx = d.transaction(['runs', 'events', 'checkpoints'], 'readwrite');
      await Promise.all([tx.objectStore('runs').delete(id), tx.objectStore('events').delete(eventRange(id)), tx.objectStore('checkpoints').delete(id), tx.done]);
    },
  };
}
