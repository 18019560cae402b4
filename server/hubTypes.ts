/**
 * What the hub and its two helpers (lifecycle.ts, seatWrites.ts) share: a connection as the hub
 * sees it, the hub's options and an exchange as stored. Apart from hub.ts so that the helpers,
 * which the hub builds and calls, need nothing from the hub's module.
 */
import type { ClientMessage } from '../src/room/protocol';
import type { ServerLimits } from './limits';
import type { Room, RoomPeer } from './roomState';

/** What a connection is to the hub. */
export type Role = { kind: 'none' } | { kind: 'presenter'; room: Room } | { kind: 'student'; room: Room; seat: number };

export interface HubClient extends RoomPeer {
  role: Role;
  /** The source address (limits.ts). */
  readonly address: string;
  /** Rooms this connection created (at most MAX_CREATES_PER_CONNECTION, hub.ts). */
  creates: number;
  /** Queue frames sent with send() until release() (a presenter's snapshot goes first, with sendNow). */
  hold(): void;
  release(): void;
  sendNow(frame: string): void;
  /** Resolves once the socket has sent what was queued (false: it did not, and is being dropped). */
  drained(): Promise<boolean>;
  /** Still open (a join that awaited the store may find its connection gone). */
  open(): boolean;
}

export interface HubOptions {
  /** A room's life from its creation, in ms. */
  ttlMs: number;
  now: () => number;
  /** Rooms the server holds at most. */
  maxRooms: number;
  /** Each student's budget for the class feed, bytes a second (feed.ts). */
  feedBytesPerSecond: number;
  /** Delay of the debounced `room` broadcast, ms. */
  roomDebounceMs: number;
  /** A line for the operator; one about a client's address names it (rate-limited per address: logLimit.ts). */
  log: (line: string, address?: string) => void;
  limits: ServerLimits;
  /** Whether a join from this address is within its budget now (limits.ts). */
  mayJoin: (address: string) => boolean;
  /** Where other devices reach this server (the `addresses` frame to a presenter). */
  origins: () => string[];
  /** How long a seat whose student left before the room started is kept for them, ms. */
  seatGraceMs: number;
  /** How long a seat of a running paired room waits for a partner beside it before it trains alone, ms. */
  partnerWaitMs: number;
}

/** An exchange as stored (the message without its t). */
export type ExchangeBody = Omit<Extract<ClientMessage, { t: 'exchange' }>, 't'>;
