/**
 * Damage to the room's data directory, found and named in words. LevelDB on its own lets damage
 * pass in silence: with its CURRENT file deleted, opening it made an empty database (and removed
 * the old table file); with its write-ahead log truncated it opened without 103 acknowledged
 * events; an overwritten MANIFEST read as "is another room server using it?". So:
 *   - a directory that holds LevelDB's files but no CURRENT is never opened as a new database;
 *   - the store keeps a tally beside LevelDB's files (TALLY_FILE: each room's seats, events and
 *     answers), written after the writes it counts are on disk and before the client is answered
 *     (store.ts), and before any delete, so that it never counts more than the store holds nor less
 *     than was acknowledged; a store that holds less than its tally lost data;
 *   - every record is read at start (scanStore): a record that does not parse, a seat whose record
 *     counts other events than the store holds, or an event missing between two others, is named.
 * `npm run room -- --check` prints the same report; `--repair` copies the directory, runs
 * LevelDB's own repair (which rebuilds the MANIFEST from the table and log files it finds) and
 * reports what it recovered against the tally.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClassicLevel } from 'classic-level';
import { diskBound } from './diskUse';
import type { RoomRecord, SeatRecord, StoredRoom } from './store';

export const TALLY_FILE = 'room-tally.json';
/** The folder in the data directory that keeps LevelDB's files as they were before an open that found damage (store.ts). */
export const BEFORE_OPEN = 'before-open';

/** What a room holds, as counted. */
export interface Counts {
  seats: number;
  events: number;
  exchanges: number;
}

/** The store could not be opened as it is: what is wrong, in words, one line each. */
export class StoreDamage extends Error {
  constructor(readonly problems: string[]) {
    super(`the room data is damaged: ${problems.join('; ')}`);
    this.name = 'StoreDamage';
  }
}

/** LevelDB's own files in `dir`: whether it has any data files, and its CURRENT. */
export function levelFiles(dir: string): { data: string[]; bytes: number; current: boolean } {
  if (!existsSync(dir)) return { data: [], bytes: 0, current: false };
  const names = readdirSync(dir);
  const data = names.filter((n) => /^\d+\.(ldb|sst|log)$/.test(n) || /^MANIFEST-\d+$/.test(n));
  return { data, bytes: data.reduce((n, f) => n + statSync(join(dir, f)).size, 0), current: names.includes('CURRENT') };
}

/** The tally of `dir` (null: none kept yet: a new directory, or one from before tallies). */
export function readTally(dir: string): Map<string, Counts> | null {
  const file = join(dir, TALLY_FILE);
  if (!existsSync(file)) return null;
  try {
    const rows = JSON.parse(readFileSync(file, 'utf8')) as { rooms: [string, number, number, number][] };
    return new Map(rows.rooms.map(([id, seats, events, exchanges]) => [id, { seats, events, exchanges }]));
  } catch {
    throw new StoreDamage([`its tally (${TALLY_FILE}) cannot be read: run --check to see what the store holds, and --repair to start the tally again from it`]);
  }
}

/**
 * Write the tally atomically (a new file renamed over the old one). It reaches the operating
 * system, which keeps it if the process is killed; it is not flushed to the disk each time (a
 * flush before every answer took the acks' p95 at load 20 from 20-39 ms to 55-81 ms), so a power
 * cut may lose its last write (LevelDB's own writes are flushed). If it cannot be written (a full
 * disk), it is removed: no tally never reads as lost data. Never throws.
 */
export async function writeTally(dir: string, tally: Map<string, Counts>): Promise<void> {
  const file = join(dir, TALLY_FILE);
  const rooms = [...tally].map(([id, c]) => [id, c.seats, c.events, c.exchanges]);
  const body = JSON.stringify({ v: 1, rooms });
  try {
    const handle = await open(`${file}.new`, 'w');
    try {
      await handle.writeFile(body);
    } finally {
      await handle.close();
    }
    await rename(`${file}.new`, file);
  } catch {
    await rm(file, { force: true }).catch(() => undefined);
  }
}

const short = (id: string) => `${id.slice(0, 4)}…`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a whole read of the store found. */
export interface StoreScan {
  rooms: StoredRoom[];
  counts: Map<string, Counts>;
  /** Damage, in words (empty: none found). */
  problems: string[];
  /** Keys of events stored after a missing one: no page can read them (a repair deletes them). */
  orphans: string[];
  /** Where LevelDB's files as they were before this open are kept, when damage was found (store.ts). */
  notes: string[];
}

interface SeatScan {
  events: number;
  /** The next event index expected; an event after a gap is counted in `beyond`. */
  beyond: number;
  exchanges: number;
  bytes: number;
  last: string[];
}

/**
 * Read every record of `db`: each room with its seats (a seat's events, last step, done and bytes
 * derived from the events the store holds, not taken from its record), each room's counts, and
 * every sign of damage. `tally`: what the store held at least, when last counted.
 */
