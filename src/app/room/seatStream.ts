/**
 * A student's seat streams its run: which of the worker's events belong to the seat's run, and at
 * which position (the seq the room numbers them by: base 0, step k at k, then the end). A fresh
 * run starts at 0; a resumed run goes on after the saved events it keeps (the resume plan's: the
 * base and the steps through its checkpoint), which are its first positions, so its position
 * comes from those events and from nothing else (a checkpoint of the base keeps the base alone,
 * and the page's run then says step null, like a run with no checkpoint: reading the position
 * from that put step 1 at position 0 and lost a step in the room); a run rebuilt after a lost
 * device ('recovered') goes back to its checkpoint's position. Positions the room already holds
 * are not sent again (the client's pushEvents).
 */
import type { WorkerEvent } from '../../engine/protocol';
import type { RecordedEvent } from '../store/record';

export type PushEvents = (from: number, events: readonly RecordedEvent[]) => void;

export class SeatStream {
  private runId = 0;
  private pos = 0;

  constructor(private readonly push: PushEvents) {}

  /** The run whose events are followed (0: none). */
  get following(): number {
    return this.runId;
  }

  /** A fresh run of the seat: its events from position 0. */
  follow(runId: number): void {
    this.runId = runId;
    this.pos = 0;
  }

  /**
   * A run resumed from a saved run, followed before the worker is told to start it (so none of
   * its events can come first): `kept`, the saved events it goes on after, are sent as positions
   * 0.. (none: it starts again from 0), and its own events follow them.
   */
  followResumed(runId: number, kept: readonly RecordedEvent[]): void {
    this.runId = runId;
    this.pos = kept.length;
    this.push(0, kept);
  }

  /** A finished run shown from the saved runs: all of it, nothing followed after. */
  sendAll(events: readonly RecordedEvent[]): void {
    this.follow(0);
    this.push(0, events);
  }

  /** The worker's events, as the store gets them. */
  take(events: readonly WorkerEvent[]): void {
    if (this.runId === 0) return;
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
