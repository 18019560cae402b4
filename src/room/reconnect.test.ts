/**
 * The room client's reconnects (reconnect.ts, roomSocket.ts): the backoff's waits, pure and through
 * the client on a fake WebSocket (doubling to the cap, starting over once online, held after a
 * store failure until a write gets through), a silent connection pinged then replaced, and a
 * connection refused before any answer said in words with its count of tries.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_CAP_MS, BACKOFF_MS, PING_MS } from './client';
import { Backoff, backoffWait, unreachableText } from './reconnect';
import { TOKEN, seatInfo, studentPage as student } from './fakeSocket.testkit';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the backoff', () => {
  it('doubles from BACKOFF_MS to the cap, jittered by at most a quarter either way', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((n) => backoffWait(n, 0.5))).toEqual([500, 1000, 2000, 4000, 8000, BACKOFF_CAP_MS, BACKOFF_CAP_MS, BACKOFF_CAP_MS]);
    expect(backoffWait(1, 0)).toBe(375);
    expect(backoffWait(1, 0.999_999)).toBe(625);
    expect(backoffWait(10, 0.999_999)).toBe(BACKOFF_CAP_MS);
  });

  it('starts over once online, except after a store failure, until a write gets through', () => {
    const b = new Backoff();
    expect([b.next(0.5), b.next(0.5)]).toEqual([500, 1000]);
    b.online();
    expect(b.next(0.5)).toBe(500);
    b.serverFailed();
    b.online();
    expect(b.next(0.5)).toBe(1000);
    b.online();
    expect(b.next(0.5)).toBe(2000);
    b.stored();
    expect(b.attempt).toBe(0);
    b.online();
    expect(b.next(0.5)).toBe(500);
  });

  it('says the tries and the wait of a connection refused before any answer', () => {
    expect(unreachableText(1, 500)).toBe('The room server refused the connection or could not be reached (1 try in a row; next try in about 1 s)');
    expect(unreachableText(4, 3600)).toMatch(/\(4 tries in a row; next try in about 4 s\)$/);
  });
});

describe('a student page reconnecting', () => {
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

});

describe('a connection refused before any answer (an upgrade refused with HTTP 503 reads as a plain close)', () => {
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
