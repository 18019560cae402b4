/**
 * Class mode's client (client.ts) against a fake WebSocket: hellos on every reconnect with backoff,
 * the student's stream resent from the server's `stored` count (nothing lost, nothing twice),
 * bad frames counted and ignored, the secrets kept by server and room id (and sent to no other
 * server), one seat in two tabs, the presenter's controls, and the exchange waiters.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_CAP_MS, BACKOFF_MS, PING_MS, RoomConnection, type RoomClientEvent } from './client';
import { EVENT_WINDOW } from './seatOutbox';
import { legacySecretsKey, readSecrets, secretsKey, writeSecrets } from './secrets';
import { streamedEvent, type SeatEvent } from './protocol';
import { KEY, ROOM_ID, TOKEN, TOKEN2, memoryStorage, roomInfo, roomSpec, runEvents, seatInfo, socketFactory } from './fakeSocket.testkit';

const URL = 'ws://127.0.0.1:8787/room';
const ORIGIN = 'ws://127.0.0.1:8787';
const ATTACKER = 'ws://127.0.0.2:9999/room';

function student(storage = memoryStorage(), url = URL) {
  const f = socketFactory();
  const events: RoomClientEvent[] = [];
  const c = new RoomConnection({ url, role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage, random: () => 0.5 });
  c.subscribe((e) => events.push(e));
  return { c, f, storage, events };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a student', () => {
  it('joins with no seat, keeps the token by server and room id, and rejoins the same seat after a drop', () => {
    const { c, f, storage } = student();
    expect(c.status).toBe('connecting');
    f.last.open();
    expect(f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: null }]);
    f.last.server({ t: 'seat', seat: seatInfo(3), token: TOKEN, stored: 0 });
    expect(c.status).toBe('online');
    expect(c.seat?.seed).toBe(103);
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({ seat: { index: 3, token: TOKEN } });
    expect([...storage.map.keys()]).toEqual([secretsKey(ORIGIN, ROOM_ID)]);

    f.last.drop();
    expect(c.status).toBe('offline');
    expect(f.sockets).toHaveLength(1);
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(2);
    f.last.open();
    // This tab held the seat: it takes it back from the server's stale connection of this tab.
    expect(f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: { index: 3, token: TOKEN }, takeover: true }]);
  });

  it('a new page with the stored token takes the same seat', () => {
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { seat: { index: 5, token: TOKEN2 } });
    const { f } = student(storage);
    f.last.open();
    // A new page does not take the seat from another tab unasked.
    expect(f.last.sent[0]).toEqual({ t: 'join', v: 1, room: ROOM_ID, seat: { index: 5, token: TOKEN2 } });
  });

  it('backs off exponentially up to the cap, and starts again from the first wait once online', () => {
    const { c, f } = student();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = f.sockets.length;
      f.last.drop();
      let t = 0;
      while (f.sockets.length === before) {
        vi.advanceTimersByTime(50);
        t += 50;
      }
      waits.push(t);
    }
    expect(waits.slice(0, 4)).toEqual([BACKOFF_MS, 2 * BACKOFF_MS, 4 * BACKOFF_MS, 8 * BACKOFF_MS]);
    expect(Math.max(...waits)).toBe(BACKOFF_CAP_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    expect(c.status).toBe('online');
    f.last.drop();
    const before = f.sockets.length;
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets.length).toBe(before + 1);
  });

  it('streams events numbered from 0 without rollout samples, queues them offline, and resends from `stored` after a rejoin', () => {
    const { c, f } = student();
    const run = runEvents(4);
    // Before any connection: kept.
    c.pushEvents(0, run.slice(0, 2));
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    const sent1 = f.last.of('event');
    expect(sent1.map((m) => m.seq)).toEqual([0, 1]);
    expect((sent1[1].event as { samples: unknown[] }).samples).toEqual([]);
    expect(run[1]).toMatchObject({ type: 'step' });
    expect((run[1] as { samples: unknown[] }).samples).toHaveLength(1); // the run's own record keeps them
    f.last.server({ t: 'ack', seq: 0 });
    // Lost before seq 1 was acked; steps 2 and 3 come while offline.
    f.last.drop();
    c.pushEvents(0, run.slice(0, 4));
    expect(c.heldEvents).toBe(4);
    vi.advanceTimersByTime(BACKOFF_MS);
    f.last.open();
    // The server did store seq 1 before the drop: it says so, and the client sends on from 2.
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 2 });
    expect(f.last.of('event').map((m) => m.seq)).toEqual([2, 3]);
    expect(c.ackedEvents).toBe(2);
    f.last.server({ t: 'ack', seq: 2 });
    f.last.server({ t: 'ack', seq: 3 });
    expect(c.ackedEvents).toBe(4);
  });

  it("sends a run's done without its per-step histories (a whole one outgrows a frame)", () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    const run = runEvents(4);
    const done = run.at(-1)!;
    expect(done.type === 'done' && done.summary.arms[0].members[0].history).toHaveLength(4);
    c.pushEvents(0, run);
    const sent = f.last.of('event').at(-1)!;
    expect(sent.seq).toBe(5);
    expect(sent.event).toEqual(streamedEvent(done as SeatEvent));
    expect(JSON.stringify(sent.event)).not.toContain('"history":[{');
    // The run's own record keeps its whole done.
    expect(done.type === 'done' && done.summary.arms[0].members[0].history).toHaveLength(4);
  });

  it('a resumed run posts events the server holds again: they are not sent twice', () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 3 });
    const run = runEvents(4);
    c.pushEvents(0, run.slice(0, 2)); // the reloaded page's saved run up to its checkpoint
    expect(f.last.of('event')).toEqual([]);
    c.pushEvents(2, run.slice(2)); // the resumed run: steps 2, 3, 4 and its end
    expect(f.last.of('event').map((m) => m.seq)).toEqual([3, 4, 5]);
    // The same positions once more (a 'recovered' run rebuilt from a checkpoint): nothing new.
    c.pushEvents(2, run.slice(2));
    expect(f.last.of('event')).toHaveLength(3);
    // A gap is refused rather than sent out of order.
    expect(c.pushEvents(9, run.slice(0, 1))).toBe(false);
    expect(c.heldEvents).toBe(6);
  });

  it('keeps at most EVENT_WINDOW events unacknowledged in flight', () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    const base = runEvents(0)[0];
    const steps = runEvents(roomSpec.steps).filter((e) => e.type === 'step');
    const many = [base, ...Array.from({ length: 60 }, (_, i) => ({ ...steps[0], step: i + 1 }))];
    c.pushEvents(0, many);
    expect(f.last.of('event')).toHaveLength(EVENT_WINDOW);
    f.last.server({ t: 'ack', seq: 9 });
    expect(f.last.of('event')).toHaveLength(EVENT_WINDOW + 10);
  });

  it('ignores and counts bad frames from the server, never throws', () => {
    const { c, f } = student();
    f.last.open();
    expect(() => {
      f.last.server('not json');
      f.last.server(JSON.stringify({ t: 'seat', seat: { index: -1 }, token: 'x', stored: 0 }));
      f.last.server(JSON.stringify({ t: 'surprise' }));
      f.last.onmessage?.({ data: new ArrayBuffer(2) });
      f.last.server('x'.repeat(300_000));
    }).not.toThrow();
    expect(c.badFrames).toBe(5);
    expect(c.status).toBe('connecting');
    expect(c.lastWarning).toMatch(/ignored/);
    // A good frame still works after them.
    f.last.server({ t: 'seat', seat: seatInfo(1), token: TOKEN, stored: 0 });
    expect(c.status).toBe('online');
  });

  it('a room that does not exist or closes ends the connection in words; no more reconnects', async () => {
    const { c, f } = student();
    f.last.open();
    // A paired seat waiting for its partner is told why it will not come, not left waiting.
    const waiting = c.partnerAnswers(1, 'train');
    f.last.server({ t: 'error', code: 'no-such-room', message: 'gone' });
    expect(c.status).toBe('closed');
    expect(c.error).toMatch(/no such room/);
    await expect(waiting).rejects.toThrow(/no such room/);
    vi.advanceTimersByTime(60_000);
    expect(f.sockets).toHaveLength(1);

    const b = student();
    b.f.last.open();
    b.f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    b.f.last.server({ t: 'room', room: roomInfo({ status: 'closed' }) });
    expect(b.c.status).toBe('closed');
    expect(b.c.error).toMatch(/closed/);
    b.f.last.drop();
    vi.advanceTimersByTime(60_000);
    expect(b.f.sockets).toHaveLength(1);
  });

  it('a seat token the server does not know: a fresh join, with the old token forgotten', () => {
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { seat: { index: 2, token: TOKEN } });
    const { f } = student(storage);
    f.last.open();
    f.last.server({ t: 'error', code: 'bad-seat', message: 'unknown token' });
    expect(f.last.sent.at(-1)).toEqual({ t: 'join', v: 1, room: ROOM_ID, seat: null });
    expect(readSecrets(storage, URL, ROOM_ID).seat).toBeUndefined();
  });

  it('a silent connection is pinged, then dropped and reconnected', () => {
    const { f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    vi.advanceTimersByTime(PING_MS);
    expect(f.last.of('ping')).toHaveLength(1);
    vi.advanceTimersByTime(PING_MS);
    expect(f.sockets[0].closed).toBe(true);
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(2);
  });

  it('a damaged secrets entry reads as none', () => {
    const storage = memoryStorage();
    storage.setItem(secretsKey(ORIGIN, ROOM_ID), '{"seat":{"index":1,"token":"<script>"}}');
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({});
    storage.setItem(secretsKey(ORIGIN, ROOM_ID), 'nope');
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({});
    expect(readSecrets(storage, 'https://127.0.0.1:8787/room', ROOM_ID)).toEqual({});
  });
});

describe('secrets stay with their server (issue 28, item 4)', () => {
  /** Everything a socket sent, as one string: no secret may be in it. */
  const wire = (f: ReturnType<typeof socketFactory>) => JSON.stringify(f.sockets.map((s) => s.sent));

  it("a link naming another server with a real room id gets neither the presenter's key nor a seat token", () => {
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { key: KEY, seat: { index: 1, token: TOKEN } });
    // As before this change, by room id alone too: the client never reads such an entry.
    storage.setItem(legacySecretsKey(ROOM_ID), JSON.stringify({ key: KEY, seat: { index: 1, token: TOKEN } }));

    const f = socketFactory();
    const p = new RoomConnection({ url: ATTACKER, role: { kind: 'presenter', room: ROOM_ID }, socket: f.make, storage });
    f.last.open();
    expect(p.status).toBe('closed');
    expect(p.error).toMatch(/does not hold the key/);

    const s = student(storage, ATTACKER);
    s.f.last.open();
    expect(s.f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: null }]);
    // The attacker hands out a seat: its token is kept for the attacker's server only.
    s.f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN2, stored: 0 });
    for (const text of [wire(f), wire(s.f)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(TOKEN);
    }
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({ key: KEY, seat: { index: 1, token: TOKEN } });
    expect(readSecrets(storage, ATTACKER, ROOM_ID)).toEqual({ seat: { index: 0, token: TOKEN2 } });
  });

  it('the same server at another path is the same server; another port or scheme is another', () => {
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { key: KEY });
    expect(readSecrets(storage, 'ws://127.0.0.1:8787/other', ROOM_ID)).toEqual({ key: KEY });
    expect(readSecrets(storage, 'ws://127.0.0.1:8788/room', ROOM_ID)).toEqual({});
    expect(readSecrets(storage, 'wss://127.0.0.1:8787/room', ROOM_ID)).toEqual({});
    expect(readSecrets(storage, 'not a url', ROOM_ID)).toEqual({});
  });
});

