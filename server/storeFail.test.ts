// A failed store write: each write the hub makes (create, a new seat, an event, an
// exchange, lock, start/close, remove-seat) is made to fail once at the store's boundary (the
// real LevelDB store of a real server, one method made to throw). The client is told in words,
// the room in memory is as it was, the server goes on, the same operation succeeds once the store
// works again, and a restart on the same data directory holds exactly what was acknowledged.
// The error's code is `server-error` (the page retries it; src/room/storeRetry.test.ts); a full
// disk (ENOSPC) is `over-quota` to the presenter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION, type RoomInfo } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, shapedAnswers, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import type { RoomStore } from './store';

type Write = 'putRoom' | 'putSeat' | 'appendEvent' | 'putExchange' | 'deleteSeat';

const ioError = () => Object.assign(new Error('IO error: simulated failed write'), { code: 'LEVEL_IO_ERROR' });
const diskFull = () => Object.assign(new Error('IO error: /data/000003.log: No space left on device'), { code: 'LEVEL_IO_ERROR' });

/** The store's next `method` call throws `error` (nothing is written); later calls work. */
function failNext(store: RoomStore, method: Write, error: () => Error = ioError): () => boolean {
  const real = store[method] as (...a: unknown[]) => Promise<void>;
  let failed = false;
  (store as unknown as Record<Write, unknown>)[method] = () => {
    (store as unknown as Record<Write, unknown>)[method] = real;
    failed = true;
    return Promise.reject(error());
  };
  return () => failed;
}

let local: LocalServer;
const logs: string[] = [];
beforeAll(async () => {
  local = await startLocalServer({ roomDebounceMs: 10, seatGraceMs: 60_000, log: (l) => logs.push(l) });
});
afterAll(() => local.dispose());

const run = syntheticRun(presetSpec('quick'), 1);
const info = (room: string): RoomInfo => local.server.hub.room(room)!.info();

