/**
 * A student's seat streams its run: which of the worker's events belong to the seat's run, and at
 * which position (the seq the room numbers them by: base 0, step k at k, then the end). A fresh
 * run starts at 0; a resumed run goes on from its checkpoint, after the saved events before it
 * (read from the saved run, which may come after the worker's first events: those wait); a run
 * rebuilt after a lost device ('recovered') goes back to its checkpoint's position. Positions the
 * room already holds are not sent again (the client's pushEvents).
 */
import type { WorkerEvent } from '../../engine/protocol';
import type { RecordedEvent } from '../store/record';

export type PushEvents = (from: number, events: readonly RecordedEvent[]) => void;

export class SeatStream {
  private runId = 0;
  private pos = 0;
  private primed = true;
  private waiting: WorkerEvent[] = [];

  constructor(private readonly push: PushEvents) {}

  /** The run whose events are followed (0: none). */
  get following(): number {
    return this.runId;
  }

  /** A fresh run of the seat: its events from position 0. */
  follow(runId: number): void {
    this.runId = runId;
    this.pos = 0;
    this.primed = true;
    this.waiting = [];
  }

  /** A run resumed from the checkpoint of `checkpointStep` (null: from the start): the saved events come by prime(). */
  followResumed(runId: number, checkpointStep: number | null): void {
    this.runId = runId;
    this.pos = checkpointStep === null ? 0 : checkpointStep + 1;
    this.primed = checkpointStep === null;
    this.waiting = [];
  }

  /** The saved run's events: those before the resumed run's first are sent, then what waited. */
  prime(saved: readonly RecordedEvent[]): void {
    if (this.primed) return;
    this.push(0, saved.slice(0, this.pos));
    this.primed = true;
    const waiting = this.waiting;
    this.waiting = [];
    this.take(waiting);
  }

  /** A finished run shown from the saved runs: all of it, nothing followed after. */
  sendAll(events: readonly RecordedEvent[]): void {
    this.follow(0);
    this.push(0, events);
  }

  /** The worker's events, as the store gets them. */
  take(events: readonly WorkerEvent[]): void {
    if (this.runId === 0) return;
    if (!this.primed) {
      this.waiting.push(...events.filter((ev) => 'runId' in ev && ev.runId === this.runId));
      return;
    }
    for (const ev of events) {
      if (ev.type === 'runner' && ev.runId === this.runId && ev.event.type !== 'warmstart') {
        this.push(this.pos, [ev.event]);
        this.pos++;
      } else if (ev.type === 'recovered' && ev.runId === this.runId) {
        this.pos = ev.fromStep === null ? 0 : ev.fromStep + 1;
      }
    }
  }
}
