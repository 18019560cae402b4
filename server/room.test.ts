// The room server end to end: a real server on a free port and a temporary data directory, real
// `ws` clients. Rooms, presenters, seats, events, the students' feed and who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_LIMITS, ROOM_PROTOCOL_VERSION, streamedEvent } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';

let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ feedMs: 50, roomDebounceMs: 10 });
});
afterAll(() => local.dispose());

// Seat 0's run: its seed is the room's base seed (createRoom's 100), as its summary says.
const run = syntheticRun(presetSpec('quick'), 100);

describe('rooms and presenters', () => {
  it('creates a room with fresh secrets and lets only the key present it', async () => {
    const { presenter, room, key } = await createRoom(local.url, { name: 'Period 3' });
    expect(room).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(key).not.toBe(room);
    const info = await presenter.waitFor('room');
    expect(info.room).toMatchObject({ id: room, name: 'Period 3', status: 'open', pairing: false, seats: [] });

    const other = await RoomClient.connect(local.url);
    other.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key: room });
    expect((await other.waitFor('error')).code).toBe('not-allowed');
    const again = await RoomClient.connect(local.url);
    again.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    expect((await again.waitFor('room')).room.id).toBe(room);
    const nowhere = await RoomClient.connect(local.url);
    nowhere.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room: 'A'.repeat(22), key });
    expect((await nowhere.waitFor('error')).code).toBe('no-such-room');
    await Promise.all([presenter, other, again, nowhere].map((c) => c.close()));
  });

  it('refuses a paired room for an experiment without a two-member peer arm, and a base seed that overflows', async () => {
    const c = await RoomClient.connect(local.url);
    const spec = presetSpec('quick');
    const noPeer = { ...spec, arms: spec.arms.filter((a) => a.scheme !== 'peer') };
    c.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'x', preset: null, spec: noPeer, baseSeed: 1, pairing: true });
    const e = await c.waitFor('error');
    expect(e.code).toBe('bad-message');
    expect(e.message).toMatch(/peer reward and two members/);
    c.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'x', preset: null, spec, baseSeed: 2 ** 31 - 2, pairing: false });
    expect((await c.waitFor('error', (m) => /base seed/.test(m.message))).code).toBe('bad-message');
    await c.close();
  });
});

describe('seats', () => {
  it('seats students in join order with seeds baseSeed + index and lets a token rejoin its seat', async () => {
    const { presenter, room } = await createRoom(local.url, { baseSeed: 500 });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    const c = await joinRoom(local.url, room);
    expect([a, b, c].map((j) => j.seat.seat.index)).toEqual([0, 1, 2]);
    expect([a, b, c].map((j) => j.seat.seat.seed)).toEqual([500, 501, 502]);
    expect(new Set([a, b, c].map((j) => j.seat.token)).size).toBe(3);
    expect(a.seat.seat.member).toBeNull();
    expect(a.seat.stored).toBe(0);
    expect((await a.client.waitFor('room')).room.seats.length).toBeGreaterThanOrEqual(1);
    // The presenter sees the three seats (debounced broadcasts).
    await presenter.waitFor('room', (m) => m.room.seats.length === 3 && m.room.seats.every((s) => s.connected));

    b.client.send({ t: 'event', seq: 0, event: run[0] });
    await b.client.waitFor('ack');
    await b.client.close();
    await presenter.waitFor('room', (m) => m.room.seats[1]?.connected === false);
    const back = await joinRoom(local.url, room, { index: 1, token: b.seat.token });
    expect(back.seat.seat).toMatchObject({ index: 1, seed: 501, connected: true, events: 1 });
    expect(back.seat.stored).toBe(1);
    expect(back.seat.token).toBe(b.seat.token);

    const wrong = await RoomClient.connect(local.url);
    wrong.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: { index: 1, token: a.seat.token } });
    expect((await wrong.waitFor('error')).code).toBe('bad-seat');
    wrong.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: { index: 9, token: a.seat.token } });
    expect((await wrong.waitFor('error', (m) => /seat 9/.test(m.message))).code).toBe('bad-seat');
    await Promise.all([presenter, a.client, back.client, c.client, wrong].map((x) => x.close()));
  });

  it('refuses a second tab of a seat with seat-in-use, and gives the seat to a tab that takes it over', async () => {
    const { presenter, room } = await createRoom(local.url);
    const first = await joinRoom(local.url, room);
    const claim = { index: 0, token: first.seat.token };
    // A second tab: refused, and the first keeps the seat (no flapping).
    const second = await RoomClient.connect(local.url);
    second.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: claim });
    expect((await second.waitFor('error')).code).toBe('seat-in-use');
    first.client.send({ t: 'event', seq: 0, event: run[0] });
    expect((await first.client.waitFor('ack')).seq).toBe(0);
    // The student chooses the second tab: the first is told and closed with 4001.
    const third = await RoomClient.connect(local.url);
    third.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: claim, takeover: true });
    expect((await third.waitFor('seat')).stored).toBe(1);
    expect((await first.client.waitFor('error')).code).toBe('seat-in-use');
    expect((await first.client.closed).code).toBe(4001);
    third.send({ t: 'event', seq: 1, event: run[1] });
    expect((await third.waitFor('ack')).seq).toBe(1);
    await Promise.all([presenter.close(), second.close(), third.close()]);
  });

  it('says when the room is full', async () => {
    const { presenter, room } = await createRoom(local.url, { check: false });
    const students: RoomClient[] = [];
    // Not checked by the page's parser: 200 students each parsing every room broadcast is slow.
    for (let i = 0; i < ROOM_LIMITS.seats; i++) students.push((await joinRoom(local.url, room, null, { check: false })).client);
    const late = await RoomClient.connect(local.url);
    late.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    expect((await late.waitFor('error')).code).toBe('room-full');
    await Promise.all([presenter, late, ...students].map((c) => c.close()));
  });
});

