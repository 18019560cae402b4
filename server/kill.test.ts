// Durability: an event the room acknowledged survives the server's process being killed
// (SIGKILL, no chance to close anything). The server runs as `npm run room` does, in a child
// process, on a temporary data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION, streamedEvent } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';

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
});
