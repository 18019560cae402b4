/**
 * Class mode's client (client.ts) against a fake WebSocket, a seat's secrets and company: the
 * presenter's key and seat tokens kept by server and room id and sent to no other server, one seat in two tabs, a removed seat, a locked room, and a paired seat's
 * exchange of answers with its partner.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_MS, RoomConnection } from './client';
import { legacySecretsKey, readSecrets, tabSeatKey, writeSecrets } from './secrets';
import { ATTACKER, KEY, ORIGIN, ROOM_ID, TOKEN, TOKEN2, URL, memoryStorage, runEvents, seatInfo, socketFactory, studentPage as student } from './fakeSocket.testkit';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('secrets stay with their server', () => {
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

describe('one seat, two tabs', () => {
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

  it('the same tab reloaded takes its seat back at once (its old connection may still be open at the server); a tab the seat was taken from does not', () => {
    const storage = memoryStorage();
    const tab = memoryStorage();
    const page = () => {
      const f = socketFactory();
      const c = new RoomConnection({ url: URL, role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage, tabStorage: tab, random: () => 0.5 });
      return { c, f };
    };
    const first = page();
    first.f.last.open();
    expect(first.f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: null }]);
    first.f.last.server({ t: 'seat', seat: seatInfo(2), token: TOKEN, stored: 0 });
    expect([...tab.map.keys()]).toEqual([tabSeatKey(ORIGIN, ROOM_ID)]);
    // The reload: a new page in the same tab joins its seat with takeover.
    const reloaded = page();
    reloaded.f.last.open();
    expect(reloaded.f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: { index: 2, token: TOKEN }, takeover: true }]);
    // Another tab (its own tab storage, empty) is refused and waits, as before.
    const other = student(storage);
    other.f.last.open();
    expect(other.f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: { index: 2, token: TOKEN } }]);
    // The seat taken from this tab by another (4001): its mark goes, so its own reload asks again.
    reloaded.f.last.server({ t: 'seat', seat: seatInfo(2), token: TOKEN, stored: 0 });
    reloaded.f.last.drop(4001);
    expect(reloaded.c.status).toBe('elsewhere');
    expect(tab.map.size).toBe(0);
    const again = page();
    again.f.last.open();
    expect(again.f.last.sent).toEqual([{ t: 'join', v: 1, room: ROOM_ID, seat: { index: 2, token: TOKEN } }]);
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

  it("told its seat now trains alone: the stream starts over from 0, the member part's answers are dropped and its waiters rejected", async () => {
    const { c, f } = student();
    const events: string[] = [];
    c.subscribe((ev) => void (ev.type === 'alone' || ev.type === 'acked' ? events.push(ev.type === 'alone' ? `alone ${ev.seat.alone}` : `acked ${ev.acked}`) : undefined));
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: 1 }), token: TOKEN, stored: 0 });
    c.pushEvents(0, runEvents(2).slice(0, 2));
    f.last.server({ t: 'ack', seq: 0 });
    f.last.server({ t: 'ack', seq: 1 });
    c.sendExchange(1, 'train', [['5']]);
    const waiting = c.partnerAnswers(1, 'train');
    // Another seat's `alone`, or one that does not say alone, changes nothing.
    f.last.server({ t: 'alone', seat: seatInfo(2, { alone: true }) });
    f.last.server({ t: 'alone', seat: seatInfo(0, { member: 'A' }) });
    expect(c.ackedEvents).toBe(2);
    f.last.server({ t: 'alone', seat: seatInfo(0, { member: 'A', partner: null, alone: true }) });
    await expect(waiting).rejects.toThrow(/partner left/);
    expect([c.ackedEvents, c.heldEvents, c.seat?.alone]).toEqual([0, 0, true]);
    expect(events.slice(-2)).toEqual(['alone true', 'acked 0']);
    // The new run's events go from 0; after a rejoin no answer of the member part is sent again.
    const sent = f.last.of('event').length;
    c.pushEvents(0, runEvents(1).slice(0, 1));
    expect(f.last.of('event').slice(sent).map((m) => m.seq)).toEqual([0]);
    f.last.drop();
    vi.advanceTimersByTime(BACKOFF_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', alone: true }), token: TOKEN, stored: 0 });
    expect(f.last.of('exchange')).toEqual([]);
  });

  it('switched while away: the rejoin that says alone with nothing stored restarts the stream the same way', () => {
    const { c, f } = student();
    const told: boolean[] = [];
    c.subscribe((ev) => void (ev.type === 'alone' ? told.push(ev.seat.alone === true) : undefined));
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: 1 }), token: TOKEN, stored: 0 });
    c.pushEvents(0, runEvents(2).slice(0, 2));
    f.last.server({ t: 'ack', seq: 0 });
    c.sendExchange(1, 'train', [['5']]);
    f.last.drop();
    vi.advanceTimersByTime(BACKOFF_MS);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: null, alone: true }), token: TOKEN, stored: 0 });
    expect(told).toEqual([true]);
    expect([c.ackedEvents, c.heldEvents]).toEqual([0, 0]);
    expect([f.last.of('event'), f.last.of('exchange')]).toEqual([[], []]);
  });

  it('close() rejects the waiters', async () => {
    const { c } = student();
    const waiting = c.partnerAnswers(1, 'eval');
    c.close();
    await expect(waiting).rejects.toThrow(/closed/);
    expect(c.status).toBe('closed');
  });
});