describe('who may do what', () => {
  it('lets only the presenter start and close the room; a closed room takes no seat and no event', async () => {
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    s.client.send({ t: 'start' });
    expect((await s.client.waitFor('error')).code).toBe('not-allowed');
    s.client.send({ t: 'close' });
    expect((await s.client.waitFor('error', (m) => /close/.test(m.message))).code).toBe('not-allowed');
    const stranger = await RoomClient.connect(local.url);
    stranger.send({ t: 'start' });
    expect((await stranger.waitFor('error')).code).toBe('not-allowed');
    stranger.send({ t: 'event', seq: 0, event: run[0] });
    expect((await stranger.waitFor('error', (m) => /join the room first/.test(m.message))).code).toBe('not-allowed');

    presenter.send({ t: 'start' });
    await s.client.waitFor('room', (m) => m.room.status === 'running');
    presenter.send({ t: 'close' });
    await s.client.waitFor('room', (m) => m.room.status === 'closed');
    s.client.send({ t: 'event', seq: 0, event: run[0] });
    expect((await s.client.waitFor('error', (m) => m.code === 'room-closed')).message).toMatch(/closed/);
    const late = await RoomClient.connect(local.url);
    late.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    expect((await late.waitFor('error')).code).toBe('room-closed');
    await Promise.all([presenter, s.client, stranger, late].map((c) => c.close()));
  });
});

