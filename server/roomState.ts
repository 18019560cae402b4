/**
 * A room as the server holds it in memory: its stored record and seats, who is connected (the
 * presenters' connections, each seat's connection) and the seat rules: seeds by join order (the
 * room's listed seeds, `record.seeds`, then baseSeed + index; in paired rooms one seed per pair)
 * and, in paired rooms, the partner level each pair trains (pair k the room's (k mod L)-th level,
 * src/room/levels.ts), the member of that peer arm each seat trains (seat 2k the arm's first
 * member, 2k+1 its second), its partner, and whether it trains both members itself (`alone`: no
 * partner when the room started, none came, or its partner's seat was freed and not taken again).
 * In an unpaired room of several levels, seat k trains level k mod L alone. A seat's events are
 * checked against its own experiment (`seatSpec`: the room's, or its level's arm alone) and its
 * own members (`ownMembers`).
 *
 * A seat can be freed (the presenter removed it, or its student left before the room started):
 * its place in `seats` is then null, RoomInfo.seats leaves it out (so its indexes can have gaps),
 * and the next new student takes the lowest free index, with that index's seed and member, as if
 * it had been the first to take it. Its partner's exchanges stay and are replayed to the newcomer.
 */
import { pairSpec } from '../src/core/experiment/memberParts';
import { roomSeedList } from '../src/core/experiment/roomSeeds';
import type { ExperimentSpec } from '../src/core/experiment/spec';
import { firstPeerArm, levelOfPair } from '../src/room/levels';
import { ROOM_LIMITS, type RoomInfo, type SeatInfo } from '../src/room/protocol';
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
  /** Event and exchange writes of this seat, one after the other (a new connection's may follow a kicked one's). */
  chain: Promise<void>;
  /** Set while the seat is being freed: nothing more is stored for it. */
  freeing?: boolean;
  /** Frees the seat if its student stays away (it left before the room started). */
  leftTimer?: ReturnType<typeof setTimeout>;
  /** Has the seat train alone if no partner takes the seat beside it (a running paired room: lifecycle.ts aloneLater). */
  aloneTimer?: ReturnType<typeof setTimeout>;
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
  const arm = firstPeerArm(spec);
  return arm ? [arm.members[0], arm.members[1]] : null;
}

/**
 * A new room's listed seeds (seedOf): its preset's room seeds (roomSeeds.ts) from `seedOffset` on,
 * one per slot it can have, kept in its record so that the room keeps them whatever the list
 * becomes. None without an offset (a page from before the lists): baseSeed + index, as before.
 */
export function listedSeeds(create: { preset: string | null; pairing: boolean; seedOffset?: number }): { seeds?: number[]; seedOffset?: number } {
  if (create.seedOffset === undefined) return {};
  const slots = create.pairing ? ROOM_LIMITS.seats / 2 : ROOM_LIMITS.seats;
  return { seeds: roomSeedList(create.preset).slice(create.seedOffset, create.seedOffset + slots), seedOffset: create.seedOffset };
}

/**
 * A room's levels as stored (a paired room's, or an unpaired room's of several levels: levels.ts
 * roomLevelList), or, for a paired room stored before levels, the one its pairs all trained: the
 * spec's first two-member peer arm. An unpaired room stored without levels has none: its seats
 * train the whole experiment, as they did then.
 */
export function roomLevels(record: Pick<RoomRecord, 'pairing' | 'levels' | 'spec'>): string[] {
  if (record.levels && record.levels.length > 0) return record.levels;
  if (!record.pairing) return [];
  const first = firstPeerArm(record.spec);
  return first ? [first.id] : [];
}

export class Room {
  /** By index; null where a seat was freed. */
  readonly seats: (Seat | null)[];
  readonly presenters = new Set<RoomPeer>();
  /** Students' connections and their feed of the class (feed.ts). */
  readonly students = new Map<RoomPeer, StudentFeed>();
  /** The levels slot k (pair k; in an unpaired room, seat k) trains in turn (empty: every seat trains the whole experiment). */
  readonly levels: string[];
  /** Pending debounced `room` broadcast. */
  roomTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether events were stored since the students' feed last ran. */
  feedDirty = false;
  feedRunning = false;
  /** Seat changes (take, free) one after the other, so that two joins never take one index. */
  seatOps: Promise<unknown> = Promise.resolve();
  /** The presenter's writes of the room's record (start, close, lock), one after the other, each on the record as the one before left it. */
  recordOps: Promise<unknown> = Promise.resolve();
  /** Set when the expiry sweep begins deleting the room: no write starts from then on (lifecycle.ts). */
  deleting = false;

  constructor(
    public record: RoomRecord,
    seats: SeatRecord[],
    /** How long a paired seat waits for a partner before it trains alone (the server's; null: not said in the room's info). */
    readonly partnerWaitMs: number | null = null,
  ) {
    this.seats = [];
    this.levels = roomLevels(record);
    // A seat stored before levels trained the room's first level (the one roomLevels gives it).
    for (const s of seats) this.seats[s.index] = { ...s, level: s.level ?? this.levelOf(s.index), conn: null, chain: Promise.resolve() };
    for (let i = 0; i < this.seats.length; i++) this.seats[i] ??= null;
  }

  get id(): string {
    return this.record.id;
  }