export async function scanStore(db: ClassicLevel<string, string>, tally: Map<string, Counts> | null): Promise<StoreScan> {
  const problems: string[] = [];
  const orphans: string[] = [];
  const rooms = new Map<string, StoredRoom>();
  const seats = new Map<string, SeatScan>();
  const seatOf = (room: string, seat: string) => {
    const k = `${room}!${seat}`;
    let s = seats.get(k);
    if (!s) seats.set(k, (s = { events: 0, beyond: 0, exchanges: 0, bytes: 0, last: [] }));
    return s;
  };
  const parse = <T>(key: string, value: string): T | null => {
    try {
      return JSON.parse(value) as T;
    } catch {
      problems.push(`the record ${key.slice(0, 40)} does not parse as JSON`);
      return null;
    }
  };
  try {
    for await (const [key, value] of db.iterator()) {
      const [kind, room, seat, n] = key.split('!');
      if (kind === 'r') {
        const r = parse<RoomRecord>(key, value);
        if (r) rooms.set(r.id, { room: r, seats: [] });
      } else if (kind === 's') {
        const s = parse<SeatRecord>(key, value);
        if (s) (rooms.get(room) ?? { seats: [] as SeatRecord[] }).seats.push(s);
      } else if (kind === 'e') {
        const s = seatOf(room, seat);
        if (Number(n) === s.events && s.beyond === 0) {
          s.events++;
          s.last = [s.last.at(-1) ?? '', value];
        } else {
          s.beyond++;
          orphans.push(key);
        }
        s.bytes += diskBound(key, value);
      } else if (kind === 'x') {
        const s = seatOf(room, seat);
        s.exchanges++;
        s.bytes += diskBound(key, value);
      }
    }
  } catch (e) {
    problems.push(`LevelDB could not read all of its records (${e instanceof Error ? e.message : String(e)})`);
  }
  const counts = new Map<string, Counts>();
  for (const { room, seats: list } of rooms.values()) {
    list.sort((a, b) => a.index - b.index);
    const c: Counts = { seats: list.length, events: 0, exchanges: 0 };
    for (const record of list) {
      const s = seats.get(`${room.id}!${String(record.index).padStart(3, '0')}`) ?? { events: 0, beyond: 0, exchanges: 0, bytes: 0, last: [] };
      c.events += s.events;
      c.exchanges += s.exchanges;
      const where = `seat ${record.index} of room ${short(room.id)}`;
      // A room the tally no longer has was being deleted (the tally drops it first): what is left of it is no damage.
      if (tally && !tally.has(room.id)) {
        derive(room.id, record, s);
        continue;
      }
      if (s.beyond > 0) problems.push(`${where}: event ${s.events} is missing, and ${plural(s.beyond, 'event')} after it are stored`);
      else if (record.events !== s.events) problems.push(`${where}: its record counts ${plural(record.events, 'event')}, the store holds ${s.events}`);
      derive(room.id, record, s);
    }
    counts.set(room.id, c);
  }
  for (const [id, was] of tally ?? []) {
    const now = counts.get(id);
    if (!now) {
      problems.push(`room ${short(id)} is gone: it held ${plural(was.seats, 'seat')}, ${plural(was.events, 'event')} and ${plural(was.exchanges, 'set')} of answers`);
      continue;
    }
    const lost = (['seats', 'events', 'exchanges'] as const).filter((k) => now[k] < was[k]).map((k) => `${was[k] - now[k]} of its ${plural(was[k], k === 'exchanges' ? 'set of answers' : k.slice(0, -1), k === 'exchanges' ? 'sets of answers' : k)}`);
    const name = rooms.get(id)?.room.name;
    if (lost.length > 0) problems.push(`room ${short(id)}${name ? ` ("${name.slice(0, 40)}")` : ''} lost ${lost.join(', ')}`);
  }
  return { rooms: [...rooms.values()], counts, problems, orphans, notes: [] };
}

/** A seat's count, last step, done and bytes from the events the store holds (diskUse.ts counts the seat record's rewrites too). */
function derive(room: string, record: SeatRecord, s: SeatScan): void {
  record.events = s.events;
  const [before, last] = s.last.map((v) => {
    try {
      return JSON.parse(v) as { type?: string; step?: number };
    } catch {
      return {};
    }
  });
  const stepOf = (e: { type?: string; step?: number } | undefined) => (e?.type === 'step' && typeof e.step === 'number' ? e.step : 0);
  record.done = last?.type === 'done' || last?.type === 'nonfinite';
  record.lastStep = record.done ? stepOf(before) : stepOf(last);
  const widest = diskBound(`s!${room}!000`, JSON.stringify({ ...record, bytes: Number.MAX_SAFE_INTEGER }));
  record.bytes = s.bytes + (s.events + s.exchanges) * widest;
}

/** The report of a scan: what the store holds, and each problem. */
export { plural };

export function describeScan(dir: string, scan: StoreScan): string[] {
  let seats = 0;
  let events = 0;
  let exchanges = 0;
  for (const c of scan.counts.values()) {
    seats += c.seats;
    events += c.events;
    exchanges += c.exchanges;
  }
  const lines = [`${dir}: ${plural(scan.rooms.length, 'room')}, ${plural(seats, 'seat')}, ${plural(events, 'event')}, ${plural(exchanges, 'set')} of answers`];
  if (scan.problems.length === 0) lines.push('no damage found');
  else lines.push(`${plural(scan.problems.length, 'problem')}:`, ...scan.problems.map((p) => `  ${p}`), ...scan.notes);
  return lines;
}
