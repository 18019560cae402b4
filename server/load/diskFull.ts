/**
 * A real full disk under the real room server: its data directory on a 256 KiB tmpfs,
 * students stream events until the store fails with ENOSPC, the tmpfs is grown, one more student
 * joins and streams, and the server is restarted on the same directory. Passes (exit 0) when the
 * refusal was `over-quota` to the student and the presenter, memory held what the store held at
 * each point, and the restarted server holds every acknowledged seat and event.
 *
 * Needs root (it mounts a tmpfs): `sudo npx tsx server/load/diskFull.ts` (docs/ROOM.md, "Persistence").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRoom, joinRoom, presetSpec, startLocalServer, type LocalServer } from './harness';
import { syntheticRun } from './syntheticRun';

const mountDir = mkdtempSync(join(tmpdir(), 'room-full-'));
const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'inherit' });

/** Seat index -> events acknowledged to it. */
const acked = new Map<number, number>();

async function stored(local: LocalServer, room: string): Promise<[number, number, number][]> {
  const seats = local.server.hub.room(room)!.info().seats;
  return Promise.all(seats.map(async (s): Promise<[number, number, number]> => [s.index, s.events, await local.server.store.countEvents(room, s.index)]));
}

async function main(): Promise<string[]> {
  const problems: string[] = [];
  mount('-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountDir);
  const local = await startLocalServer({ dataDir: join(mountDir, 'data'), roomDebounceMs: 10 });
  try {
    const { presenter, room } = await createRoom(local.url);
    const run = syntheticRun(presetSpec('quick'), 1);
    let refusal: string | null = null;
    for (let s = 0; s < 100 && refusal === null; s++) {
      const j = await joinRoom(local.url, room);
      const index = j.seat.seat.index;
      for (let i = 0; i < run.length; i++) {
        j.client.send({ t: 'event', seq: i, event: run[i] });
        const m = await j.client.waitAny((m) => (m.t === 'ack' && m.seq === i) || m.t === 'error');
        if (m.t === 'error') {
          refusal = `${m.code}: ${m.message}`;
          break;
        }
        acked.set(index, i + 1);
      }
    }
    console.log(`refused after ${[...acked.values()].reduce((a, b) => a + b, 0)} acknowledged events: ${refusal}`);
    if (!refusal?.startsWith('over-quota: ')) problems.push(`the student was told ${refusal}, not over-quota`);
    const told = await presenter.waitAny((m) => m.t === 'error' && m.code === 'over-quota', { timeoutMs: 2000 }).catch(() => null);
    console.log(`the presenter was told: ${told && told.t === 'error' ? told.message : 'nothing'}`);
    if (!told) problems.push('the presenter was not told over-quota');
    for (const [index, events, count] of await stored(local, room)) {
      if (events !== count || events !== (acked.get(index) ?? 0)) problems.push(`full: seat ${index} holds ${events} in memory, ${count} stored, ${acked.get(index) ?? 0} acknowledged`);
    }

    // Space again: a new student streams, and is acknowledged.
    mount('-o', 'remount,size=4m', mountDir);
    const j = await joinRoom(local.url, room);
    for (let i = 0; i < 3; i++) {
      j.client.send({ t: 'event', seq: i, event: run[i] });
      await j.client.waitFor('ack', (m) => m.seq === i);
      acked.set(j.seat.seat.index, i + 1);
    }
    console.log(`after space was freed: seat ${j.seat.seat.index} joined and 3 events were acknowledged`);

    await local.restart();
    const after = await stored(local, room);
    console.log(`after a restart: ${after.map(([i, e, c]) => `${i}:${e}/${c}`).join(' ')} (seat:memory/stored)`);
    if (after.length !== acked.size) problems.push(`after a restart ${after.length} seats, ${acked.size} acknowledged`);
    for (const [index, events, count] of after) {
      if (events !== count || events !== (acked.get(index) ?? 0)) problems.push(`restarted: seat ${index} holds ${events} in memory, ${count} stored, ${acked.get(index) ?? 0} acknowledged`);
    }
  } finally {
    await local.server.close();
    execFileSync('umount', [mountDir]);
    rmdirSync(mountDir);
  }
  return problems;
}

main().then(
  (problems) => {
    console.log(problems.length === 0 ? 'ok: every acknowledged seat and event is held' : problems.join('\n'));
    process.exit(problems.length === 0 ? 0 : 1);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
