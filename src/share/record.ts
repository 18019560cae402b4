/**
 * A run as data: the spec it ran, where, and the runner events in order. Saved runs (IndexedDB),
 * run files (bundle.ts) and reference runs all hold one. The page rebuilds its charts from a
 * record by replaying the events through the reducer a live run goes through
 * (replayRecord in src/app/store/record.ts).
 */
import type { RunnerEvent } from '../core/experiment/events';
import type { ExperimentSpec } from '../core/experiment/spec';

/** The events a record keeps: warm-start progress is transient and is not replayed. */
export type RecordedEvent = Exclude<RunnerEvent, { type: 'warmstart' }>;

export interface RunRecord {
  spec: ExperimentSpec;
  /** The backend it trained on (null: not known). */
  backend: string | null;
  /** 'base', then one 'step' per RL step in order, then 'done' if it finished. */
  events: RecordedEvent[];
}

export function emptyRecord(spec: ExperimentSpec, backend: string | null): RunRecord {
  return { spec, backend, events: [] };
}

/** Append a runner event if a record keeps it; returns whether it did. */
export function recordEvent(record: RunRecord, ev: RunnerEvent): boolean {
  if (ev.type === 'warmstart') return false;
  record.events.push(ev);
  return true;
}

/**
 * Drop what came after RL step `fromStep` (null: everything, the run starts over): a run rebuilt
 * from that step's checkpoint after a lost device posts the later steps again.
 */
export function truncateRecord(record: RunRecord, fromStep: number | null): void {
  const keep = fromStep === null ? 0 : record.events.findIndex((ev) => ev.type === 'done' || (ev.type === 'step' && ev.step > fromStep));
  if (keep >= 0) record.events.length = keep;
}

/** Last RL step in the record (0: none). */
export function lastRecordedStep(record: RunRecord): number {
  for (let i = record.events.length - 1; i >= 0; i--) {
    const ev = record.events[i];
    if (ev.type === 'step') return ev.step;
  }
  return 0;
}