describe('one seat, two tabs (issue 28, item 5)', () => {
  it("a second tab of a seat says so and waits: no reconnect until its student chooses it, then it joins with takeover", () => {
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { seat: { index: 2, token: TOKEN } });
    const { c, f } = student(storage);
    f.last.open();
    f.last.server({ t: 'error', code: 'seat-in-use', message: 'This seat is open in another tab or window.' });
    expect(c.status).toBe('elsewhere');
    expect(c.error).toBe('This seat is open in another tab.');
    expect(f.last.closed).toBe(true);
    vi.advanceTimersByTime(10 * 60_000);
    expect(f.sockets).toHaveLength(1);
    // Its exchange waiters are kept for when it comes back.
    let answered = false;
    void c.partnerAnswers(1, 'train').then(() => (answered = true));

    expect(c.takeOver()).toBe(true);
    expect(f.sockets).toHaveLength(2);
    f.last.open();
    expect(f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: { index: 2, token: TOKEN }, takeover: true }]);
    f.last.server({ t: 'seat', seat: seatInfo(2), token: TOKEN, stored: 0 });
    expect(c.status).toBe('online');
    expect(c.takeOver()).toBe(false);
    f.last.server({ t: 'exchange', step: 1, kind: 'train', answers: [['3']] });
    return Promise.resolve().then(() => expect(answered).toBe(true));
  });

  it('the tab whose seat another tab took (close 4001) waits too, instead of taking it back', () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    // Without the server's word first: the close code alone.
    f.last.drop(4001);
    expect(c.status).toBe('elsewhere');
    expect(c.error).toBe('This seat is open in another tab.');
    vi.advanceTimersByTime(10 * 60_000);
    expect(f.sockets).toHaveLength(1);
    // Leave works from there.
    c.close();
    expect(c.status).toBe('closed');
    expect(c.takeOver()).toBe(false);
  });

  it('a seat the presenter removed is said in words, its token forgotten, and not joined again', () => {
    const { c, f, storage } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(4), token: TOKEN, stored: 0 });
    f.last.server({ t: 'error', code: 'seat-removed', message: 'This seat was freed: the presenter removed it.' });
    expect(c.status).toBe('closed');
    expect(c.error).toBe('The presenter removed this seat from the room.');
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({});
    f.last.drop(4003);
    vi.advanceTimersByTime(60_000);
    expect(f.sockets).toHaveLength(1);

    // The close code alone says the same.
    const b = student();
    b.f.last.open();
    b.f.last.server({ t: 'seat', seat: seatInfo(5), token: TOKEN2, stored: 0 });
    b.f.last.drop(4003);
    expect(b.c.status).toBe('closed');
    expect(b.c.error).toBe('The presenter removed this seat from the room.');
    vi.advanceTimersByTime(60_000);
    expect(b.f.sockets).toHaveLength(1);
  });

  it('a locked room refuses a new student in words', () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'error', code: 'room-locked', message: '' });
    expect(c.status).toBe('closed');
    expect(c.error).toBe('The presenter locked the room to new students.');
    vi.advanceTimersByTime(60_000);
    expect(f.sockets).toHaveLength(1);
  });
});

