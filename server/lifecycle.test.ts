// A room's life beyond one server process: a restart on the same data directory loses nothing
// (rooms, seats and their tokens, events, exchanges, the status), and an expired room is refused
// and then deleted with everything in it.
import { afterEach, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION } from '../src/room/protocol';
import { createRoom, gateRoomWrites, joinRoom, presetSpec, secondPresenter, shapedAnswers, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import { seatTrainSpec } from '../src/room/levels';

const run = syntheticRun(presetSpec('quick'), 3);
let local: LocalServer | null = null;
afterEach(async () => {
  await local?.dispose();
  local = null;
});

describe('restart', () => {
  it('keeps rooms, seats, tokens, events, exchanges and the status across a restart', async () => {
    local = await startLocalServer({ feedMs: 50, roomDebounceMs: 10 });
    const { presenter, room, key } = await createRoom(local.url, { pairing: true, baseSeed: 40 });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    // Started with both seated (a seat alone at the start would train both members itself).
    presenter.send({ t: 'start' });
    await presenter.waitFor('room', (m) => m.room.status === 'running');
    // Each seat's own run: its member of the peer arm.
    const runA = syntheticRun(seatTrainSpec(presetSpec('quick'), a.seat.seat), 3);
    const runB = syntheticRun(seatTrainSpec(presetSpec('quick'), b.seat.seat), 3);
    for (let i = 0; i < 4; i++) a.client.send({ t: 'event', seq: i, event: runA[i] });
    b.client.send({ t: 'event', seq: 0, event: runB[0] });
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: shapedAnswers(presetSpec('quick'), 3) });
    await a.client.waitFor('ack', (m) => m.seq === 3);
    await b.client.waitFor('exchange');
    await b.client.waitFor('ack');

    await local.restart();
    for (const c of [presenter, a.client, b.client]) expect((await c.closed).code).toBe(1001);

    // The presenter comes back with its key and gets the whole room as it was.
    const p2 = await RoomClient.connect(local.url);
    p2.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    const info = (await p2.waitFor('room')).room;
    expect(info.status).toBe('running');
    expect(info.seats.map((s) => [s.index, s.seed, s.member, s.events, s.connected])).toEqual([
      [0, 40, 'A', 4, false],
      [1, 40, 'B', 1, false],
    ]);
    await p2.waitFor('events', (m) => m.seat === 1);
    const snapshot = p2.messages.filter((m) => m.t === 'events');
    expect(snapshot.map((m) => m.t === 'events' && [m.seat, m.from, m.events.length])).toEqual([
      [0, 0, 4],
      [1, 0, 1],
    ]);
    expect(snapshot[0].t === 'events' && snapshot[0].events).toEqual(runA.slice(0, 4));

    // The students rejoin with their tokens and go on where the room's count says.
    const a2 = await joinRoom(local.url, room, { index: 0, token: a.seat.token });
    expect(a2.seat.stored).toBe(4);
    a2.client.send({ t: 'event', seq: 4, event: runA[4] });
    expect((await a2.client.waitFor('ack')).seq).toBe(4);
    const b2 = await joinRoom(local.url, room, { index: 1, token: b.seat.token });
    expect((await b2.client.waitFor('exchange')).answers).toEqual(shapedAnswers(presetSpec('quick'), 3));
    // A wrong token is still refused, and a newcomer gets the next seat.
    const c = await RoomClient.connect(local.url);
    c.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: { index: 0, token: b.seat.token } });
    expect((await c.waitFor('error')).code).toBe('bad-seat');
    const d = await joinRoom(local.url, room);
    expect(d.seat.seat).toMatchObject({ index: 2, seed: 41, member: 'A' });
    expect(await local.server.store.countEvents(room, 0)).toBe(5);
    await Promise.all([p2, a2.client, b2.client, c, d.client].map((x) => x.close()));
  });
});

describe('expiry', () => {
  it('refuses an expired room at once and deletes it and its data at the sweep', async () => {
    let clock = Date.now();
    local = await startLocalServer({ now: () => clock, ttlHours: 1, roomDebounceMs: 10 });
    const { presenter, room, key } = await createRoom(local.url);
    expect((await presenter.waitFor('room')).room.expiresAt).toBe(clock + 3600_000);
    const s = await joinRoom(local.url, room);
    s.client.send({ t: 'event', seq: 0, event: run[0] });
    await s.client.waitFor('ack');
    const sameAge = await createRoom(local.url);

    clock += 3600_000;
    const late = await RoomClient.connect(local.url);
    late.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    expect((await late.waitFor('error')).code).toBe('no-such-room');
    s.client.send({ t: 'event', seq: 1, event: run[1] });
    expect((await s.client.waitFor('error')).code).toBe('no-such-room');

    // sameAge was created at the same time and expires too; one created later does not.
    clock -= 1;
    const fresh = await createRoom(local.url);
    clock += 1;
    expect(await local.server.hub.sweep()).toBe(2);
    expect((await presenter.closed).code).toBe(4004);
    expect((await s.client.closed).code).toBe(4004);
    expect(await local.server.store.countEvents(room, 0)).toBe(0);
    const stored = await local.server.store.loadAll();
    expect(stored.map((r) => r.room.id)).toEqual([fresh.room]);
    const again = await RoomClient.connect(local.url);
    again.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    expect((await again.waitFor('error')).code).toBe('no-such-room');
    await Promise.all([late, again, sameAge.presenter, fresh.presenter].map((x) => x.close()));
  });
});

describe("the presenter's room writes", () => {
  it("two presenter tabs' lock and start, both in flight, both stay (each is written on the record the other left)", async () => {
    local = await startLocalServer({ roomDebounceMs: 10 });
    const store = local.server.store;
    const { presenter, room, key } = await createRoom(local.url);
    const second = await secondPresenter(local.url, room, key);
    // Room writes wait on a gate, so the second tab's start arrives while the first tab's lock is in flight.
    let written = 0;
    let bothBack!: () => void;
    const both = new Promise<void>((r) => (bothBack = r));
    const { open, called } = gateRoomWrites(store, { after: () => ++written === 2 && bothBack() });
    presenter.send({ t: 'lock', locked: true });
    await called;
    second.send({ t: 'start' });
    await new Promise((r) => setTimeout(r, 50));
    open();
    await both;
    const [stored] = await store.loadAll();
    expect([stored.room.status, stored.room.locked]).toEqual(['running', true]);
    expect(local.server.hub.room(room)?.record).toMatchObject({ status: 'running', locked: true });
    await second.waitFor('room', (m) => m.room.status === 'running' && m.room.locked);
    await Promise.all([presenter, second].map((x) => x.close()));
  });
});
