// The teacher's controls and the seat budgets: lock, remove a seat (its index taken
// again with its seed, its data gone, a paired partner's answers replayed to the newcomer), seats
// of students who left before Start freed, events and answers only within the spec, answers never
// rewritten, the `addresses` frame, a handshake timeout, and the over-quota error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, shapedAnswers, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import { seatTrainSpec } from '../src/room/levels';

let local: LocalServer;
beforeAll(async () => {
  // The default handshake time (10 s): a 0.3 s one timed out honest joins of a loaded machine. The
  // handshake test has a server of its own with 0.3 s.
  local = await startLocalServer({ roomDebounceMs: 10, seatGraceMs: 200 });
});
afterAll(() => local.dispose());

const run = syntheticRun(presetSpec('quick'), 1);
// Answers of the shape the partner's page reads (the server refuses any other); quick's by default.
const answers = (n: number, spec = presetSpec('quick')) => shapedAnswers(spec, n);

describe('lock', () => {
  it('refuses new seats while locked, lets a seat rejoin, and keeps the lock across a restart', async () => {
    const { presenter, room, key } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    a.client.send({ t: 'event', seq: 0, event: run[0] });
    await a.client.waitFor('ack');
    presenter.send({ t: 'lock', locked: true });
    await presenter.waitFor('room', (m) => m.room.locked);
    const late = await RoomClient.connect(local.url);
    late.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    expect((await late.waitFor('error')).code).toBe('room-locked');
    await a.client.close();
    const back = await joinRoom(local.url, room, { index: 0, token: a.seat.token });
    expect(back.seat.stored).toBe(1);
    // A student may not lock.
    back.client.send({ t: 'lock', locked: false });
    expect((await back.client.waitFor('error')).code).toBe('not-allowed');
    await Promise.all([presenter, late, back.client].map((c) => c.close()));

    await local.restart();
    const p = await RoomClient.connect(local.url);
    p.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
    expect((await p.waitFor('room')).room.locked).toBe(true);
    p.send({ t: 'lock', locked: false });
    await p.waitFor('room', (m) => !m.room.locked);
    const now = await joinRoom(local.url, room);
    expect(now.seat.seat.index).toBe(1);
    await Promise.all([p, now.client].map((c) => c.close()));
  });
});

describe('remove a seat', () => {
  it("disconnects its student with seat-removed, deletes its data, and gives its index (and seed) to the next student", async () => {
    const { presenter, room } = await createRoom(local.url, { baseSeed: 40 });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    for (let i = 0; i < 3; i++) b.client.send({ t: 'event', seq: i, event: run[i] });
    await b.client.waitFor('ack', (m) => m.seq === 2);
    const after = presenter.messages.length;
    presenter.send({ t: 'remove-seat', seat: 1 });
    expect((await b.client.waitFor('error')).code).toBe('seat-removed');
    expect((await b.client.closed).code).toBe(4003);
    const info = await presenter.waitFor('room', (m) => m.room.seats.length === 1, { after });
    expect(info.room.seats.map((s) => s.index)).toEqual([0]);
    expect(await local.server.store.countEvents(room, 1)).toBe(0);
    // Its token no longer holds a seat.
    const old = await RoomClient.connect(local.url);
    old.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: { index: 1, token: b.seat.token } });
    expect((await old.waitFor('error')).code).toBe('bad-seat');
    const c = await joinRoom(local.url, room);
    expect(c.seat.seat).toMatchObject({ index: 1, seed: 41, events: 0 });
    expect(c.seat.stored).toBe(0);
    c.client.send({ t: 'event', seq: 0, event: run[0] });
    await presenter.waitFor('events', (m) => m.seat === 1 && m.from === 0 && m.events[0].type === 'base', { after: presenter.messages.indexOf(info) });
    // Only the presenter removes; a seat that is not there is said so.
    a.client.send({ t: 'remove-seat', seat: 0 });
    expect((await a.client.waitFor('error')).code).toBe('not-allowed');
    presenter.send({ t: 'remove-seat', seat: 7 });
    expect((await presenter.waitFor('error')).code).toBe('bad-seat');
    await Promise.all([presenter, a.client, c.client, old].map((x) => x.close()));
  });

  it("in a paired room, the newcomer on a freed seat gets its partner's answers, and the freed seat's answers are gone", async () => {
    const { presenter, room } = await createRoom(local.url, { pairing: true });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    await b.client.waitFor('exchange');
    b.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(2) });
    await a.client.waitFor('exchange');
    const after = presenter.messages.length;
    presenter.send({ t: 'remove-seat', seat: 1 });
    await b.client.closed;
    // The room goes out once the store has deleted the seat.
    await presenter.waitFor('room', (m) => m.room.seats.length === 1, { after });
    expect(await local.server.store.readExchanges(room, 1)).toEqual([]);
    const c = await joinRoom(local.url, room);
    expect(c.seat.seat).toMatchObject({ index: 1, member: b.seat.seat.member, seed: b.seat.seat.seed, partner: 0 });
    expect((await c.client.waitFor('exchange')).answers).toEqual(answers(1));
    await Promise.all([presenter, a.client, c.client].map((x) => x.close()));
  });
});

