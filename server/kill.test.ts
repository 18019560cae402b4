// Durability: an event the room acknowledged survives the server's process being killed
// (SIGKILL, no chance to close anything), and one that a damaged log lost is named, the last
// acknowledged writes before the kill included. The server runs as `npm run room` does, in a
// child process, on a temporary data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION, streamedEvent } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import { startTarget } from './attack/target';

const dataDir = mkdtempSync(join(tmpdir(), 'room-kill-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run room` on a free port; resolves with its WebSocket address once it listens. */
function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../cli/room/room.ts', import.meta.url)), '--port', '0', '--host', '127.0.0.1', '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const port = /room server on port (\d+)/.exec(out)?.[1];
      if (port) done({ child, url: `ws://127.0.0.1:${port}/room` });
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => fail(new Error(`the room server exited (${code}): ${out}`)));
  });
}

describe('kill -9', () => {
  it('loses no acknowledged event, seat or token', async () => {
    const run = syntheticRun(presetSpec('quick'), 100); // seat 0's seed (createRoom's base seed)
    const first = await startChild();
    const { presenter, room, key } = await createRoom(first.url);
    const s = await joinRoom(first.url, room);
    run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
    await s.client.waitFor('ack', (m) => m.seq === run.length - 1);
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    await Promise.all([presenter.closed, s.client.closed]);

    const second = await startChild();
    const p = await RoomClient.connect(second.url);
    p.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    const got = await p.waitFor('events');
    expect(got.events).toEqual(run.map(streamedEvent));
    const back = await joinRoom(second.url, room, { index: 0, token: s.seat.token });
    expect(back.seat.stored).toBe(run.length);
    expect(back.seat.seat.done).toBe(true);
    await Promise.all([p.close(), back.client.close()]);
    second.child.kill('SIGTERM');
  });

  it("names acknowledged events a truncated log lost, those acked just before the kill included", async () => {
    const spec = { ...presetSpec('quick'), steps: 30 };
    const t = await startTarget();
    try {
      const { presenter, room } = await createRoom(t.url, { spec });
      const s = await joinRoom(t.url, room);
      const run = syntheticRun(spec, s.seat.seat.seed ?? 0).map(streamedEvent);
      run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
      // Killed as soon as the last ack comes: the store had no second to count them afterwards.
      await s.client.waitFor('ack', (m) => m.seq === run.length - 1, { timeoutMs: 60_000 });
      await t.kill();
      await Promise.all([presenter.closed, s.client.closed]);
      const log = join(t.dataDir, readdirSync(t.dataDir).find((f) => f.endsWith('.log'))!);
      truncateSync(log, Math.floor(statSync(log).size * 0.7));
      const refused = await startTarget({ dataDir: t.dataDir }).then(
        async (again) => {
          await again.kill();
          return 'it started';
        },
        (e: unknown) => String(e),
      );
      expect(refused).toMatch(new RegExp(`room ${room.slice(0, 4)}… \\("Class"\\) lost \\d+ of its ${run.length} events`));
    } finally {
      await t.stop();
    }
  });
});
