/**
 * The room's durable store: LevelDB (classic-level) in the --data directory. Everything a restart
 * must keep is here: rooms, seats (with the hash of their token), each seat's events and each
 * paired seat's exchanges. docs/ROOM.md, "Persistence", gives the choice and its measurements.
 *
 * Keys (room ids are base64url, so "!" never occurs in one; numbers are zero-padded so that
 * LevelDB's byte order is numeric order):
 *   r!<room>                         RoomRecord
 *   s!<room>!<seat:3>                SeatRecord (its event count, last step and done with it)
 *   e!<room>!<seat:3>!<seq:4>        one event, as the JSON the seat sent (validated, re-serialised)
 *   x!<room>!<seat:3>!<step:4>!<kind> one exchange: { step, kind, answers }
 *
 * An event and its seat's new count are written in one atomic batch, and the server acknowledges
 * an event only after that batch is written: a write reaches the operating system before the
 * callback, so an acknowledged event survives the server's process being killed (kill -9).
 * With `fsync` (the server's default) every write is also flushed to the disk before its callback
 * (survives a power cut; its cost: docs/ROOM.md, "Persistence").
 *
 * Beside LevelDB's files the store keeps a tally of what each room holds (storeCheck.ts), and
 * reads every record at start: damage is named, and the server refuses to start over it.
 */
import { existsSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { ExperimentSpec } from '../src/core/experiment/spec';
import type { RoomStatus } from '../src/room/protocol';
import { BEFORE_OPEN, StoreDamage, TALLY_FILE, levelFiles, plural, readTally, scanStore, writeTally, type Counts, type StoreScan } from './storeCheck';

export interface RoomRecord {
  id: string;
  /** SHA-256 of the presenter key (secrets.ts). */
  keyHash: string;
  name: string;
  preset: string | null;
  spec: ExperimentSpec;
  baseSeed: number;
  pairing: boolean;
  /** The seats' seeds from the preset's room seed list, by slot (roomState.ts seedOf), and the list position they start at; absent in rooms made without a list. */
  seeds?: number[];
  seedOffset?: number;
  /**
   * The partner levels slot k (pair k, or seat k of an unpaired room) trains in turn (levels.ts
   * roomLevelList, made by the server at creation). Absent in rooms without levels, and in rooms
   * stored before levels: their pairs all trained the spec's first two-member peer arm, which is
   * then their one level, and their unpaired seats the whole experiment (roomState.ts).
   */
  levels?: string[];
  status: RoomStatus;
  /** The presenter locked the room to new joins (absent in rooms stored before locking existed). */
  locked?: boolean;
  /** The source address that created the room (limits.ts counts live rooms per address; absent in older rooms). */
  creator?: string;
  createdAt: number;
  expiresAt: number;
}

export interface SeatRecord {
  index: number;
  /** SHA-256 of the seat token. */
  tokenHash: string;
  seed: number;
  member: string | null;
  /** The peer arm this seat's pair (or, unpaired, the seat itself) trains (absent in seats stored before levels: the room's first level). */
  level?: string | null;
  /** The seat trains both members of its level itself: an odd paired seat, or any seat of an unpaired room of levels (absent: false). */
  alone?: boolean;
  /** Events stored, the last RL step among them (0: none) and whether a 'done' is among them. */
  events: number;
  lastStep: number;
  done: boolean;
  /** Bytes counted for the seat: diskBound (diskUse.ts) of its events, exchanges and record rewrites (limits.ts; absent in older seats: 0). */
  bytes?: number;
  /** The source address that took the seat (its bytes count for it: diskUse.ts; absent in older seats). */
  address?: string;
}

export interface StoredRoom {
  room: RoomRecord;
  seats: SeatRecord[];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
export const roomKey = (room: string) => `r!${room}`;
export const seatKey = (room: string, seat: number) => `s!${room}!${pad(seat, 3)}`;
const eventPrefix = (room: string, seat: number) => `e!${room}!${pad(seat, 3)}!`;
export const eventKey = (room: string, seat: number, seq: number) => eventPrefix(room, seat) + pad(seq, 4);
const exchangePrefix = (room: string, seat: number) => `x!${room}!${pad(seat, 3)}!`;
export const exchangeKey = (room: string, seat: number, step: number, kind: string) => `${exchangePrefix(room, seat)}${pad(step, 4)}!${kind}`;
/** "~" sorts after every character a key uses, so [prefix, prefix + "~") is everything under prefix. */
const under = (prefix: string) => ({ gte: prefix, lt: prefix + '~' });

/**
 * Hard links to LevelDB's files in `dir`/BEFORE_OPEN, made before LevelDB opens them: opening
 * turns its write-ahead log into a table and deletes the log, so damage found only after the open
 * (a truncated log) would otherwise leave nothing as it was. A clean load removes them; links
 * kept from an earlier start that found damage are left as they are (they are the older files).
 * Returns the sentence that says where they are (none if they could not be made).
 */
function keepFiles(dir: string, files: string[]): string[] {
  const keep = join(dir, BEFORE_OPEN);
  if (files.length === 0) return [];
  if (existsSync(keep)) return [`LevelDB's files as they were before an earlier start are kept in ${keep}`];
  try {
    mkdirSync(keep);
    for (const f of [...files, 'CURRENT', TALLY_FILE]) if (existsSync(join(dir, f))) linkSync(join(dir, f), join(keep, f));
    return [`LevelDB's files as they were before this start are kept in ${keep} (hard links)`];
  } catch {
    rmSync(keep, { recursive: true, force: true });
    return [];
  }
}

/** LevelDB's open files at most (its table cache; limits.ts's `sockets` is sized beside it). */
export const MAX_OPEN_FILES = 24;

export class RoomStore {
  /**
   * A write failed (a full disk): LevelDB may have left a torn record at the end of its log, and
   * goes on appending after it; when that log is next read (a restart), what follows the torn
   * record in its 32 KiB block is skipped. Found on a full 256 KiB tmpfs: a seat and an event
   * acknowledged after space was freed were gone after a restart. So the next write first reopens
   * the database, which recovers the log up to the torn record and starts a new one.
   */
  private broken = false;
  private reopening: Promise<void> | null = null;

  /** What each room holds at least (storeCheck.ts): counted after its writes, lowered before its deletes. */
  private readonly tally: Map<string, Counts>;

  private constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly sync: boolean,
    private readonly dir: string,
    tally: Map<string, Counts> | null,
  ) {
    this.tally = tally ?? new Map();
  }

  /** Callers waiting for a write of the tally that begins after their call, and whether one is being written. */
  private tallyWaiters: (() => void)[] = [];
  private tallyWriting = false;

  /**
   * Resolves once the tally as it is now is written (group commit: the callers of one moment share
   * one write, the next moment's wait for the next). The store's writes await it before they
   * resolve, so an answer to the client (an ack, a seat, a room) is sent only after the tally counts
   * what it promises: a log that loses acknowledged writes is then a store that holds less than its
   * tally (storeCheck.ts), the last second's writes included. Deletes lower the tally and await it
   * before they delete, so a crash between the two never reads as lost data.
   */
  private tallied(): Promise<void> {
    return new Promise((done) => {
      this.tallyWaiters.push(done);
      if (!this.tallyWriting) void this.writeTallies();
    });
  }

  private async writeTallies(): Promise<void> {
    this.tallyWriting = true;
    while (this.tallyWaiters.length > 0) {
      const waiters = this.tallyWaiters.splice(0);
      await writeTally(this.dir, this.tally);
      for (const done of waiters) done();
    }
    this.tallyWriting = false;
  }

  private count(room: string, what: keyof Counts, n: number): void {
    const c = this.tally.get(room);
    if (!c) return;
    c[what] = Math.max(0, c[what] + n);
  }

  /** Run a write, after reopening the database if an earlier write failed. */
  private async write(op: () => Promise<void>): Promise<void> {
    if (this.broken) await this.recover();
    try {
      await op();
    } catch (e) {
      this.broken = true;
      throw e;
    }
  }

  /** Close and open the database again (one at a time; if the open fails, the next write tries again). */
  private recover(): Promise<void> {
    this.reopening ??= (async () => {
      try {
        await this.db.close();
        await this.db.open();
        this.broken = false;
      } finally {
        this.reopening = null;
      }
    })();
    return this.reopening;
  }

  /** Whether a write failed and the database has not been reopened since (the tests' check). */
  get needsReopen(): boolean {
    return this.broken;
  }

  /**
   * Open the store in `dir`. Refuses (StoreDamage) a directory that holds LevelDB's files but no
   * CURRENT (opened as new, LevelDB would delete them), one whose tally counts rooms but that
   * holds no LevelDB files, and one LevelDB finds corrupt; a locked one fails as LevelDB says.
   */
  static async open(dir: string, { fsync = false } = {}): Promise<RoomStore> {
    const files = levelFiles(dir);
    const tally = readTally(dir);
    if (files.data.length > 0 && !files.current) {
      throw new StoreDamage([`LevelDB's CURRENT file is missing, and the directory holds ${files.data.length} of its files (${Math.ceil(files.bytes / 1024)} KiB): opened as it is, LevelDB would start empty and delete them`]);
    }
    if (files.data.length === 0 && tally && tally.size > 0) throw new StoreDamage([`the directory holds none of LevelDB's files, and its tally counts ${plural(tally.size, 'room')}`]);
    const kept = keepFiles(dir, files.data);
    // LevelDB keeps up to maxOpenFiles tables open (1,000 by default): with the server's 940 sockets
    // that could pass `ulimit -n` 1,024, so it keeps at most 24 (its files and about 25 of Node's own: under 1,024).
    const db = new ClassicLevel<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8', createIfMissing: files.data.length === 0, maxOpenFiles: MAX_OPEN_FILES });
    try {
      await db.open();
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      if (cause?.code === 'LEVEL_CORRUPTION') throw new StoreDamage([`LevelDB cannot read its own files (${cause.message})`, ...kept]);
      throw e;
    }
    const store = new RoomStore(db, fsync, dir, tally);
    store.kept = kept;
    return store;
  }

  /** Where LevelDB's files as they were before this open are kept, in words (empty: not kept). */
  private kept: string[] = [];

  /**
   * Read every record (storeCheck.ts): the rooms with their seats as the events stored say, and
   * the damage found (with where LevelDB's files as they were are kept). A store found sound lets
   * the kept files go.
   */
  async scan(): Promise<StoreScan> {
    const scan = await scanStore(this.db, this.tally.size > 0 ? this.tally : null);
    if (scan.problems.length === 0) rmSync(join(this.dir, BEFORE_OPEN), { recursive: true, force: true });
    else scan.notes.push(...this.kept);
    return scan;
  }

  /**
   * Every room with its seats, in seat order, each seat's event count, last step, done and bytes
   * derived from what the store holds; StoreDamage if the store holds less than its tally or is
   * inconsistent. A clean load starts the tally again from what it read.
   */
  async loadAll(): Promise<StoredRoom[]> {
    const scan = await this.scan();
    if (scan.problems.length > 0) throw new StoreDamage([...scan.problems, ...scan.notes]);
    this.tally.clear();
    for (const [id, c] of scan.counts) this.tally.set(id, { ...c });
    await this.tallied();
    return scan.rooms;
  }

  /** After a repair: delete the events stored after a missing one, rewrite each seat's record as its events say, and start the tally again from the store. */
  async rewriteFrom(scan: StoreScan): Promise<void> {
    if (scan.orphans.length > 0) await this.db.batch(scan.orphans.map((key) => ({ type: 'del' as const, key })), { sync: true });
    for (const { room, seats } of scan.rooms) for (const seat of seats) await this.db.put(seatKey(room.id, seat.index), JSON.stringify(seat), { sync: true });
    this.tally.clear();
    for (const [id, c] of scan.counts) this.tally.set(id, { ...c });
    await this.tallied();
  }

  async putRoom(room: RoomRecord): Promise<void> {
    await this.write(() => this.db.put(roomKey(room.id), JSON.stringify(room), { sync: this.sync }));
    if (!this.tally.has(room.id)) this.tally.set(room.id, { seats: 0, events: 0, exchanges: 0 });
    await this.tallied();
  }

  /** Store a new seat. */
  async putSeat(room: string, seat: SeatRecord): Promise<void> {
    await this.write(() => this.db.put(seatKey(room, seat.index), JSON.stringify(seat), { sync: this.sync }));
    this.count(room, 'seats', 1);
    await this.tallied();
  }

  /** Store event `seq` of a seat and the seat's record (its count already counting the event), atomically. */
  async appendEvent(room: string, seat: SeatRecord, seq: number, json: string): Promise<void> {
    await this.write(() =>
      this.db.batch(
        [
          { type: 'put', key: eventKey(room, seat.index, seq), value: json },
          { type: 'put', key: seatKey(room, seat.index), value: JSON.stringify(seat) },
        ],
        { sync: this.sync },
      ),
    );
    this.count(room, 'events', 1);
    await this.tallied();
  }

  /** A seat's events [from, to) as the JSON strings stored. */
  async readEvents(room: string, seat: number, from: number, to: number): Promise<string[]> {
    if (to <= from) return [];
    return this.db.values({ gte: eventKey(room, seat, from), lt: eventKey(room, seat, to) }).all();
  }

  /** How many events of a seat are stored (counted key by key: the load check's and the tests' check). */
  async countEvents(room: string, seat: number): Promise<number> {
    return (await this.db.keys(under(eventPrefix(room, seat))).all()).length;
  }

  /** Store a seat's exchange and the seat's record (its bytes counting it), atomically. */
  async putExchange(room: string, seat: SeatRecord, step: number, kind: string, json: string): Promise<void> {
    await this.write(() =>
      this.db.batch(
        [
          { type: 'put', key: exchangeKey(room, seat.index, step, kind), value: json },
          { type: 'put', key: seatKey(room, seat.index), value: JSON.stringify(seat) },
        ],
        { sync: this.sync },
      ),
    );
    this.count(room, 'exchanges', 1);
    await this.tallied();
  }

  /** Up to `limit` of a seat's exchanges after the key `after` (null: from the first), as [key, JSON] in step order. */
  readExchangePage(room: string, seat: number, after: string | null, limit: number): Promise<[string, string][]> {
    const prefix = exchangePrefix(room, seat);
    return this.db.iterator({ ...(after === null ? { gte: prefix } : { gt: after }), lt: prefix + '~', limit }).all();
  }

  /** Whether a seat's exchange at (step, kind) is stored: once stored it is never written again. */
  async hasExchange(room: string, seat: number, step: number, kind: string): Promise<boolean> {
    return (await this.db.get(exchangeKey(room, seat, step, kind))) !== undefined;
  }

  /** A seat's exchanges in step order (at a step, eval before train), as the JSON strings stored. */
  readExchanges(room: string, seat: number): Promise<string[]> {
    return this.db.values(under(exchangePrefix(room, seat))).all();
  }

  /**
   * Store `seat` (its count, step and bytes back to 0) and delete its events and exchanges, in one
   * atomic batch: a seat switched to train alone streams its run again from the start (lifecycle.ts).
   */
  restartSeat(room: string, seat: SeatRecord): Promise<void> {
    return this.write(async () => {
      const events = await this.db.keys(under(eventPrefix(room, seat.index))).all();
      const exchanges = await this.db.keys(under(exchangePrefix(room, seat.index))).all();
      this.count(room, 'events', -events.length);
      this.count(room, 'exchanges', -exchanges.length);
      await this.tallied();
      await this.db.batch(
        [...[...events, ...exchanges].map((key) => ({ type: 'del' as const, key })), { type: 'put' as const, key: seatKey(room, seat.index), value: JSON.stringify(seat) }],
        { sync: this.sync },
      );
    });
  }

  /** Delete a seat and everything stored for it (its events and exchanges), so that its index can be taken again. */
  deleteSeat(room: string, seat: number): Promise<void> {
    return this.write(() => this.deleteSeatNow(room, seat));
  }

  private async deleteSeatNow(room: string, seat: number): Promise<void> {
    // One atomic batch: a crash midway must not leave a seat's exchanges behind for its next
    // occupant's partner (a seat has at most 5,002 events and two exchanges a step).
    const events = await this.db.keys(under(eventPrefix(room, seat))).all();
    const exchanges = await this.db.keys(under(exchangePrefix(room, seat))).all();
    const keys = [seatKey(room, seat), ...events, ...exchanges];
    // The tally goes down first: a crash between the two must not read as lost data.
    if ((await this.db.get(seatKey(room, seat))) !== undefined) this.count(room, 'seats', -1);
    this.count(room, 'events', -events.length);
    this.count(room, 'exchanges', -exchanges.length);
    await this.tallied();
    await this.db.batch(
      keys.map((key) => ({ type: 'del' as const, key })),
      { sync: this.sync },
    );
  }

  /** Delete a room and everything in it. */
  deleteRoom(room: string): Promise<void> {
    return this.write(async () => {
      // The tally drops the room first: what a crash leaves of it is no damage (storeCheck.ts).
      if (this.tally.delete(room)) await this.tallied();
      for (const kind of ['e', 'x', 's']) await this.db.clear(under(`${kind}!${room}!`));
      await this.db.del(roomKey(room), { sync: this.sync });
    });
  }

  async close(): Promise<void> {
    if (this.tallyWriting) await this.tallied();
    await this.db.close();
  }

  /**
   * LevelDB's repair of `dir` (it rebuilds the MANIFEST from the table and log files it finds,
   * keeping every record it can read), then a scan of what it kept; each seat's record is then
   * rewritten as its events say, and the tally started again. Returns the scan and what the old
   * tally counted (null: none), for the report. The caller copies the directory first.
   */
  static async repair(dir: string): Promise<{ scan: StoreScan; before: Map<string, Counts> | null }> {
    let before: Map<string, Counts> | null = null;
    try {
      before = readTally(dir);
    } catch {
      before = null;
    }
    rmSync(join(dir, TALLY_FILE), { force: true });
    await ClassicLevel.repair(dir);
    const store = await RoomStore.open(dir);
    try {
      const found = await scanStore(store.db, before);
      await store.rewriteFrom(found);
      return { scan: found, before };
    } finally {
      await store.close();
    }
  }
}
