/**
 * The operator's two commands for a data directory (cli/room/room.ts): `--check` reads every record
 * and names any damage (storeCheck.ts), changing nothing LevelDB itself would not on opening;
 * `--repair` first copies the directory beside itself, then runs LevelDB's repair and reports what
 * it recovered against what the directory last counted.
 */
import { cpSync, existsSync } from 'node:fs';
import { RoomStore } from './store';
import { StoreDamage, describeScan, plural, type Counts } from './storeCheck';

export interface DirReport {
  /** No damage found (check), or the server can start over the directory now (repair). */
  ok: boolean;
  lines: string[];
}

const lockedWords = (dir: string) => `${dir} is in use by a running room server: stop it first (or check a copy of the directory)`;
const isLocked = (e: unknown) => (e as { code?: string; cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED' || (e as { code?: string }).code === 'LEVEL_LOCKED';

export async function checkDataDir(dir: string): Promise<DirReport> {
  if (!existsSync(dir)) return { ok: true, lines: [`${dir}: no data directory (a server started with it makes a new one)`] };
  let store: RoomStore;
  try {
    store = await RoomStore.open(dir);
  } catch (e) {
    if (e instanceof StoreDamage) return { ok: false, lines: [`${dir} cannot be opened as it is:`, ...e.problems.map((p) => `  ${p}`), 'npm run room -- --repair --data <dir> copies it and runs LevelDB\'s repair'] };
    if (isLocked(e)) return { ok: false, lines: [lockedWords(dir)] };
    throw e;
  }
  try {
    const scan = await store.scan();
    const lines = describeScan(dir, scan);
    if (scan.problems.length > 0) lines.push("npm run room -- --repair --data <dir> copies it and runs LevelDB's repair");
    return { ok: scan.problems.length === 0, lines };
  } finally {
    await store.close();
  }
}

const total = (counts: Iterable<Counts>) => {
  const t = { rooms: 0, seats: 0, events: 0, exchanges: 0 };
  for (const c of counts) {
    t.rooms++;
    t.seats += c.seats;
    t.events += c.events;
    t.exchanges += c.exchanges;
  }
  return t;
};

/** Copy `dir` to `copyTo`, repair `dir` with LevelDB's repair, and say what it holds now against its last tally. */
export async function repairDataDir(dir: string, copyTo: string): Promise<DirReport> {
  if (!existsSync(dir)) return { ok: false, lines: [`${dir}: no data directory to repair`] };
  cpSync(dir, copyTo, { recursive: true });
  let result: Awaited<ReturnType<typeof RoomStore.repair>>;
  try {
    result = await RoomStore.repair(dir);
  } catch (e) {
    if (isLocked(e)) return { ok: false, lines: [lockedWords(dir)] };
    return { ok: false, lines: [`LevelDB's repair of ${dir} failed: ${e instanceof Error ? e.message : String(e)}`, `the directory as it was is in ${copyTo}`] };
  }
  const { scan, before } = result;
  const now = total(scan.counts.values());
  const counted = (t: ReturnType<typeof total>) => `${plural(t.rooms, 'room')}, ${plural(t.seats, 'seat')}, ${plural(t.events, 'event')} and ${plural(t.exchanges, 'set')} of answers`;
  const lines = [`copied ${dir} as it was to ${copyTo}`, `LevelDB's repair recovered ${counted(now)}`];
  if (before) lines.push(`the directory last counted ${counted(total(before.values()))}`);
  else lines.push('the directory kept no tally, so what was lost cannot be counted');
  if (scan.problems.length > 0) lines.push('lost or changed:', ...scan.problems.map((p) => `  ${p}`));
  if (scan.orphans.length > 0) lines.push(`${plural(scan.orphans.length, 'event')} stored after a missing one deleted (no page can read past the gap)`);
  lines.push("each seat's event count now follows the events the store holds; the server starts over this directory again");
  return { ok: true, lines };
}