describe('events', () => {
  it('stores events in order, acks a duplicate without storing it again, refuses a gap', async () => {
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    s.client.send({ t: 'event', seq: 0, event: run[0] });
    s.client.send({ t: 'event', seq: 1, event: run[1] });
    await s.client.waitFor('ack', (m) => m.seq === 1);
    s.client.send({ t: 'event', seq: 0, event: run[0] });
    const n = s.client.messages.length;
    await s.client.waitFor('ack', (m) => m.seq === 0, { after: n });
    s.client.send({ t: 'event', seq: 3, event: run[3] });
    const gap = await s.client.waitFor('error');
    expect(gap.code).toBe('out-of-order');
    expect(gap.message).toMatch(/from 2 on/);
    expect(await local.server.store.countEvents(room, 0)).toBe(2);

    // The presenter got each stored event once, numbered.
    await presenter.waitFor('events', (m) => m.from === 1);
    const got = presenter.messages.filter((m) => m.t === 'events');
    expect(got.map((m) => [m.seat, m.from, m.events.length])).toEqual([
      [0, 0, 1],
      [0, 1, 1],
    ]);
    expect(got[1].t === 'events' && got[1].events[0]).toEqual(run[1]);
    await Promise.all([presenter.close(), s.client.close()]);
  });

  it('sends a presenter who arrives later the whole room, seat by seat, then the live events', async () => {
    const { presenter, room, key } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    for (let i = 0; i < 3; i++) a.client.send({ t: 'event', seq: i, event: run[i] });
    b.client.send({ t: 'event', seq: 0, event: run[0] });
    await a.client.waitFor('ack', (m) => m.seq === 2);
    await b.client.waitFor('ack');
    const late = await RoomClient.connect(local.url);
    late.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    await late.waitFor('events', (m) => m.seat === 1);
    b.client.send({ t: 'event', seq: 1, event: run[1] });
    await late.waitFor('events', (m) => m.seat === 1 && m.from === 1);
    const evs = late.messages.filter((m) => m.t === 'events');
    expect(evs.map((m) => [m.seat, m.from, m.events.length])).toEqual([
      [0, 0, 3],
      [1, 0, 1],
      [1, 1, 1],
    ]);
    expect(late.messages[0].t).toBe('room');
    await Promise.all([presenter, a.client, b.client, late].map((c) => c.close()));
  });

  it("sends students the class's events in batches, without their own", async () => {
    const { presenter, room } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    const runB = syntheticRun(presetSpec('quick'), 101); // seat 1's seed
    for (let i = 0; i < runB.length; i++) b.client.send({ t: 'event', seq: i, event: runB[i] });
    await b.client.waitFor('ack', (m) => m.seq === runB.length - 1);
    a.client.send({ t: 'event', seq: 0, event: run[0] });
    await a.client.waitFor('ack');
    // Every event of seat 1 reaches seat 0, in batches that continue each other.
    await a.client.waitFor('events', (m) => m.seat === 1 && m.from + m.events.length === run.length);
    const batches = a.client.messages.filter((m) => m.t === 'events');
    expect(batches.every((m) => m.seat === 1)).toBe(true);
    let next = 0;
    for (const m of batches) {
      if (m.t !== 'events') continue;
      expect(m.from).toBe(next);
      next += m.events.length;
    }
    expect(batches.length).toBeLessThan(run.length);
    // Seat 1 gets seat 0's one event, never its own.
    await b.client.waitFor('events', (m) => m.seat === 0);
    expect(b.client.messages.some((m) => m.t === 'events' && m.seat === 1)).toBe(false);
    await Promise.all([presenter, a.client, b.client].map((c) => c.close()));
  });

  it('stores a done event without its summary histories, and refuses events after it', async () => {
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
    await s.client.waitFor('ack', (m) => m.seq === run.length - 1);
    const done = run[run.length - 1];
    expect(done.type === 'done' && done.summary.arms[0].members[0].history.length).toBeGreaterThan(0);
    const [stored] = await local.server.store.readEvents(room, 0, run.length - 1, run.length);
    expect(JSON.parse(stored)).toEqual(streamedEvent(done));
    const info = await presenter.waitFor('room', (m) => m.room.seats[0]?.done === true);
    expect(info.room.seats[0]).toMatchObject({ events: run.length, lastStep: run.length - 2 });
    s.client.send({ t: 'event', seq: run.length, event: run[1] });
    expect((await s.client.waitFor('error')).message).toMatch(/has ended/);
    await Promise.all([presenter.close(), s.client.close()]);
  });

  it("refuses an event that no run of the room's experiment makes, and tells the presenter which seat sent it", async () => {
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    s.client.send({ t: 'event', seq: 0, event: run[1] }); // a step before the base evaluation
    expect((await s.client.waitFor('error')).message).toMatch(/Event 0 was not stored: A run starts with its base evaluation/);
    expect((await presenter.waitFor('error')).message).toMatch(/^Seat 0's event 0 was refused and not shown/);
    expect(await local.server.store.countEvents(room, 0)).toBe(0);
    await Promise.all([presenter.close(), s.client.close()]);
  });

  it('answers ping with pong', async () => {
    const c = await RoomClient.connect(local.url);
    c.send({ t: 'ping' });
    await c.waitFor('pong');
    await c.close();
  });
});