describe('paired seats: the exchange relay', () => {
  it('resolves a waiter from an arriving exchange, and from one stored before the waiter', async () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(1, { member: 'B', partner: 0 }), token: TOKEN, stored: 0 });
    const waiting = c.partnerAnswers(3, 'train');
    expect(c.waitingForPartner).toBe(true);
    f.last.server({ t: 'exchange', step: 3, kind: 'eval', answers: [['9']] });
    f.last.server({ t: 'exchange', step: 3, kind: 'train', answers: [['6', null]] });
    await expect(waiting).resolves.toEqual([['6', null]]);
    expect(c.waitingForPartner).toBe(false);
    // Stored before anyone asked: resolves at once, keyed by step and kind.
    await expect(c.partnerAnswers(3, 'eval')).resolves.toEqual([['9']]);
  });

  it("sends this seat's answers, and again after a rejoin; the partner's are kept for a resumed run that asks again", async () => {
    const { c, f } = student();
    c.sendExchange(1, 'train', [['5']]); // offline: kept
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: 1 }), token: TOKEN, stored: 0 });
    expect(f.last.of('exchange')).toEqual([{ t: 'exchange', step: 1, kind: 'train', answers: [['5']] }]);
    f.last.server({ t: 'exchange', step: 1, kind: 'train', answers: [['7']] });
    await expect(c.partnerAnswers(1, 'train')).resolves.toEqual([['7']]);
    f.last.drop();
    vi.advanceTimersByTime(BACKOFF_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: 1 }), token: TOKEN, stored: 0 });
    expect(f.last.of('exchange')).toHaveLength(1);
    // The server resends all the partner's stored exchanges: step 1 again (the same), step 2 new.
    f.last.server({ t: 'exchange', step: 1, kind: 'train', answers: [['7']] });
    f.last.server({ t: 'exchange', step: 2, kind: 'train', answers: [['8']] });
    await expect(c.partnerAnswers(2, 'train')).resolves.toEqual([['8']]);
    // A run resumed from its step-0 checkpoint asks for step 1 again: the same answers.
    await expect(c.partnerAnswers(1, 'train')).resolves.toEqual([['7']]);
    let third = false;
    void c.partnerAnswers(3, 'train').then(() => (third = true));
    await Promise.resolve();
    expect(third).toBe(false);
  });

  it('close() rejects the waiters', async () => {
    const { c } = student();
    const waiting = c.partnerAnswers(1, 'eval');
    c.close();
    await expect(waiting).rejects.toThrow(/closed/);
    expect(c.status).toBe('closed');
  });
});

