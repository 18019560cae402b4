/**
 * A run record (src/share/record.ts: the spec, the backend and the runner events) replayed into
 * the page's run state. The charts are rebuilt from a record by replaying its events through the
 * same reducer a live run goes through (runSlice.ts), so a replayed run and the live one draw the
 * same numbers. The record itself lives in src/share, which run files need without the page.
 */
import type { RunRecord } from '../../share/record';
import { type RunState, reduceWorkerEvent, startedRunState } from './runSlice';

export { type RecordedEvent, type RunRecord, emptyRecord, lastRecordedStep, recordEvent, truncateRecord } from '../../share/record';

/**
 * The run state a live run would have after these events. Phase: 'done' when the record ends
 * with 'done', otherwise 'stopped' (an unfinished run, shown as it was left).
 */
export function replayRecord(record: RunRecord, runId: number): RunState {
  let run = startedRunState(runId, record.spec);
  for (const event of record.events) run = reduceWorkerEvent(run, { type: 'runner', runId, event }, 0);
  const finished = record.events.at(-1)?.type === 'done';
  return { ...run, phase: finished ? 'done' : 'stopped', recent: [] };
}
