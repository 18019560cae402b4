/**
 * What the room client (client.ts) does with an error from the server, decided from the code and
 * where the page stands; the words are errors.ts's. Apart so that the whole table is read (and
 * tested, refusals.test.ts) in one place:
 *
 *   - `server-error`: the server's store failed, not the request: connect again with the backoff
 *     and send again (reconnect.ts); never a refusal, neither of the hello nor of an event;
 *   - an event the server refuses (not-allowed, over-quota, bad-message, too-large while events are
 *     in flight) is sent once more after a rejoin, and refused again it is not sent any more: the
 *     status says so and the run goes on in the page (seatOutbox.ts REFUSALS_TO_STOP); the events
 *     after it, refused in turn, are already said;
 *   - a seat token the server does not know: join again for a new seat;
 *   - a seat open in another tab waits for the student's choice; a removed seat ends, its token
 *     forgotten;
 *   - before the hello is answered, FATAL codes (errors.ts) end the connection: the room cannot be
 *     had; a closed room ends it at any time;
 *   - `out-of-order`: the server holds another count of events than the page thought: join again
 *     to learn it;
 *   - anything else (a rate, a size, a bad message) is said, and the connection goes on.
 */
import { FATAL } from './errors';
import type { RoomErrorCode } from './protocol';

/** Errors that refuse an event for good when it comes again the same (seatOutbox.ts REFUSALS_TO_STOP). */
export const EVENT_REFUSALS: readonly RoomErrorCode[] = ['not-allowed', 'over-quota', 'bad-message', 'too-large'];

/** Codes whose own words say it all to a student (the server's sentence would only repeat them). */
export const SHORT: readonly RoomErrorCode[] = ['seat-in-use', 'seat-removed', 'room-locked', 'server-error'];

export type ErrorAction =
  /** Connect again after the backoff (which does not start over until a write gets through) and send again. */
  | 'store-failed'
  /** The stream has stopped already, and this is the refusal of an event after the stopped one. */
  | 'already-said'
  /** The first unacknowledged event was refused: once more after a rejoin, or stop the stream. */
  | 'event-refused'
  /** Forget the stored seat and join for a new one (if no seat was stored: 'say'). */
  | 'new-seat'
  /** The seat is open in another tab: wait for the student's choice. */
  | 'elsewhere'
  /** The seat is gone for good: forget its token and end. */
  | 'removed'
  /** The room cannot be had: end the connection, no reconnect. */
  | 'fail'
  /** Join again to learn where the stream stands. */
  | 'rejoin'
  /** Say it; the connection goes on. */
  | 'say';

export interface PageState {
  student: boolean;
  /** The hello of this connection was answered (a seat, or the presenter's room). */
  welcomed: boolean;
  /** The seat's stream was stopped by refusals. */
  streamStopped: boolean;
  /** Events sent and not yet acknowledged. */
  inFlight: number;
}

export function errorAction(code: RoomErrorCode, page: PageState): ErrorAction {
  if (code === 'server-error') return 'store-failed';
  const seated = page.student && page.welcomed;
  if (seated && page.streamStopped && (code === 'out-of-order' || EVENT_REFUSALS.includes(code))) return 'already-said';
  if (seated && page.inFlight > 0 && EVENT_REFUSALS.includes(code)) return 'event-refused';
  if (page.student && code === 'bad-seat') return 'new-seat';
  if (page.student && code === 'seat-in-use') return 'elsewhere';
  if (page.student && code === 'seat-removed') return 'removed';
  if ((FATAL.includes(code) && !page.welcomed) || code === 'room-closed') return 'fail';
  if (code === 'out-of-order') return 'rejoin';
  return 'say';
}
