/**
 * A student's run as its seat streams it: the events, numbered by their position in the run (the
 * seq the server stores them by), what the server acknowledged, and what may be sent now. A window
 * bounds the events in flight and a token bucket paces them under the server's rate limit
 * (ROOM_LIMITS.messagesPerSecond, messageBurst). Nothing is forgotten that was not acknowledged:
 * after a rejoin the server's `stored` count says where to send on from. No socket here: the room
 * client (client.ts) sends what `sendable` hands out.
 */
import type { RecordedEvent } from '../share/record';
import { type SeatEvent, ROOM_LIMITS, streamedEvent } from './protocol';

/** Events sent but not yet acked, at most. */
export const EVENT_WINDOW = 32;
/** The client's own pace, under the server's limit. */
export const SEND_PER_SECOND = 50;
export const SEND_BURST = 150;

/**
 * A recorded event as a seat streams it: no rollout samples, and a 'done' without its per-step
 * histories (streamedEvent: a whole one outgrows a frame; whoever reads the room restores it with
 * restoreStreamed).
 */
export function seatEvent(ev: RecordedEvent): SeatEvent {
  return ev.type === 'step' ? { ...ev, samples: [] } : streamedEvent(ev);
}

/**
 * Refusals of one event (the same position) after which it is not sent again. The server's error
 * names no seq, but it handles a seat's events in order, so a refusal while events are in flight
 * is taken as the first unacknowledged one's; the first is retried once after a rejoin (a refusal
 * of the moment), the second stops the stream (a refused event was resent forever).
 */
export const REFUSALS_TO_STOP = 2;

export class SeatOutbox {
  private events: SeatEvent[] = [];
  private nextSend = 0;
  private tokens = SEND_BURST;
  private refusals = { at: -1, count: 0 };
  /** Acknowledged by the server: every event before this position. */
  acked = 0;
  /** The position the server refused for good: nothing is sent any more (null: streaming). */
  stoppedAt: number | null = null;

  constructor(private tokensAt: number) {}

  /** Events of the run held here. */
  get held(): number {
    return this.events.length;
  }

  /**
   * The run's events from position `from` on. Positions already held are kept (a resumed run posts
   * them again, the same numbers); a gap after the held ones is refused (false): the server takes
   * events only in order.
   */
  push(from: number, events: readonly RecordedEvent[]): boolean {
    if (from > this.events.length) return false;
    for (let i = this.events.length - from; i < events.length; i++) {
      if (this.events.length >= ROOM_LIMITS.eventsPerSeat) break;
      this.events.push(seatEvent(events[i]));
    }
    return true;
  }

  /** Events sent and not acknowledged yet. */
  get inFlight(): number {
    return Math.max(0, this.nextSend - this.acked);
  }

  /**
   * The server refused an event while some were in flight: the first unacknowledged one (see
   * REFUSALS_TO_STOP). True when that stopped the stream for good.
   */
  refused(): boolean {
    const at = this.acked;
    this.refusals = this.refusals.at === at ? { at, count: this.refusals.count + 1 } : { at, count: 1 };
    if (this.refusals.count >= REFUSALS_TO_STOP) this.stoppedAt = at;
    return this.stoppedAt !== null;
  }

  /** The server holds `stored` events (after a join): send on from there, never again before it. */
  seated(stored: number): void {
    this.acked = stored;
    this.nextSend = stored;
  }

  /** The server stored event `seq`; true when that moved the acknowledged count. */
  ack(seq: number): boolean {
    if (seq + 1 <= this.acked) return false;
    this.acked = seq + 1;
    return true;
  }

  /**
   * Hand the events the window and the pace allow now to `send` (which says false when the socket
   * cannot take one); then say whether more wait for the pace (a timer should come back).
   */
  sendable(now: number, send: (seq: number, event: SeatEvent) => boolean): { paced: boolean } {
    if (this.stoppedAt !== null) return { paced: false };
    if (this.nextSend < this.acked) this.nextSend = this.acked;
    this.tokens = Math.min(SEND_BURST, this.tokens + ((now - this.tokensAt) * SEND_PER_SECOND) / 1000);
    this.tokensAt = now;
    while (this.nextSend < this.events.length && this.nextSend - this.acked < EVENT_WINDOW && this.tokens >= 1) {
      if (!send(this.nextSend, this.events[this.nextSend])) return { paced: false };
      this.nextSend++;
      this.tokens--;
    }
    return { paced: this.nextSend < this.events.length && this.tokens < 1 };
  }
}
