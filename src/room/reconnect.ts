/**
 * What the room client (client.ts) needs to stay connected across a flaky class Wi-Fi, without the
 * DOM: the part of a WebSocket it uses, injectable timers, and the reconnect backoff (the first
 * retry after BACKOFF_MS, doubling up to BACKOFF_CAP_MS, with jitter).
 *
 * The backoff starts over once the page is online again, except after a `server-error` (the
 * server's store failed, protocol.ts): a rejoin that works says nothing of the write that failed,
 * and starting over would resend it twice a second for as long as the store fails. It starts over
 * when a write gets through (an `ack`: Backoff.stored()).
 */

/** The part of a DOM WebSocket the client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code?: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/** Backoff: the first retry after BACKOFF_MS, doubling up to BACKOFF_CAP_MS. */
export const BACKOFF_MS = 500;
export const BACKOFF_CAP_MS = 15_000;
/** A ping when the socket said nothing for this long; a reconnect when it stays silent as long again. */
export const PING_MS = 20_000;

/** The wait before try `attempt` (1, 2, ...) in a row; `random` in [0, 1) jitters it by +-25 %. */
export function backoffWait(attempt: number, random: number): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_MS * 2 ** Math.min(Math.max(attempt, 1) - 1, 16));
  return Math.min(BACKOFF_CAP_MS, Math.round(base * (0.75 + 0.5 * random)));
}

/** Tries in a row, and whether a store failure holds them from starting over (see the header). */
export class Backoff {
  /** Tries since the page was last online (or, after a server-error, since a write last got through). */
  attempt = 0;
  private storeFailed = false;

  /** Count a try; the wait before it. */
  next(random: number): number {
    this.attempt++;
    return backoffWait(this.attempt, random);
  }

  /** Online again: the next wait is the first, unless a write is still failing. */
  online(): void {
    if (!this.storeFailed) this.attempt = 0;
  }

  /** The server could not store what this page sent (`server-error`). */
  serverFailed(): void {
    this.storeFailed = true;
  }

  /** A write got through (or the person asked for a fresh try): the next wait is the first. */
  stored(): void {
    this.storeFailed = false;
    this.attempt = 0;
  }
}

/**
 * A connection that closed before the server answered its hello, with no error said: the browser
 * tells a page nothing more (an upgrade refused with HTTP 503, too many connections from this
 * address, reads as the same plain close as a server that is down).
 */
export function unreachableText(tries: number, waitMs: number): string {
  const next = `next try in about ${Math.max(1, Math.round(waitMs / 1000))} s`;
  return `The room server refused the connection or could not be reached (${tries} ${tries === 1 ? 'try' : 'tries'} in a row; ${next})`;
}
