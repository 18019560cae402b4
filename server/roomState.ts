/**
 * A room as the server holds it in memory: its stored record and seats, who is connected (the
 * presenters' connections, each seat's connection) and the seat rules: seeds by join order
 * (baseSeed + index; in paired rooms baseSeed + the pair's index) and, in paired rooms, the peer
 * arm's member each seat trains (seat 2k the arm's first member, 2k+1 its second) and its partner.
 */
import type { ExperimentSpec } from '../src/core/experiment/spec';
import type { RoomInfo, SeatInfo } from '../src/room/protocol';
import type { RoomRecord, SeatRecord } from './store';

/** What the room needs of a connection (connection.ts). */
export interface RoomPeer {
  send(frame: string): void;
  /** Bytes queued on the socket and not yet sent. */
  buffered(): number;
  close(code: number, reason: string): void;
}

export interface Seat extends SeatRecord {
  conn: RoomPeer | null;
  /** Event writes of this seat, one after the other (a new connection's may follow a kicked one's). */
  chain: Promise<void>;
}

/** A student connection's feed of the class (feed.ts). */
export interface StudentFeed {
  seat: number;
  /** How many of each seat's events it has been sent. */
  sent: number[];
  /** Bytes it may be sent now, and when that was reckoned (ms). */
  budget: number;
  refilled: number;
  /** Which seat goes first in its next batch. */
  turn: number;
}

/** The members of the spec's first arm whose scheme is 'peer' and which has two members, or null. */
export function peerArmMembers(spec: ExperimentSpec): [string, string] | null {
  const arm = spec.arms.find((a) => a.scheme === 'peer' && a.members.length === 2);
  return arm ? [arm.members[0], arm.members[1]] : null;
}

export class Room {
  readonly seats: Seat[];
  readonly presenters = new Set<RoomPeer>();
  /** Students' connections and their feed of the class (feed.ts). */
  readonly students = new Map<RoomPeer, StudentFeed>();
  readonly pairMembers: [string, string] | null;
  /** Pending debounced `room` broadcast. */
  roomTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether events were stored since the students' feed last ran. */
  feedDirty = false;
  feedRunning = false;

  constructor(
    public record: RoomRecord,
    seats: SeatRecord[],
  ) {
    this.seats = seats.map((s) => ({ ...s, conn: null, chain: Promise.resolve() }));
    this.pairMembers = record.pairing ? peerArmMembers(record.spec) : null;
  }

  get id(): string {
    return this.record.id;
  }

  seedOf(index: number): number {
    return this.record.baseSeed + (this.record.pairing ? index >> 1 : index);
  }

  memberOf(index: number): string | null {
    return this.pairMembers ? this.pairMembers[index & 1] : null;
  }

  /** The partner's seat index in a paired room, once someone has taken it. */
  partnerOf(index: number): number | null {
    if (!this.record.pairing) return null;
    const p = index ^ 1;
    return p < this.seats.length ? p : null;
  }

  seatInfo(seat: Seat): SeatInfo {
    return {
      index: seat.index,
      seed: seat.seed,
      member: seat.member,
      partner: this.partnerOf(seat.index),
      connected: seat.conn !== null,
      events: seat.events,
      lastStep: seat.lastStep,
      done: seat.done,
    };
  }

  info(): RoomInfo {
    const r = this.record;
    return {
      id: r.id,
      name: r.name,
      preset: r.preset,
      spec: r.spec,
      baseSeed: r.baseSeed,
      pairing: r.pairing,
      status: r.status,
      expiresAt: r.expiresAt,
      seats: this.seats.map((s) => this.seatInfo(s)),
    };
  }

  /** Everyone connected to the room. */
  everyone(): RoomPeer[] {
    return [...this.presenters, ...this.students.keys()];
  }
}
