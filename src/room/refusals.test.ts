/**
 * What the room client does with the server's errors (refusals.ts): the table itself, then through
 * the client on a fake WebSocket: a refused event sent once more and then not at all, and a store failure (`server-error`) retried with the backoff and never
 * taken as a refusal, before the hello is answered or of an event. Through the real server with a
 * failing store: storeRetry.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_CAP_MS, BACKOFF_MS, RoomConnection } from './client';
import { errorText } from './errors';
import { ROOM_ERROR_CODES } from './protocol';
import { errorAction, type PageState } from './refusals';
import { KEY, ROOM_ID, TOKEN, memoryStorage, roomSpec, runEvents, seatInfo, socketFactory, studentPage as student } from './fakeSocket.testkit';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the table', () => {
  const page = (over: Partial<PageState> = {}): PageState => ({ student: true, welcomed: true, streamStopped: false, inFlight: 0, ...over });

  it('a server-error is retried in every state: never a refusal, never final', () => {
    for (const student of [true, false]) {
      for (const welcomed of [true, false]) {
        for (const streamStopped of [true, false]) {
          for (const inFlight of [0, 3]) expect(errorAction('server-error', { student, welcomed, streamStopped, inFlight })).toBe('store-failed');
        }
      }
    }
  });

  it('refusals of an event in flight, before and after the stream stopped', () => {
    expect(errorAction('not-allowed', page({ inFlight: 1 }))).toBe('event-refused');
    expect(errorAction('over-quota', page({ inFlight: 1 }))).toBe('event-refused');
    expect(errorAction('over-quota', page({ inFlight: 1, streamStopped: true }))).toBe('already-said');
    expect(errorAction('out-of-order', page({ inFlight: 1, streamStopped: true }))).toBe('already-said');
    expect(errorAction('out-of-order', page({ inFlight: 1 }))).toBe('rejoin');
    // Nothing in flight: not an event's refusal.
    expect(errorAction('over-quota', page())).toBe('say');
  });

  it('before the hello is answered the room cannot be had; a closed room ends at any time', () => {
    expect(errorAction('not-allowed', page({ welcomed: false }))).toBe('fail');
    expect(errorAction('room-full', page({ welcomed: false }))).toBe('fail');
    expect(errorAction('not-allowed', page({ student: false, welcomed: true }))).toBe('say');
    expect(errorAction('room-closed', page({ student: false, welcomed: true }))).toBe('fail');
    expect(errorAction('seat-in-use', page({ welcomed: false }))).toBe('elsewhere');
    expect(errorAction('seat-in-use', page({ student: false, welcomed: false }))).toBe('fail');
    expect(errorAction('bad-seat', page({ welcomed: false }))).toBe('new-seat');
    expect(errorAction('seat-removed', page())).toBe('removed');
    expect(errorAction('rate-limited', page())).toBe('say');
  });

  it('every code has words, and the server-error words are the page\'s own', () => {
    for (const code of ROOM_ERROR_CODES) expect(errorText(code, '')).toMatch(/^[A-Z].{15,}\.$/);
    expect(errorText('server-error', '')).toBe('The room server could not store that (its log says why); nothing of it was kept; this page tries again.');
  });
});

describe('a refused event is not resent forever', () => {
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

describe('a store failure (server-error) is retried, never taken as a refusal', () => {
  const storeFailed = { t: 'error', code: 'server-error', message: 'The room server could not store or handle that message (its log says why): nothing of it was kept.' } as const;

  it("a presenter's create that failed is sent again after the backoff, not given up", () => {
    const f = socketFactory();
    const create = { name: 'class', preset: 'quick', spec: roomSpec, baseSeed: 100, pairing: false };
    const c = new RoomConnection({ url: 'ws://127.0.0.1:8787/room', role: { kind: 'presenter', create }, socket: f.make, storage: memoryStorage(), random: () => 0.5 });
    for (let i = 0; i < 3; i++) {
      f.last.open();
      expect(f.last.sent).toEqual([{ t: 'create', v: 1, ...create }]);
      f.last.server(storeFailed);
      expect(c.status).toBe('offline');
      expect(c.error).toBe('The room server could not store that (its log says why); nothing of it was kept; this page tries again.');
      expect(f.last.closed).toBe(true);
      vi.advanceTimersByTime(BACKOFF_MS * 2 ** i - 1);
      expect(f.sockets).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
      expect(f.sockets).toHaveLength(i + 2);
    }
    f.last.open();
    f.last.server({ t: 'created', room: ROOM_ID, key: KEY });
    expect(c.status).toBe('online');
    expect(c.error).toBeNull();
  });

  it("a seat's event that failed is sent again after each rejoin, the waits growing until it is stored; the stream goes on", () => {
    const { c, f, events } = student();
    c.pushEvents(0, runEvents(4));
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      f.last.open();
      f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
      expect(f.last.of('event')[0].seq).toBe(0);
      f.last.server(storeFailed);
      const before = f.sockets.length;
      let t = 0;
      while (f.sockets.length === before) {
        vi.advanceTimersByTime(50);
        t += 50;
      }
      waits.push(t);
    }
    // More failures than a refusal's REFUSALS_TO_STOP, and the rejoins in between do not start the waits over.
    expect(waits).toEqual([BACKOFF_MS, 2 * BACKOFF_MS, 4 * BACKOFF_MS, 8 * BACKOFF_MS]);
    f.last.open();
    f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored: 0 });
    for (const m of f.last.of('event')) f.last.server({ t: 'ack', seq: m.seq as number });
    expect(c.ackedEvents).toBe(c.heldEvents);
    expect(c.error).toBeNull();
    expect(events.every((e) => e.type !== 'status' || e.streaming)).toBe(true);
    // Stored: the next drop waits the first wait again.
    f.last.drop();
    const before = f.sockets.length;
    vi.advanceTimersByTime(BACKOFF_MS);
    expect(f.sockets).toHaveLength(before + 1);
  });
});
