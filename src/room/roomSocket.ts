/**
 * One WebSocket to the room server at a time, kept across a flaky class Wi-Fi: the room client
 * (client.ts, RoomConnection) is this with the protocol on top. Here:
 *   - a lost socket is replaced after the backoff (reconnect.ts), and each new socket says its
 *     hello again (the subclass's `hello`);
 *   - a socket silent for PING_MS gets a ping, and silent as long again it is dropped and replaced;
 *   - every frame from the server is parsed by parseServerMessage: a bad one is counted, warned of
 *     and ignored, never thrown; a good one goes to the subclass's `message`;
 *   - a socket closed before the server answered its hello, with no error said, reads as "refused
 *     or could not be reached" with the count of tries (an upgrade refused with HTTP 503 gives the
 *     page nothing more than a plain close);
 *   - the status and its words go to every listener; a listener that throws is logged, not thrown.
 */
import { type ClientMessage, type ServerMessage, parseServerMessage } from './protocol';
import { Backoff, PING_MS, type SocketFactory, type SocketLike, type Timers, defaultTimers, unreachableText } from './reconnect';
import type { RoomClientEvent, RoomStatus } from './clientTypes';

/** WebSocket.OPEN. */
const OPEN = 1;

export abstract class RoomSocket {
  readonly url: string;
  protected readonly timers: Timers;
  private readonly openSocket: SocketFactory;
  private readonly random: () => number;

  protected socket: SocketLike | null = null;
  /** Left for good (closed, failed): nothing reconnects. */
  protected ended = false;
  protected readonly backoff = new Backoff();
  /** Whether the hello of this socket was answered (a seat, or the presenter's room). */
  protected welcomed = false;
  /** The server said an error on this socket (its close then needs no words of its own). */
  protected told = false;
  private retryTimer: unknown = null;
  private pingTimer: unknown = null;
  private lastHeard = 0;
  private listeners = new Set<(ev: RoomClientEvent) => void>();

  status: RoomStatus = 'connecting';
  error: string | null = null;
  /** Frames from the server that did not parse, and what the last one was. */
  badFrames = 0;
  lastWarning: string | null = null;

  constructor(opts: { url: string; socket: SocketFactory; timers?: Timers; random?: () => number }) {
    this.url = opts.url;
    this.openSocket = opts.socket;
    this.timers = opts.timers ?? defaultTimers;
    this.random = opts.random ?? Math.random;
  }

  subscribe(listener: (ev: RoomClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Say who this page is on a socket just opened (create, present or join). */
  protected abstract hello(): void;
  /** A frame from the server that parsed. */
  protected abstract message(m: ServerMessage): void;
  /** The socket closed with `code`: true if that code meant something to the room (handled there). */
  protected abstract closedWith(code: number | undefined): boolean;
  /** Whether this page's events still go to the room (said with every status). */
  protected abstract get streaming(): boolean;
  /** The socket is being dropped: stop what waits on it (the subclass's own timers). */
  protected abstract stopping(): void;

  /** Open a socket (the subclass calls this last in its constructor, and takeOver() again). */
  protected connect(): void {
    if (this.ended) return;
    this.welcomed = false;
    this.told = false;
    this.setStatus(this.backoff.attempt === 0 ? 'connecting' : 'offline', this.error);
    let s: SocketLike;
    try {
      s = this.openSocket(this.url);
    } catch (e) {
      this.error = `The room server's address cannot be opened: ${e instanceof Error ? e.message : String(e)}`;
      this.retry();
      return;
    }
    this.socket = s;
    s.onopen = () => {
      if (this.socket !== s) return;
      this.lastHeard = this.timers.now();
      this.hello();
      this.armPing();
    };
    s.onmessage = (ev) => {
      if (this.socket !== s) return;
      this.lastHeard = this.timers.now();
      this.receive(ev.data);
    };
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      if (this.closedWith(ev.code)) return;
      const unanswered = !this.welcomed && !this.told;
      this.dropSocket();
      this.retry(unanswered);
    };
    s.onerror = () => {
      // A close follows; nothing to do until then.
    };
  }

  /** Close the socket (with a reason, when leaving for good), deaf to its late events; timers cleared. */
  protected dropSocket(code?: number, reason?: string): void {
    const s = this.socket;
    this.socket = null;
    this.welcomed = false;
    for (const t of [this.retryTimer, this.pingTimer]) if (t !== null) this.timers.clearTimeout(t);
    this.retryTimer = this.pingTimer = null;
    this.stopping();
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null;
      try {
        s.close(code, reason);
      } catch {
        // already closed
      }
    }
  }

  /** Connect again after the backoff; `unanswered`: this socket closed before any answer (words for it). */
  protected retry(unanswered = false): void {
    if (this.ended) return;
    const wait = this.backoff.next(this.random());
    // (setStatus sets this.error: assigned here first, an unchanged status would not be said.)
    this.setStatus('offline', unanswered ? unreachableText(this.backoff.attempt, wait) : (this.error ?? 'The room server cannot be reached'));
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
  }

  /** Drop this socket and connect again after the backoff, saying why. */
  protected rejoin(text: string): void {
    this.error = text;
    this.dropSocket();
    this.retry();
  }

  /** A connection that says nothing for PING_MS gets a ping; silent for as long again, it is dropped. */
  private armPing(): void {
    if (this.pingTimer !== null) this.timers.clearTimeout(this.pingTimer);
    this.pingTimer = this.timers.setTimeout(() => {
      this.pingTimer = null;
      if (!this.socket) return;
      const silent = this.timers.now() - this.lastHeard;
      if (silent >= 2 * PING_MS) {
        this.dropSocket();
        this.retry();
        return;
      }
      if (silent >= PING_MS) this.sendNow({ t: 'ping' });
      this.armPing();
    }, PING_MS);
  }

  protected sendNow(message: ClientMessage): boolean {
    const s = this.socket;
    if (!s || s.readyState !== OPEN) return false;
    try {
      s.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') {
      this.badFrames++;
      this.warn('a frame from the room server that is not text was ignored');
      return;
    }
    const parsed = parseServerMessage(data);
    if (!parsed.ok) {
      this.badFrames++;
      this.warn(`a frame from the room server was ignored (${parsed.message})`);
      return;
    }
    this.message(parsed.message);
  }

  protected setStatus(status: RoomStatus, error: string | null): void {
    if (this.status === status && this.error === error) return;
    this.status = status;
    this.error = error;
    this.emit({ type: 'status', status, error, streaming: this.streaming });
  }

  protected emit(ev: RoomClientEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(ev);
      } catch (e) {
        console.error('Cohort Lab: a room listener failed', e);
      }
    }
  }

  protected warn(text: string): void {
    this.lastWarning = text;
    console.warn(`Cohort Lab room: ${text}`);
  }

  /** A frame that parsed but does not fit this page (a 'created' to a student, ...): counted and ignored. */
  protected ignored(what: string): void {
    this.badFrames++;
    this.warn(`an unexpected '${what}' from the room server was ignored`);
  }
}
