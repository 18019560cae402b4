// A damaged data directory, made for real on copies of one a server wrote: the server refuses to
// start over it and says what is wrong in words, `--check` says the same, and `--repair` (LevelDB's
// repair) recovers what the files still hold and says what was lost; a seat's event count then
// follows the events stored.
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedEvent } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, startLocalServer } from './load/harness';
import { syntheticRun } from './load/syntheticRun';
import { startRoomServer } from './server';
import { StoreDamage } from './storeCheck';
import { checkDataDir, repairDataDir } from './storeRepair';

const spec = { ...presetSpec('quick'), steps: 30 };
const work = mkdtempSync(join(tmpdir(), 'room-damage-'));
const original = join(work, 'original');
/** The directory as the server left it, before any other open (opening converts LevelDB's log into a table). */
const pristine = join(work, 'pristine');
let room = '';

beforeAll(async () => {
  const local = await startLocalServer({ dataDir: original });
  const created = await createRoom(local.url, { spec });
  room = created.room;
  for (let k = 0; k < 2; k++) {
    const s = await joinRoom(local.url, room);
    const run = syntheticRun(spec, s.seat.seat.seed ?? 0).map(streamedEvent);
    run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
    await s.client.waitFor('ack', (a) => a.seq === run.length - 1);
    await s.client.close();
  }
  await created.presenter.close();
  await local.server.close();
  cpSync(original, pristine, { recursive: true });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let copies = 0;
/** A copy of the directory the server wrote, damaged by `harm`. */
function damaged(harm: (dir: string) => void): string {
  const dir = join(work, `copy${++copies}`);
  cpSync(pristine, dir, { recursive: true });
  harm(dir);
  return dir;
}
const fileOf = (dir: string, pattern: RegExp) => readdirSync(dir).find((f) => pattern.test(f))!;

/** Start a server over `dir`: the words of its refusal, or null if it started (and is closed again). */
async function startOver(dir: string): Promise<string[] | null> {
  try {
    const server = await startRoomServer({ port: 0, host: '127.0.0.1', dataDir: dir, ttlHours: 24, distDir: null });
    await server.close();
    return null;
  } catch (e) {
    if (e instanceof StoreDamage) return e.problems;
    throw e;
  }
}

/** Each seat's stored event count, as a server over `dir` tells its hub. */
async function seatEvents(dir: string): Promise<number[]> {
  const server = await startRoomServer({ port: 0, host: '127.0.0.1', dataDir: dir, ttlHours: 24, distDir: null });
  try {
    return server.hub.room(room)!.taken().map((s) => s.events);
  } finally {
    await server.close();
  }
}

const events = syntheticRun(spec, 0).length;

describe('a damaged data directory', () => {
  it('starts over a sound one, and --check finds no damage', async () => {
    expect(await checkDataDir(original)).toEqual({ ok: true, lines: [`${original}: 1 room, 2 seats, ${2 * events} events, 0 sets of answers`, 'no damage found'] });
    expect(await seatEvents(original)).toEqual([events, events]);
  });

  it('with CURRENT deleted: refuses to start (and deletes nothing); the repair recovers every event', async () => {
    const dir = damaged((d) => unlinkSync(join(d, 'CURRENT')));
    const files = readdirSync(dir).sort();
    expect((await startOver(dir))?.[0]).toMatch(/^LevelDB's CURRENT file is missing, and the directory holds \d+ of its files .*would start empty and delete them/);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect((await checkDataDir(dir)).ok).toBe(false);
    const repaired = await repairDataDir(dir, `${dir}.before`);
    expect(repaired.lines[1]).toBe(`LevelDB's repair recovered 1 room, 2 seats, ${2 * events} events and 0 sets of answers`);
    expect(repaired.lines.some((l) => /lost/.test(l))).toBe(false);
    expect(readdirSync(`${dir}.before`).sort()).toEqual(files);
    expect(await seatEvents(dir)).toEqual([events, events]);
  });

  it('with its log truncated: names the events lost, and after the repair each seat counts the events it holds', async () => {
    const dir = damaged((d) => {
      const log = join(d, fileOf(d, /\.log$/));
      truncateSync(log, Math.floor(statSync(log).size * 0.7));
    });
    const log = fileOf(dir, /\.log$/);
    const problems = await startOver(dir);
    expect(problems?.join('\n')).toMatch(new RegExp(`room ${room.slice(0, 4)}… \\("Class"\\) lost \\d+ of its ${2 * events} events`));
    // Opening LevelDB turned the log into a table; the log as it was is kept.
    expect(problems?.at(-1)).toBe(`LevelDB's files as they were before this start are kept in ${join(dir, 'before-open')} (hard links)`);
    expect(statSync(join(dir, 'before-open', log)).size).toBeGreaterThan(0);
    const check = await checkDataDir(dir);
    expect(check.ok).toBe(false);
    expect(check.lines.join('\n')).toMatch(/lost \d+ of its \d+ events/);
    const repaired = await repairDataDir(dir, `${dir}.before`);
    expect(repaired.ok).toBe(true);
    expect(repaired.lines.join('\n')).toMatch(/lost or changed:\n {2}room .* lost \d+ of its \d+ events/);
    const counts = await seatEvents(dir);
    expect(counts.reduce((a, b) => a + b, 0)).toBeLessThan(2 * events);
    expect((await checkDataDir(dir)).ok).toBe(true);
  });

  it('with its MANIFEST overwritten: says LevelDB cannot read its files (not "another server"), and the repair recovers every event', async () => {
    const dir = damaged((d) => writeFileSync(join(d, fileOf(d, /^MANIFEST-/)), 'garbage'.repeat(10)));
    expect((await startOver(dir))?.[0]).toMatch(/^LevelDB cannot read its own files \(Corruption: /);
    await repairDataDir(dir, `${dir}.before`);
    expect(await seatEvents(dir)).toEqual([events, events]);
  });

  it('with every LevelDB file gone: refuses to start empty', async () => {
    const dir = damaged((d) => {
      for (const f of readdirSync(d)) if (f !== 'room-tally.json') unlinkSync(join(d, f));
    });
    expect(await startOver(dir)).toEqual(["the directory holds none of LevelDB's files, and its tally counts 1 room"]);
  });

  it("names an event missing between others, and the repair drops what follows the gap", async () => {
    const dir = damaged(() => {});
    const db = new ClassicLevel<string, string>(dir, { createIfMissing: false });
    await db.open();
    await db.del(`e!${room}!001!0003`);
    await db.close();
    const problems = await startOver(dir);
    expect(problems).toContain(`seat 1 of room ${room.slice(0, 4)}…: event 3 is missing, and ${events - 4} events after it are stored`);
    const repaired = await repairDataDir(dir, `${dir}.before`);
    expect(repaired.lines).toContain(`${events - 4} events stored after a missing one deleted (no page can read past the gap)`);
    expect(await seatEvents(dir)).toEqual([events, 3]);
  });
});
