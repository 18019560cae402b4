/**
 * Class mode's client (client.ts) against a fake WebSocket: a student's hellos on every reconnect,
 * its stream resent from the server's `stored` count (nothing lost, nothing twice), bad frames
 * counted and ignored, and the presenter's create, key and controls. Elsewhere: the secrets, two
 * tabs and paired seats (clientSeats.test.ts), the backoff and pings (reconnect.test.ts), the
 * server's errors (refusals.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_MS, RoomConnection, type RoomClientEvent } from './client';
import { EVENT_WINDOW } from './seatOutbox';
import { readSecrets, secretsKey, writeSecrets } from './secrets';
import { streamedEvent, type SeatEvent } from './protocol';
import { KEY, ORIGIN, ROOM_ID, TOKEN, TOKEN2, URL, memoryStorage, roomInfo, roomSpec, runEvents, seatInfo, socketFactory, studentPage as student } from './fakeSocket.testkit';

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

  it('a damaged secrets entry reads as none', () => {
    const storage = memoryStorage();
    storage.setItem(secretsKey(ORIGIN, ROOM_ID), '{"seat":{"index":1,"token":"<script>"}}');
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({});
    storage.setItem(secretsKey(ORIGIN, ROOM_ID), 'nope');
    expect(readSecrets(storage, URL, ROOM_ID)).toEqual({});
    expect(readSecrets(storage, 'https://127.0.0.1:8787/room', ROOM_ID)).toEqual({});
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

