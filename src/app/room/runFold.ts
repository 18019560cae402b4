/**
 * One run of a class, folded as its events come: the run state that replaying its events
 * (store/record.ts replayRecord) gives, kept between the class's rebuilds, so that each event is
 * folded once and a rebuild folds only what came since the last one. A seat's 60th step costs one
 * step's fold, not a replay of the 59 before it (docs/ROOM.md, "The class view").
 *
 * The result is the SeedResult seedResult (store/seedsSlice.ts) makes of the same events, made
 * anew only when something was folded: a new object, a new series object around the same columns
 * (they grow in place, as a live run's do: series.ts), so that what compares results by identity
 * sees the change and nothing copies a column.
 *
 * A seat's streamed 'done' (its histories left out: protocol.ts streamedEvent) is made whole when
 * it is folded, from the summary this fold kept (wholeDone), once; where a replay would fold other
 * events into the histories than this fold did (a second base, a step not after the one before:
 * the room refuses both), from the seat's events as restoreStreamed refolds them.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { restoreStreamed, wholeDone } from '../../room/protocol';
import type { RecordedEvent } from '../store/record';
import { type RunState, reduceWorkerEvent, startedRunState } from '../store/runSlice';
import type { SeedResult } from '../store/seedsSlice';

/** A fold's budget that never runs out. */
export const always = () => true;

export class RunFold {
  private run: RunState;
  /** The events folded, in order (a seat's 'done' as made whole). */
  private readonly events: RecordedEvent[] = [];
  private steps = 0;
  private bases = 0;
  private done = false;
  private last: SeedResult | null = null;

  constructor(readonly spec: ExperimentSpec) {
    this.run = startedRunState(0, spec);
  }

  /** Events folded so far. */
  get folded(): number {
    return this.events.length;
  }

  /** Whether a 'step' event was folded (a run without one is not drawn). */
  get hasStep(): boolean {
    return this.steps > 0;
  }

  /** The summary so far (null before the base). */
  get summary() {
    return this.run.summary;
  }

  /** Fold one event, as the live run's reducer does. */
  add(event: RecordedEvent): void {
    this.run = reduceWorkerEvent(this.run, { type: 'runner', runId: 0, event }, 0);
    this.events.push(event);
    if (event.type === 'step') this.steps++;
    else if (event.type === 'base') this.bases++;
    else if (event.type === 'done') this.done = true;
  }

  /**
   * A seat's events from position `folded` on, folded (`held`: all the seat's events this page
   * holds, in order) while `more()` says so; its first 'done' made whole. Returns how many were folded.
   */
  addSeat(held: readonly RecordedEvent[], more: () => boolean = always): number {
    const from = this.events.length;
    let i = from;
    for (; i < held.length && more(); i++) {
      const e = held[i];
      if (e.type === 'done' && !this.done) {
        // The summary folded here holds the histories a refold would make when every step was folded
        // once and in order after one base; otherwise the refold decides, as for a whole record.
        const same = this.bases === 1 && this.run.stepsReceived === this.steps && this.run.summary !== null;
        this.add(same ? wholeDone(e, this.run.summary!) : restoreStreamed(this.spec, held.slice(0, i + 1))[i]);
      } else this.add(e);
    }
    return i - from;
  }

  /** The run's result now: the same object until another event is folded. */
  result(): SeedResult {
    if (this.last && this.last.record.events.length === this.events.length) return this.last;
    const end = this.events.at(-1);
    const finished = end?.type === 'done';
    const record = { spec: this.spec, backend: finished ? end.summary.backend : null, events: this.events.slice() };
    const series = { ...this.run.series };
    this.last = { seed: this.spec.seed, record, series, base: this.run.base, summary: finished ? end.summary : this.run.summary, finished };
    return this.last;
  }
}
