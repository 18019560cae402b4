/**
 * The room client's (client.ts) types: who a connection is, what it tells its listeners, and what
 * it is built from. client.ts re-exports them; the page imports them from there.
 */
import type { ClientMessage, RoomInfo, Secret, SeatEvent, SeatInfo } from './protocol';
import type { SocketFactory, Timers } from './reconnect';
import type { KeyValueStore } from './secrets';

/** 'elsewhere': a student's seat is open in another tab (nothing reconnects until takeOver()). */
export type RoomStatus = 'connecting' | 'online' | 'offline' | 'closed' | 'elsewhere';

/** What the experiment of a new room is. */
export interface CreateRoom {
  name: string;
  preset: string | null;
  spec: Extract<ClientMessage, { t: 'create' }>['spec'];
  baseSeed: number;
  pairing: boolean;
  /** Seats take the preset's room seeds from here on (roomSeeds.ts; absent: baseSeed + index). */
  seedOffset?: number;
}

export type RoomRole =
  | { kind: 'presenter'; create: CreateRoom }
  /** A presenter coming back to a room it made (its key is in the secrets store). */
  | { kind: 'presenter'; room: Secret }
  | { kind: 'student'; room: Secret };

export type RoomClientEvent =
  /** `streaming`: this seat's events still go to the room (false once the room refused one for good). */
  | { type: 'status'; status: RoomStatus; error: string | null; streaming: boolean }
  | { type: 'created'; room: Secret }
  | { type: 'room'; room: RoomInfo }
  | { type: 'seat'; seat: SeatInfo; stored: number }
  /** A paired seat now trains both members itself: its run starts again, the room holding none of it. */
  | { type: 'alone'; seat: SeatInfo }
  /** A seat's events from position `from` on (the presenter: live; a student: the class, batched). */
  | { type: 'events'; seat: number; from: number; events: SeatEvent[] }
  /** The server acknowledged the student's events up to `acked` (exclusive). */
  | { type: 'acked'; acked: number }
  /** A presenter: the origins (http://<LAN IPv4>:<port>) at which other devices reach the server. */
  | { type: 'addresses'; origins: string[] };

export interface RoomClientOptions {
  url: string;
  role: RoomRole;
  socket: SocketFactory;
  storage: KeyValueStore | null;
  /** This tab's own storage (sessionStorage: a reload keeps it, another tab does not share it), for the mark that this tab holds a seat (secrets.ts readTabSeat). */
  tabStorage?: KeyValueStore | null;
  timers?: Timers;
  /** 0 <= x < 1, for the backoff's jitter (tests pass a constant). */
  random?: () => number;
}
