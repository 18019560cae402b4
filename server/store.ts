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
 */
import { ClassicLevel } from 'classic-level';
import type { ExperimentSpec } from '../src/core/experiment/spec';
import type { RoomStatus } from '../src/room/protocol';

export interface RoomRecord {
  id: string;
  /** SHA-256 of the presenter key (secrets.ts). */
  keyHash: string;
  name: string;
  preset: string | null;
  spec: ExperimentSpec;
  baseSeed: number;
  pairing: boolean;
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

  private constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly sync: boolean,
  ) {}

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

  static async open(dir: string, { fsync = false } = {}): Promise<RoomStore> {
    const db = new ClassicLevel<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    await db.open();
    return new RoomStore(db, fsync);
  }

  /** Every room with its seats, in seat order. */
  async loadAll(): Promise<StoredRoom[]> {
    const rooms = new Map<string, StoredRoom>();
    for await (const value of this.db.values(under('r!'))) {
      const room = JSON.parse(value) as RoomRecord;
      rooms.set(room.id, { room, seats: [] });
    }
    for await (const [key, value] of this.db.iterator(under('s!'))) {
      const stored = rooms.get(key.split('!')[1]);
      if (stored) stored.seats.push(JSON.parse(value) as SeatRecord);
    }
    for (const r of rooms.values()) r.seats.sort((a, b) => a.index - b.index);
    return [...rooms.values()];
  }

  putRoom(room: RoomRecord): Promise<void> {
    return this.write(() => this.db.put(roomKey(room.id), JSON.stringify(room), { sync: this.sync }));
  }

  putSeat(room: string, seat: SeatRecord): Promise<void> {
    return this.write(() => this.db.put(seatKey(room, seat.index), JSON.stringify(seat), { sync: this.sync }));
  }

  /** Store event `seq` of a seat and the seat's record (its count already counting the event), atomically. */
  appendEvent(room: string, seat: SeatRecord, seq: number, json: string): Promise<void> {
    return this.write(() =>
      this.db.batch(
        [
          { type: 'put', key: eventKey(room, seat.index, seq), value: json },
          { type: 'put', key: seatKey(room, seat.index), value: JSON.stringify(seat) },
        ],
        { sync: this.sync },
      ),
    );
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
  putExchange(room: string, seat: SeatRecord, step: number, kind: string, json: string): Promise<void> {
    return this.write(() =>
      this.db.batch(
        [
          { type: 'put', key: exchangeKey(room, seat.index, step, kind), value: json },
          { type: 'put', key: seatKey(room, seat.index), value: JSON.stringify(seat) },
        ],
        { sync: this.sync },
      ),
    );
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

  /** Delete a seat and everything stored for it (its events and exchanges), so that its index can be taken again. */
  deleteSeat(room: string, seat: number): Promise<void> {
    return this.write(() => this.deleteSeatNow(room, seat));
  }

  private async deleteSeatNow(room: string, seat: number): Promise<void> {
    // One atomic batch: a crash midway must not leave a seat's exchanges behind for its next
    // occupant's partner (a seat has at most 5,002 events and two exchanges a step).
    const keys = [seatKey(room, seat), ...(await this.db.keys(under(eventPrefix(room, seat))).all()), ...(await this.db.keys(under(exchangePrefix(room, seat))).all())];
    await this.db.batch(
      keys.map((key) => ({ type: 'del' as const, key })),
      { sync: this.sync },
    );
  }

  /** Delete a room and everything in it. */
  deleteRoom(room: string): Promise<void> {
    return this.write(async () => {
      for (const kind of ['e', 'x', 's']) await this.db.clear(under(`${kind}!${room}!`));
      await this.db.del(roomKey(room), { sync: this.sync });
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