describe('seats of students who left before Start', () => {
  it('are freed after the grace period; one that came back in time, or a started room, keeps its seat', async () => {
    const { presenter, room } = await createRoom(local.url);
    const gone = await joinRoom(local.url, room);
    const reload = await joinRoom(local.url, room);
    await Promise.all([gone.client.close(), reload.client.close()]);
    const back = await joinRoom(local.url, room, { index: 1, token: reload.seat.token });
    await presenter.waitFor('room', (m) => m.room.seats.map((s) => s.index).join() === '1');
    const next = await joinRoom(local.url, room);
    expect(next.seat.seat.index).toBe(0);
    presenter.send({ t: 'start' });
    await presenter.waitFor('room', (m) => m.room.status === 'running');
    await next.client.close();
    await new Promise((r) => setTimeout(r, 400));
    expect(local.server.hub.room(room)!.seats[0]).not.toBeNull();
    await Promise.all([presenter, back.client].map((x) => x.close()));
  });
});

describe('seat budgets', () => {
  it("takes events only up to the spec's steps, and answers only for its steps, once", async () => {
    const spec = { ...presetSpec('peers-learn'), steps: 3 };
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    // Seat 0's own run (member A of the peer arm), of a longer experiment.
    const long = syntheticRun(seatTrainSpec(presetSpec('peers-learn'), a.seat.seat), 2);
    a.client.send({ t: 'event', seq: 0, event: long[0] });
    a.client.send({ t: 'event', seq: 1, event: long[5] });
    expect((await a.client.waitFor('error')).message).toMatch(/has 3 steps: this event is of step 5/);
    a.client.send({ t: 'exchange', step: 4, kind: 'train', answers: answers(1, spec) });
    expect((await a.client.waitFor('error', (m) => /no answers of step 4/.test(m.message))).code).toBe('not-allowed');
    a.client.send({ t: 'exchange', step: 3, kind: 'train', answers: answers(1, spec) });
    a.client.send({ t: 'exchange', step: 3, kind: 'train', answers: answers(9, spec) });
    a.client.send({ t: 'ping' });
    await a.client.waitFor('pong');
    expect(b.client.messages.filter((m) => m.t === 'exchange').map((m) => m.t === 'exchange' && m.answers)).toEqual([answers(1, spec)]);
    expect((await local.server.store.readExchanges(room, 0)).map((x) => JSON.parse(x).answers)).toEqual([answers(1, spec)]);
    await Promise.all([presenter, a.client, b.client].map((x) => x.close()));
  });
});

describe('connections', () => {
  it('sends a presenter the addresses to give the class, and times out a connection that does nothing', async () => {
    const quick = await startLocalServer({ limits: { handshakeMs: 300 } });
    try {
      const { presenter } = await createRoom(quick.url);
      // Bound to 127.0.0.1: no other device reaches it, so no address is offered.
      expect((await presenter.waitFor('addresses')).origins).toEqual([]);
      const idle = await RoomClient.connect(quick.url);
      // The error and the close come together: read both once the socket has closed (waiting for the
      // error first lost the race on a loaded machine, the close arriving before the wait began).
      expect((await idle.closed).code).toBe(4008);
      expect(idle.messages.filter((m) => m.t === 'error').map((m) => m.t === 'error' && m.code)).toEqual(['timeout']);
      await presenter.close();
    } finally {
      await quick.dispose();
    }
  });

  it('says over-quota to a student and to the presenter when the disk quota is spent', async () => {
    // One address stores at most a quarter of the quota: students of several devices fill it.
    const small = await startLocalServer({ limits: { diskBytes: 40_000 } });
    try {
      const { presenter, room } = await createRoom(small.url);
      const codes: string[] = [];
      for (let k = 0; k < 12; k++) {
        const s = await joinRoom(small.url, room);
        run.forEach((e, i) => s.client.send({ t: 'event', seq: i, event: e }));
        const e = await s.client.waitFor('error');
        codes.push(e.message.includes('disk quota') ? 'disk' : e.message.includes('one address') ? 'address' : e.code);
        await s.client.close();
        if (codes.at(-1) === 'disk') break;
      }
      expect(codes.at(-1)).toBe('disk');
      expect(codes.slice(0, -1).every((c) => c === 'address')).toBe(true);
      expect((await presenter.waitFor('error')).message).toMatch(/disk quota/);
      expect(small.server.hub.bytes).toBeLessThanOrEqual(40_000);
      await presenter.close();
    } finally {
      await small.dispose();
    }
  });
});
