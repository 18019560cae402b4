/**
 * The RunRecord (record.ts) of the run the page shows, so it can be exported as a run file: the
 * live run's, recorded from the worker's events as they arrive (trainingWorker.ts calls
 * recordWorkerEvents with every batch before the store folds it), or an imported one. Kept
 * outside the zustand store: it grows by one event per step and is read only on export, so it
 * needs no renders; it is keyed by the run id, so a record never outlives the run it belongs to.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { WorkerEvent } from '../../engine/protocol';
import { type RunRecord, emptyRecord, recordEvent, truncateRecord } from './record';

export interface ShownRecord {
  runId: number;
  record: RunRecord;
  /** The preset the experiment started from (run files name it). */
  preset?: string;
}

let shown: ShownRecord | null = null;
/** Whether `shown` is the live run's (it records worker events) rather than an imported one. */
let live = false;

/** A new live run: record its events from now on. */
export function startRecord(runId: number, spec: ExperimentSpec, backend: string | null, preset?: string): void {
  shown = { runId, record: emptyRecord(structuredClone(spec), backend), preset };
  live = true;
}

/** A run that did not train here (an imported file) is the one shown. */
export function showRecord(runId: number, record: RunRecord, preset?: string): void {
  shown = { runId, record, preset };
  live = false;
}

/**
 * Append the runner events of the recorded run (warm-start progress is not kept; record.ts) and
 * follow the backend the worker reports (it may change at Start, or when a GPU device is lost).
 */
export function recordWorkerEvents(events: readonly WorkerEvent[]): void {
  if (!shown || !live) return;
  for (const ev of events) {
    const finished = shown.record.events.at(-1)?.type === 'done';
    if (ev.type === 'backend' && !finished) shown.record.backend = ev.report.backend;
    else if (ev.type === 'runner' && ev.runId === shown.runId) recordEvent(shown.record, ev.event);
    else if (ev.type === 'recovered' && ev.runId === shown.runId) truncateRecord(shown.record, ev.fromStep);
  }
}

/** The record of run `runId`, or null when the page has none (no run, or it was reset). */
export function recordOf(runId: number): ShownRecord | null {
  return shown && runId !== 0 && shown.runId === runId ? shown : null;
}

/** Tests: forget everything. */
export function clearRecord(): void {
  shown = null;
  live = false;
}