  /**
   * The seed of seat `index`: its slot (the seat, or in a paired room the pair) takes the room's
   * listed seed (record.seeds: the preset's room seeds, whose warm starts ship) while there is one,
   * and baseSeed + slot after them and in rooms stored without a list.
   */
  seedOf(index: number): number {
    const slot = this.record.pairing ? index >> 1 : index;
    const listed = this.record.seeds;
    return listed && slot < listed.length ? listed[slot] : this.record.baseSeed + slot;
  }

  /** The level (peer arm) of seat `index`'s pair, or of the seat itself in an unpaired room: the same for a freed index taken again. */
  levelOf(index: number): string | null {
    return levelOfPair(this.levels, this.record.pairing ? index >> 1 : index);
  }

  /** The member seat `index` trains of its pair's level (null: unpaired, it trains the whole level or experiment). */
  memberOf(index: number): string | null {
    if (!this.record.pairing) return null;
    const level = this.levelOf(index);
    const arm = level === null ? null : this.record.spec.arms.find((a) => a.id === level);
    return arm ? arm.members[index & 1] : null;
  }

  /** The experiment a seat's events are checked against: the room's, or its level's arm alone (pairSpec). */
  seatSpec(seat: Pick<SeatRecord, 'level'>): ExperimentSpec {
    return seat.level ? pairSpec(this.record.spec, seat.level) : this.record.spec;
  }

  /** The members a seat's events may name: its own (a member part), both of its level (alone), any of the spec's (null: a seat without a level, which trains the whole experiment). */
  ownMembers(seat: Pick<SeatRecord, 'level' | 'member' | 'alone'>): string[] | null {
    if (!seat.level) return null;
    if (seat.alone || seat.member === null) return this.seatSpec(seat).members.map((m) => m.id);
    return [seat.member];
  }

  /**
   * A new seat at `index` trains both members of its level itself: in a paired room, when its
   * partner's seat trains alone (no one would answer it); in an unpaired room of levels, always.
   */
  aloneAt(index: number): boolean {
    if (!this.record.pairing) return this.levels.length > 0;
    return this.seats[index ^ 1]?.alone === true;
  }

  /**
   * A seat that has waited for a partner long enough trains alone: a running (or `starting`) paired
   * room, its run not over, the seat beside it empty (never taken, or freed after the start: what
   * the seat stored of its member part is then discarded, lifecycle.ts markAlone).
   */
  mayGoAlone(seat: Seat, starting = false): boolean {
    return this.record.pairing && (starting || this.record.status === 'running') && !seat.alone && !seat.done && !seat.freeing && !this.seats[seat.index ^ 1];
  }

  /** The partner's seat index in a paired room, while someone holds it. */
  partnerOf(index: number): number | null {
    if (!this.record.pairing) return null;
    const p = index ^ 1;
    return this.seats[p] ? p : null;
  }

  /** The seats taken, in index order. */
  taken(): Seat[] {
    return this.seats.filter((s): s is Seat => s !== null);
  }

  /** The index a new student gets: the lowest free one (null: the room is full). */
  freeIndex(limit: number): number | null {
    const i = this.seats.indexOf(null);
    if (i >= 0) return i;
    return this.seats.length < limit ? this.seats.length : null;
  }

  /** Bytes counted for the room's seats (diskUse.ts). */
  bytes(): number {
    return this.taken().reduce((n, s) => n + (s.bytes ?? 0), 0);
  }

  /** The address a seat's bytes count for: the one that took it (an older seat: the room's creator). */
  addressOf(seat: { address?: string }): string {
    return seat.address ?? this.record.creator ?? 'unknown';
  }

  seatInfo(seat: Seat): SeatInfo {
    return {
      index: seat.index,
      seed: seat.seed,
      member: seat.member,
      partner: this.partnerOf(seat.index),
      level: seat.level ?? null,
      alone: seat.alone ?? false,
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
      locked: r.locked ?? false,
      expiresAt: r.expiresAt,
      seats: this.taken().map((s) => this.seatInfo(s)),
      ...(r.seeds ? { seeds: r.seeds, seedOffset: r.seedOffset ?? 0 } : {}),
      ...(r.pairing && this.partnerWaitMs !== null ? { partnerWaitS: Math.ceil(this.partnerWaitMs / 1000) } : {}),
    };
  }

  /**
   * Resolves once every write of the room under way has finished: seat changes, the record's
   * writes and each seat's chain, again until none was added meanwhile (a seat taken or freed
   * while waiting adds to a chain). Failed writes count as finished.
   */
  async settled(): Promise<void> {
    for (;;) {
      const pending = [this.seatOps, this.recordOps, ...this.taken().map((s) => s.chain)];
      await Promise.all(pending.map((p) => p.catch(() => undefined)));
      const now = [this.seatOps, this.recordOps, ...this.taken().map((s) => s.chain)];
      if (now.length === pending.length && now.every((p, i) => p === pending[i])) return;
    }
  }

  /** Everyone connected to the room. */
  everyone(): RoomPeer[] {
    return [...this.presenters, ...this.students.keys()];
  }
}

/** A seat's stored record as it is now. */
export function recordOf(seat: Seat): SeatRecord {
  const { index, tokenHash, seed, member, events, lastStep, done, bytes, address, level, alone } = seat;
  return {
    index,
    tokenHash,
    seed,
    member,
    events,
    lastStep,
    done,
    bytes,
    ...(address === undefined ? {} : { address }),
    ...(level == null ? {} : { level }),
    ...(alone ? { alone } : {}),
  };
}