describe('a failed store write', () => {
  it('create: the presenter is told, no room is held, the server goes on, and a second create works', async () => {
    const rooms = local.server.hub.roomCount;
    const failed = failNext(local.server.store, 'putRoom');
    const p = await RoomClient.connect(local.url);
    p.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'Class', preset: null, spec: presetSpec('quick'), baseSeed: 1, pairing: false });
    const err = await p.waitFor('error');
    expect(failed()).toBe(true);
    expect(err.code).toBe('server-error');
    expect(err.message).toMatch(/could not store/);
    expect(local.server.hub.roomCount).toBe(rooms);
    await p.closed;
    const again = await createRoom(local.url);
    expect(local.server.hub.room(again.room)).not.toBeNull();
    await again.presenter.close();
  });

  it('join, event, lock, start, remove-seat: memory unchanged on each failure, the retry works, and a restart holds what was acknowledged', async () => {
    const { presenter, room, key } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);

    // A new seat: refused in words, no seat held in memory (no gap), then taken at index 2.
    let before = info(room);
    failNext(local.server.store, 'putSeat');
    const c = await RoomClient.connect(local.url);
    c.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    expect(await c.waitFor('error')).toMatchObject({ code: 'server-error', message: expect.stringMatching(/could not store/) });
    expect(info(room)).toEqual(before);
    const c2 = await joinRoom(local.url, room);
    expect(c2.seat.seat.index).toBe(2);

    // An event: not acknowledged, the seat's count as before; after a rejoin it is stored.
    a.client.send({ t: 'event', seq: 0, event: run[0] });
    await a.client.waitFor('ack');
    before = info(room);
    failNext(local.server.store, 'appendEvent');
    a.client.send({ t: 'event', seq: 1, event: run[1] });
    expect(await a.client.waitFor('error')).toMatchObject({ code: 'server-error', message: expect.stringMatching(/could not store/) });
    expect(a.client.messages.some((m) => m.t === 'ack' && m.seq === 1)).toBe(false);
    expect(info(room).seats[0].events).toBe(1);
    expect(info(room).seats.map((s) => ({ ...s, connected: true }))).toEqual(before.seats.map((s) => ({ ...s, connected: true })));
    const a2 = await joinRoom(local.url, room, { index: 0, token: a.seat.token });
    expect(a2.seat.stored).toBe(1);
    a2.client.send({ t: 'event', seq: 1, event: run[1] });
    await a2.client.waitFor('ack', (m) => m.seq === 1);

    // Lock and start: the presenter is told, the record as before, then both work.
    for (const [msg, changed] of [
      [{ t: 'lock', locked: true }, (r: RoomInfo) => r.locked],
      [{ t: 'start' }, (r: RoomInfo) => r.status === 'running'],
    ] as const) {
      const p = await RoomClient.connect(local.url);
      p.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
      await p.waitFor('room');
      before = info(room);
      failNext(local.server.store, 'putRoom');
      p.send(msg);
      expect((await p.waitFor('error')).message).toMatch(/could not store/);
      expect(info(room)).toEqual(before);
      const q = await RoomClient.connect(local.url);
      q.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
      await q.waitFor('room');
      q.send(msg);
      await q.waitFor('room', (m) => changed(m.room));
      await Promise.all([p.close(), q.close()]);
    }

    // Remove a seat: the student is not told its seat was removed (it was not), and stays seated.
    b.client.send({ t: 'event', seq: 0, event: run[0] });
    await b.client.waitFor('ack');
    const p = await RoomClient.connect(local.url);
    p.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    await p.waitFor('room');
    before = info(room);
    failNext(local.server.store, 'deleteSeat');
    p.send({ t: 'remove-seat', seat: 1 });
    expect((await p.waitFor('error')).message).toMatch(/could not store/);
    expect(info(room)).toEqual(before);
    expect(b.client.messages.some((m) => m.t === 'error')).toBe(false);
    b.client.send({ t: 'event', seq: 1, event: run[1] });
    await b.client.waitFor('ack', (m) => m.seq === 1);
    const p2 = await RoomClient.connect(local.url);
    p2.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    await p2.waitFor('room');
    p2.send({ t: 'remove-seat', seat: 1 });
    expect((await b.client.waitFor('error')).code).toBe('seat-removed');
    await p2.waitFor('room', (m) => m.room.seats.every((s) => s.index !== 1));

    // The server went on all along; a restart holds exactly what was acknowledged.
    const held = info(room).seats.map((s) => [s.index, s.events]);
    expect(held).toEqual([
      [0, 2],
      [2, 0],
    ]);
    await Promise.all([presenter, p, p2, a.client, a2.client, b.client, c, c2.client].map((x) => x.close()));
    await local.restart();
    expect(info(room).seats.map((s) => [s.index, s.events])).toEqual(held);
    expect(await local.server.store.countEvents(room, 0)).toBe(2);
    expect(await local.server.store.countEvents(room, 1)).toBe(0);
    expect(info(room)).toMatchObject({ locked: true, status: 'running' });
    // Unlocked, the next student takes the freed index 1 (no seat lost to a failed write).
    const p3 = await RoomClient.connect(local.url);
    p3.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    await p3.waitFor('room');
    p3.send({ t: 'lock', locked: false });
    await p3.waitFor('room', (m) => !m.room.locked);
    const d = await joinRoom(local.url, room);
    expect(d.seat.seat.index).toBe(1);
    await Promise.all([p3.close(), d.client.close()]);
  });

  it('exchange and close: nothing relayed or changed on a failure, then both work', async () => {
    const { presenter, room } = await createRoom(local.url, { pairing: true });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    failNext(local.server.store, 'putExchange');
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: shapedAnswers(presetSpec('quick'), 1) });
    expect((await a.client.waitFor('error')).message).toMatch(/could not store/);
    expect(b.client.messages.some((m) => m.t === 'exchange')).toBe(false);
    const a2 = await joinRoom(local.url, room, { index: 0, token: a.seat.token });
    a2.client.send({ t: 'exchange', step: 1, kind: 'train', answers: shapedAnswers(presetSpec('quick'), 1) });
    expect((await b.client.waitFor('exchange')).answers).toEqual(shapedAnswers(presetSpec('quick'), 1));

    const before = info(room);
    failNext(local.server.store, 'putRoom');
    presenter.send({ t: 'close' });
    expect((await presenter.waitFor('error')).message).toMatch(/could not store/);
    expect(info(room)).toEqual({ ...before, seats: before.seats.map((s, i) => ({ ...s, connected: info(room).seats[i].connected })) });
    expect(info(room).status).toBe('open');
    await Promise.all([presenter, a.client, a2.client, b.client].map((x) => x.close()));
  });
});

describe('a full disk', () => {
  it('is over-quota in words to the presenter, for its own write and for a student event, and the connection stays', async () => {
    const { presenter, room } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    failNext(local.server.store, 'appendEvent', diskFull);
    a.client.send({ t: 'event', seq: 0, event: run[0] });
    const toStudent = await a.client.waitFor('error');
    expect(toStudent.code).toBe('over-quota');
    const told = await presenter.waitFor('error');
    expect(told.code).toBe('over-quota');
    expect(told.message).toMatch(/disk is full/);
    expect(info(room).seats[0].events).toBe(0);
    a.client.send({ t: 'event', seq: 0, event: run[0] });
    await a.client.waitFor('ack');

    failNext(local.server.store, 'putRoom', diskFull);
    presenter.send({ t: 'lock', locked: true });
    const own = await presenter.waitFor('error', (m) => m !== told);
    expect(own.code).toBe('over-quota');
    expect(own.message).toMatch(/disk is full/);
    presenter.send({ t: 'lock', locked: true });
    await presenter.waitFor('room', (m) => m.room.locked);
    await Promise.all([presenter, a.client].map((x) => x.close()));
  });
});