describe('a presenter', () => {
  const create = { name: 'class', preset: 'quick', spec: roomSpec, baseSeed: 100, pairing: false };

  it('creates once, keeps the key by server and room id, and presents it on every reconnect', () => {
    const f = socketFactory();
    const storage = memoryStorage();
    const c = new RoomConnection({ url: URL, role: { kind: 'presenter', create }, socket: f.make, storage, random: () => 0.5 });
    const seen: RoomClientEvent[] = [];
    c.subscribe((e) => seen.push(e));
    f.last.open();
    expect(f.last.sent).toEqual([{ t: 'create', v: 1, ...create }]);
    f.last.server({ t: 'created', room: ROOM_ID, key: KEY });
    f.last.server({ t: 'room', room: roomInfo() });
    expect(c.status).toBe('online');
    expect(c.roomId).toBe(ROOM_ID);
    expect(JSON.parse(storage.getItem(secretsKey(ORIGIN, ROOM_ID))!)).toEqual({ key: KEY });
    f.last.server({ t: 'events', seat: 0, from: 0, events: [] });
    expect(seen.filter((e) => e.type === 'events')).toHaveLength(1);
    expect(c.start()).toBe(true);
    expect(f.last.of('start')).toHaveLength(1);

    f.last.drop();
    expect(c.start()).toBe(false);
    vi.advanceTimersByTime(BACKOFF_MS);
    f.last.open();
    expect(f.last.sent).toEqual([{ t: 'present', v: 1, room: ROOM_ID, key: KEY }]);
  });

  it("locks the room, removes a seat, and hears the server's LAN addresses", () => {
    const f = socketFactory();
    const storage = memoryStorage();
    writeSecrets(storage, URL, ROOM_ID, { key: KEY });
    const c = new RoomConnection({ url: URL, role: { kind: 'presenter', room: ROOM_ID }, socket: f.make, storage });
    const seen: RoomClientEvent[] = [];
    c.subscribe((e) => seen.push(e));
    expect(c.lock(true)).toBe(false); // offline: nothing queued
    f.last.open();
    f.last.server({ t: 'room', room: roomInfo({ seats: [seatInfo(0)] }) });
    f.last.server({ t: 'addresses', origins: ['http://192.168.1.20:8787', 'http://10.0.0.5:8787'] });
    expect(c.lanOrigins).toEqual(['http://192.168.1.20:8787', 'http://10.0.0.5:8787']);
    expect(seen.filter((e) => e.type === 'addresses')).toEqual([{ type: 'addresses', origins: ['http://192.168.1.20:8787', 'http://10.0.0.5:8787'] }]);
    expect(c.lock(true)).toBe(true);
    expect(c.removeSeat(0)).toBe(true);
    expect(c.lock(false)).toBe(true);
    expect(f.last.sent.slice(1)).toEqual([
      { t: 'lock', locked: true },
      { t: 'remove-seat', seat: 0 },
      { t: 'lock', locked: false },
    ]);
  });

  it("a student's page ignores addresses (they are the presenter's)", () => {
    const { c, f } = student();
    f.last.open();
    f.last.server({ t: 'addresses', origins: ['http://192.168.1.20:8787'] });
    expect(c.lanOrigins).toEqual([]);
    expect(c.badFrames).toBe(1);
  });

  it('presenting a room without its key says why and does not connect again', () => {
    const f = socketFactory();
    const c = new RoomConnection({ url: URL, role: { kind: 'presenter', room: ROOM_ID }, socket: f.make, storage: memoryStorage() });
    f.last.open();
    expect(c.status).toBe('closed');
    expect(c.error).toMatch(/key/);
    expect(f.last.sent).toEqual([]);
  });
});

