/**
 * The room connection this page holds (one at most): the client, the seat's stream of run events
 * to the room, a paired seat's relay of exchanges, and leaving (everything of the room let go).
 * What arrives on it is roomFeed.ts; what the class's results are, classResults.ts.
 */
import type { RoomConnection } from '../../room/client';
import { useLab } from '../store';
import { clearClassResults, ownEvents } from './classResults';
import type { Relay } from './pairing';
import { SeatStream } from './seatStream';

export const session: {
  client: RoomConnection | null;
  /** Stops following the client's events (roomFeed.ts). */
  unsubscribe: (() => void) | null;
  /** A paired seat's exchanges relayed through the room (null: not a paired seat, or not started). */
  relay: Relay | null;
  /** Stops the worker's events going to the stream (a student's page, once joined). */
  untap: (() => void) | null;
  /** H2: the join that waits for its student's yes (a link's server on another host). */
  askedJoin: (() => void) | null;
} = { client: null, unsubscribe: null, relay: null, untap: null, askedJoin: null };

/** A student's run events to the room, and to the class's runs on this page. */
export const stream = new SeatStream((from, events) => {
  session.client?.pushEvents(from, events);
  ownEvents(from, events);
});

export const state = () => useLab.getState();
export const setRoom = (patch: Parameters<ReturnType<typeof state>['setRoom']>[0]) => state().setRoom(patch);

/** The words when a presenter's button finds no connection to send on. */
export const UNREACHABLE = 'The room server cannot be reached now: try again when the status says online.';

/** Let go of the room: relay, connection, the class's runs and the stream (the store is the caller's). */
export function disconnect(): void {
  session.relay?.stop();
  session.relay = null;
  session.unsubscribe?.();
  session.unsubscribe = null;
  session.client?.close();
  session.client = null;
  clearClassResults();
  stream.follow(0);
}

/** Tests and the e2e: the connection in use (null: none). */
export function roomConnection(): RoomConnection | null {
  return session.client;
}
