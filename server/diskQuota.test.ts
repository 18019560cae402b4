// The disk quota in bytes, per address: one device with several seats stores at most a quarter
// of the server's quota (addressBytes, scaled down here), while another student of the same room
// and a new class keep storing; the count is at least what the data directory holds.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskBound } from './diskUse';
import { createRoom, joinRoom, presetSpec, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import { ROOM_PROTOCOL_VERSION, streamedEvent, type ServerMessage } from '../src/room/protocol';

let local: LocalServer | null = null;
afterEach(async () => {
  await local?.dispose();
  local = null;
});

const spec = { ...presetSpec('quick'), steps: 40 };

function dirBytes(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) n += statSync(join(dir, name)).size;
  return n;
}

/** A seat from `from` sending its run until an error: the error, and how many events were acked. */
async function fill(url: string, room: string, from: string, seed: number): Promise<{ error: Extract<ServerMessage, { t: 'error' }>; acked: number }> {
  const c = await RoomClient.connect(url, { from });
  c.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
  const seat = await c.waitFor('seat');
  const run = syntheticRun(spec, seat.seat.seed ?? seed).map(streamedEvent);
  run.forEach((e, i) => c.send({ t: 'event', seq: i, event: e }));
  const error = await c.waitFor('error');
  const acked = c.messages.filter((m) => m.t === 'ack').length;
  await c.close();
  return { error, acked };
}

describe('disk quota', () => {
  it('counts a character as its UTF-8 bytes, with a fixed overhead a record', () => {
    expect(diskBound('k', 'a')).toBe(1 + 1 + 32);
    expect(diskBound('k', '€')).toBe(1 + 3 + 32);
  });

  it("stops one address's seats at its budget; another device's seat and a new class keep storing", async () => {
    // 200,000 bytes on the server; one address at most 50,000.
    local = await startLocalServer({ limits: { diskBytes: 200_000, addressBytes: 1_000_000 } });
    const { presenter, room } = await createRoom(local.url, { spec });
    const greedy = [];
    for (let k = 0; k < 4; k++) greedy.push(await fill(local.url, room, '127.0.3.1', k));
    expect(greedy.every((g) => g.error.code === 'over-quota' && /one address/.test(g.error.message))).toBe(true);
    expect(local.server.hub.bytesOf('127.0.3.1')).toBeLessThanOrEqual(50_000);
    expect(local.server.hub.bytesOf('127.0.3.1')).toBeGreaterThan(40_000);
    // An honest student of the same room, and a new class's first event.
    const honest = await joinRoom(local.url, room);
    honest.client.send({ t: 'event', seq: 0, event: syntheticRun(spec, honest.seat.seat.seed ?? 0)[0] });
    expect((await honest.client.waitFor('ack')).seq).toBe(0);
    const other = await createRoom(local.url, { spec });
    const student = await joinRoom(local.url, other.room);
    student.client.send({ t: 'event', seq: 0, event: syntheticRun(spec, student.seat.seat.seed ?? 0)[0] });
    expect((await student.client.waitFor('ack')).seq).toBe(0);
    // The count is kept across a restart (each seat remembers the address that took it), read
    // again from what the store holds: each seat record's rewrite counted at its last width, so
    // no less than before.
    const before = local.server.hub.bytesOf('127.0.3.1');
    await Promise.all([presenter, honest.client, other.presenter, student.client].map((c) => c.close()));
    await local.restart();
    expect(local.server.hub.bytesOf('127.0.3.1')).toBeGreaterThanOrEqual(before);
    expect(local.server.hub.bytesOf('127.0.3.1')).toBeLessThan(before * 1.02);
  });

  it('counts at least what the data directory holds', async () => {
    local = await startLocalServer();
    const { presenter, room } = await createRoom(local.url, { spec });
    const empty = dirBytes(local.dataDir);
    for (let k = 0; k < 3; k++) {
      const s = await joinRoom(local.url, room);
      const run = syntheticRun(spec, s.seat.seat.seed ?? 0).map(streamedEvent);
      run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
      await s.client.waitFor('ack', (a) => a.seq === run.length - 1);
      await s.client.close();
    }
    await presenter.close();
    const counted = local.server.hub.bytes;
    await local.server.close();
    const held = dirBytes(local.dataDir) - empty;
    expect(counted).toBeGreaterThan(100_000);
    expect(held).toBeLessThanOrEqual(counted);
  });
});