describe('a refused event is not resent forever (issue 28, "found by reading")', () => {
  /** The server as seatWrites.ts answers a seat's events in order: acks below `refuseAt`, refuses it, out-of-order after. */
  function answer(s: ReturnType<typeof socketFactory>['last'], refuseAt: number, from: number) {
    let stored = from;
    for (const m of s.of('event').map((x) => x.seq as number)) {
      if (m < stored) s.server({ t: 'ack', seq: m });
      else if (m === stored && m < refuseAt) s.server({ t: 'ack', seq: stored++ });
      else if (m === stored) s.server({ t: 'error', code: 'not-allowed', message: "This room's experiment has 4 steps: this event is of step 9." });
      else s.server({ t: 'error', code: 'out-of-order', message: `Event ${m} came before event ${stored}.` });
      if (!s.onmessage) break; // the client dropped this socket
    }
    return stored;
  }

  it('is sent once more after a rejoin, then the stream stops in words, the run kept here; no reconnect loop', () => {
    const { c, f } = student();
    const streaming: boolean[] = [];
    c.subscribe((ev) => {
      if (ev.type === 'status') streaming.push(ev.streaming);
    });
    c.pushEvents(0, runEvents(4));
    let sockets = 0;
    for (let round = 0; round < 6 && f.sockets.length !== sockets; round++) {
      sockets = f.sockets.length;
      f.last.open();
      f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: round === 0 ? 0 : 2 });
      answer(f.last, 2, round === 0 ? 0 : 2);
      vi.advanceTimersByTime(BACKOFF_CAP_MS);
    }
    const sentOf2 = f.sockets.flatMap((s) => s.of('event')).filter((m) => m.seq === 2).length;
    expect(sentOf2).toBe(2);
    expect(f.sockets).toHaveLength(2);
    expect(c.status).toBe('online');
    expect(c.error).toMatch(/refused event 2 of this run twice.*the run goes on here and is saved in this browser/);
    // The page's status line reads this: it no longer promises that the run reaches the room.
    expect(streaming[0]).toBe(true);
    expect(streaming.at(-1)).toBe(false);
    expect(c.heldEvents).toBe(runEvents(4).length);
    expect(c.ackedEvents).toBe(2);
    // A later rejoin (the connection lost) sends nothing again, and the words stay.
    f.last.drop();
    vi.advanceTimersByTime(BACKOFF_CAP_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 2 });
    expect(f.last.of('event')).toEqual([]);
    expect(c.error).toMatch(/refused event 2/);
  });

  it('a refusal of the moment (accepted on the retry) does not stop the stream', () => {
    const { c, f } = student();
    c.pushEvents(0, runEvents(4));
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    answer(f.last, 1, 0);
    vi.advanceTimersByTime(BACKOFF_CAP_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 1 });
    answer(f.last, Infinity, 1);
    expect(c.ackedEvents).toBe(c.heldEvents);
    expect(c.status).toBe('online');
    expect(c.error).toBeNull();
  });
});

describe('a connection refused before any answer (issue 28: an upgrade refused with HTTP 503 reads as a plain close)', () => {
  it('says the server refused or could not be reached, how many tries, and backs off', () => {
    const { c, f, events } = student();
    f.last.drop();
    expect(c.status).toBe('offline');
    expect(c.error).toBe('The room server refused the connection or could not be reached (1 try in a row; next try in about 1 s)');
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(2);
    f.last.drop();
    expect(c.error).toMatch(/refused the connection or could not be reached \(2 tries in a row; next try in about 1 s\)/);
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(2);
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(3);
    f.last.drop();
    expect(c.error).toMatch(/\(3 tries in a row; next try in about 2 s\)/);
    // Each try is said to the page (not only kept in c.error).
    expect(events.flatMap((e) => (e.type === 'status' && e.error?.includes('in a row') ? [e.error.match(/\((\d+) tr/)![1]] : []))).toEqual(['1', '2', '3']);
  });
});
