/**
 * Class mode's client: one WebSocket to the room server (protocol.ts) for a presenter or a student,
 * kept alive across a flaky class Wi-Fi. No React and no DOM beyond what is injected (a socket
 * factory, a storage, timers), so the tests drive it with a fake socket.
 *
 *   - every (re)connection says its hello again: `create` (once) or `present {room, key}` for the
 *     presenter, `join {room, seat}` for a student (the seat token from the secrets store, so a
 *     reload or a lost connection takes the same seat); reconnects back off exponentially (capped);
 *   - every frame from the server is parsed by parseServerMessage: a bad one is counted and ignored,
 *     never thrown;
 *   - a student's run's events are numbered by their position in the run (seq 0, 1, 2, ...) and kept
 *     here, so nothing is lost offline: after each `seat` the client sends on from the server's
 *     `stored` count, paced under the server's rate limit, and forgets nothing it was not acked for;
 *     rollout samples are dropped (`samples: []`: the room has no inspector), and a 'done' goes
 *     without its per-step histories (the stream itself: seatOutbox.ts);
 *   - paired rooms: sendExchange(step, kind, answers) sends this seat's answers (again after a
 *     rejoin, until it is sure the frame left), and partnerAnswers(step, kind) resolves with the
 *     partner's, stored or arriving (the server resends all of them on rejoin), keyed by step+kind
 *     and kept for the room's life, since a resumed member part asks again for the steps after
 *     its checkpoint (exchanges.ts); a room that ends rejects a seat still waiting.
 *
 * The presenter's key and a student's seat token are secrets: they live in the injected storage
 * (localStorage) keyed by the server's origin and the room id, never in a URL, and are read only for
 * the server of `url`, the one this connection talks to (secrets.ts): a link naming another server
 * with a real room id gets none of them. The server's errors in words: errors.ts.
 *
 * One seat in two tabs (issue 28, item 5): a page that opens a seat another tab holds is refused
 * (`seat-in-use`), and one whose seat another tab took is closed with 4001; either way the status
 * is 'elsewhere' and nothing reconnects by itself (two tabs reconnecting would take the seat from
 * each other forever), until takeOver() ("use this tab here") joins with `takeover`. A tab that
 * held the seat reconnects with `takeover` too: after a network drop the server may still hold the
 * stale connection of this very tab.
 *
 * An event the server refuses (not-allowed, over-quota, bad-message, too-large while events are in
 * flight) is sent once more after a rejoin, and refused again it is not sent any more: the status
 * says so and the run goes on in the page (seatOutbox.ts REFUSALS_TO_STOP). A socket closed before
 * any answer says "refused or could not be reached" (an upgrade refused with HTTP 503 gives the
 * page nothing more) and is retried with the same backoff.
 */
import type { RecordedEvent } from '../share/record';
import {
  type ClientMessage,
  type RoomErrorCode,
  type RoomInfo,
  type Secret,
  type SeatEvent,
  type SeatInfo,
  ROOM_PROTOCOL_VERSION,
  parseServerMessage,
} from './protocol';
import { AnswerExchanges, type Answers, type ExchangeKind } from './exchanges';
import { SEND_PER_SECOND, SeatOutbox } from './seatOutbox';
import { FATAL, errorText } from './errors';
import { type KeyValueStore, readSecrets, writeSecrets } from './secrets';


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

/** WebSocket.OPEN. */
const OPEN = 1;
/** The server's close codes (server/hub.ts): a seat taken over by another connection, a seat removed. */
export const TAKEN_OVER = 4001;
export const SEAT_REMOVED = 4003;
/** Codes whose own words say it all to a student (the server's sentence would only repeat them). */
const SHORT: readonly RoomErrorCode[] = ['seat-in-use', 'seat-removed', 'room-locked'];


/** 'elsewhere': a student's seat is open in another tab (nothing reconnects until takeOver()). */
export type RoomStatus = 'connecting' | 'online' | 'offline' | 'closed' | 'elsewhere';

/** What the experiment of a new room is. */
export interface CreateRoom {
  name: string;
  preset: string | null;
  spec: Extract<ClientMessage, { t: 'create' }>['spec'];
  baseSeed: number;
  pairing: boolean;
}

export type RoomRole =
  | { kind: 'presenter'; create: CreateRoom }
  /** A presenter coming back to a room it made (its key is in the secrets store). */
  | { kind: 'presenter'; room: Secret }
  | { kind: 'student'; room: Secret };

export type RoomClientEvent =
  /** `streaming`: this seat's events still go to the room (false once the room refused one for good). */
  | { type: 'status'; status: RoomStatus; error: string | null; streaming: boolean }
  | { type: 'created'; room: Secret }
  | { type: 'room'; room: RoomInfo }
  | { type: 'seat'; seat: SeatInfo; stored: number }
  /** A seat's events from position `from` on (the presenter: live; a student: the class, batched). */
  | { type: 'events'; seat: number; from: number; events: SeatEvent[] }
  /** The server acknowledged the student's events up to `acked` (exclusive). */
  | { type: 'acked'; acked: number }
  /** A presenter: the origins (http://<LAN IPv4>:<port>) at which other devices reach the server. */
  | { type: 'addresses'; origins: string[] };

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export interface RoomClientOptions {
  url: string;
  role: RoomRole;
  socket: SocketFactory;
  storage: KeyValueStore | null;
  timers?: Timers;
  /** 0 <= x < 1, for the backoff's jitter (tests pass a constant). */
  random?: () => number;
}

/** Backoff: the first retry after BACKOFF_MS, doubling up to BACKOFF_CAP_MS. */
export const BACKOFF_MS = 500;
export const BACKOFF_CAP_MS = 15_000;
/** A ping when the socket said nothing for this long; a reconnect when it stays silent as long again. */
export const PING_MS = 20_000;

/** Errors that refuse an event for good when it comes again the same (seatOutbox.ts REFUSALS_TO_STOP). */
const EVENT_REFUSALS: readonly RoomErrorCode[] = ['not-allowed', 'over-quota', 'bad-message', 'too-large'];

/**
 * A connection that closed before the server answered its hello, with no error said: the browser
 * tells a page nothing more (an upgrade refused with HTTP 503, too many connections from this
 * address, reads as the same plain close as a server that is down).
 */
export function unreachableText(tries: number, waitMs: number): string {
  const next = `next try in about ${Math.max(1, Math.round(waitMs / 1000))} s`;
  return `The room server refused the connection or could not be reached (${tries} ${tries === 1 ? 'try' : 'tries'} in a row; ${next})`;
}

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};



export class RoomConnection {
  readonly url: string;
  private role: RoomRole;
  private readonly openSocket: SocketFactory;
  private readonly storage: KeyValueStore | null;
  private readonly timers: Timers;
  private readonly random: () => number;

  private socket: SocketLike | null = null;
  private ended = false;
  private attempt = 0;
  private retryTimer: unknown = null;
  private pingTimer: unknown = null;
  private paceTimer: unknown = null;
  private lastHeard = 0;
  private listeners = new Set<(ev: RoomClientEvent) => void>();

  status: RoomStatus = 'connecting';
  error: string | null = null;
  /** Frames from the server that did not parse, and what the last one was. */
  badFrames = 0;
  lastWarning: string | null = null;
  room: RoomInfo | null = null;
  roomId: Secret | null = null;
  seat: SeatInfo | null = null;
  /** A presenter: where other devices reach the server (the server's `addresses`; [] until then). */
  lanOrigins: string[] = [];

  // A student's stream: the run's events by position, how many the server holds, the next to send.
  private outbox: SeatOutbox;
  /** Whether the hello of this connection was answered (a seat, or the presenter's room). */
  private welcomed = false;
  /** The server said an error on this socket (its close then needs no words of its own). */
  private told = false;
  /** Why the seat's events stopped going to the room (null: they go). */
  private streamStopped: string | null = null;
  /** A student: join with `takeover` (this tab held the seat last, or its student chose this tab). */
  private takeover = false;

  // Paired rooms.
  private exchanges = new AnswerExchanges();

  constructor(opts: RoomClientOptions) {
    this.url = opts.url;
    this.role = opts.role;
    this.openSocket = opts.socket;
    this.storage = opts.storage;
    this.timers = opts.timers ?? defaultTimers;
    this.random = opts.random ?? Math.random;
    this.roomId = 'room' in opts.role ? opts.role.room : null;
    this.outbox = new SeatOutbox(this.timers.now());
    this.connect();
  }

  subscribe(listener: (ev: RoomClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events the server acknowledged (a student's stream). */
  get ackedEvents(): number {
    return this.outbox.acked;
  }

  /** Events of the run kept here (a student's stream). */
  get heldEvents(): number {
    return this.outbox.held;
  }

  /** Presenter: start the room for everybody. False when offline (nothing is queued: the presenter sees it). */
  start(): boolean {
    return this.sendNow({ t: 'start' });
  }

  /** Presenter: close the room for everybody. */
  closeRoom(): boolean {
    return this.sendNow({ t: 'close' });
  }

  /** Presenter: lock the room to new students (true) or open it again. False when offline. */
  lock(locked: boolean): boolean {
    return this.sendNow({ t: 'lock', locked });
  }

  /** Presenter: remove a seat (its student is told, the seat is freed). False when offline. */
  removeSeat(seat: number): boolean {
    return this.sendNow({ t: 'remove-seat', seat });
  }

  /**
   * A student whose seat is open in another tab ('elsewhere'): take it here ("use this tab here");
   * the other tab is closed by the server and waits in turn. False when the seat is not elsewhere.
   */
  takeOver(): boolean {
    if (this.ended || this.status !== 'elsewhere' || this.role.kind !== 'student') return false;
    this.takeover = true;
    this.attempt = 0;
    this.error = null;
    this.connect();
    return true;
  }

  /**
   * A student: the seat's run has these events from position `from` on. Positions already held are
   * kept (a resumed run posts them again, the same numbers); a gap after the held ones is refused
   * (false), since the server takes events only in order.
   */
  pushEvents(from: number, events: readonly RecordedEvent[]): boolean {
    if (!this.outbox.push(from, events)) {
      this.warn(`events from ${from} left out: the run has only ${this.outbox.held} so far`);
      return false;
    }
    this.pump();
    return true;
  }

  /** Paired rooms: this seat's answers at a step, sent now or at the next rejoin. */
  sendExchange(step: number, kind: ExchangeKind, answers: Answers): void {
    this.exchanges.remember(step, kind, answers);
    if (this.welcomed) this.sendNow({ t: 'exchange', step, kind, answers });
  }

  /** Paired rooms: the partner's answers at a step, as soon as the room has relayed them. */
  partnerAnswers(step: number, kind: ExchangeKind): Promise<Answers> {
    return this.exchanges.partnerAnswers(step, kind);
  }

  /** Whether a partner's answers are awaited now. */
  get waitingForPartner(): boolean {
    return this.exchanges.waiting;
  }

  /** Leave: no more reconnects; waiters are rejected. The room goes on without this page. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.dropSocket(1000, 'left');
    this.exchanges.end(new Error('the room connection is closed'));
    this.setStatus('closed', this.error);
  }

  // ---- the connection

  private connect(): void {
    if (this.ended) return;
    this.welcomed = false;
    this.told = false;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'offline', this.error);
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
      if (ev.code === TAKEN_OVER && this.role.kind === 'student') return this.elsewhere(errorText('seat-in-use', ''));
      // Told by an error frame first, as a rule; the close alone says the same.
      if (ev.code === SEAT_REMOVED && this.role.kind === 'student') return this.serverError('seat-removed', '');
      const unanswered = !this.welcomed && !this.told;
      this.dropSocket();
      this.retry(unanswered);
    };
    s.onerror = () => {
      // A close follows; nothing to do until then.
    };
  }

  private hello(): void {
    const r = this.role;
    if (r.kind === 'presenter' && 'create' in r) {
      this.sendNow({ t: 'create', v: ROOM_PROTOCOL_VERSION, ...r.create });
    } else if (r.kind === 'presenter') {
      const key = readSecrets(this.storage, this.url, r.room).key;
      if (!key) {
        this.fail('This browser does not hold the key of that room: only the page that created it can present it.');
        return;
      }
      this.sendNow({ t: 'present', v: ROOM_PROTOCOL_VERSION, room: r.room, key });
    } else {
      const seat = readSecrets(this.storage, this.url, r.room).seat ?? null;
      // `takeover` only with a seat to take (and left out otherwise, as older servers expect).
      this.sendNow({ t: 'join', v: ROOM_PROTOCOL_VERSION, room: r.room, seat, ...(seat && this.takeover ? { takeover: true } : {}) });
    }
  }

  /** Close the socket (with a reason, when leaving for good), deaf to its late events; timers cleared. */
  private dropSocket(code?: number, reason?: string): void {
    const s = this.socket;
    this.socket = null;
    this.welcomed = false;
    this.clearTimers();
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
  private retry(unanswered = false): void {
    if (this.ended) return;
    this.attempt++;
    const base = Math.min(BACKOFF_CAP_MS, BACKOFF_MS * 2 ** Math.min(this.attempt - 1, 16));
    const wait = Math.min(BACKOFF_CAP_MS, Math.round(base * (0.75 + 0.5 * this.random())));
    // (setStatus sets this.error: assigned here first, an unchanged status would not be said.)
    this.setStatus('offline', unanswered ? unreachableText(this.attempt, wait) : (this.error ?? 'The room server cannot be reached'));
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, wait);
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

  private clearTimers(): void {
    for (const t of [this.retryTimer, this.pingTimer, this.paceTimer]) if (t !== null) this.timers.clearTimeout(t);
    this.retryTimer = this.pingTimer = this.paceTimer = null;
  }

  private sendNow(message: ClientMessage): boolean {
    const s = this.socket;
    if (!s || s.readyState !== OPEN) return false;
    try {
      s.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  private fail(error: string): void {
    this.error = error;
    this.ended = true;
    this.dropSocket(1000, 'done');
    // A paired seat waiting for its partner would wait for good: it is told why instead.
    this.exchanges.end(new Error(error));
    this.setStatus('closed', error);
  }

  /**
   * The seat is open in another tab: no socket, no reconnect (see the header), the stream and the
   * exchange waiters kept for a takeOver().
   */
  private elsewhere(text: string): void {
    this.takeover = false;
    // No socket and no timer is left, so nothing reconnects; close() still ends it for good.
    this.dropSocket(1000, 'seat open elsewhere');
    this.setStatus('elsewhere', text);
  }

  private setStatus(status: RoomStatus, error: string | null): void {
    if (this.status === status && this.error === error) return;
    this.status = status;
    this.error = error;
    this.emit({ type: 'status', status, error, streaming: this.streamStopped === null });
  }

  private emit(ev: RoomClientEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(ev);
      } catch (e) {
        console.error('Cohort Lab: a room listener failed', e);
      }
    }
  }

  private warn(text: string): void {
    this.lastWarning = text;
    console.warn(`Cohort Lab room: ${text}`);
  }

  // ---- what the server says

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
    const m = parsed.message;
    switch (m.t) {
      case 'created':
        if (this.role.kind !== 'presenter' || !('create' in this.role)) return this.ignored('created');
        writeSecrets(this.storage, this.url, m.room, { ...readSecrets(this.storage, this.url, m.room), key: m.key });
        this.roomId = m.room;
        // From now on a reconnect presents this room rather than making another.
        this.role = { kind: 'presenter', room: m.room };
        this.online();
        this.emit({ type: 'created', room: m.room });
        return;
      case 'room':
        if (this.roomId && m.room.id !== this.roomId) return this.ignored('room of another id');
        this.room = m.room;
        if (this.role.kind === 'presenter') this.online();
        this.emit({ type: 'room', room: m.room });
        if (m.room.status === 'closed') this.fail('The room is closed.');
        return;
      case 'seat':
        return this.seated(m.seat, m.token, m.stored);
      case 'ack':
        if (this.outbox.ack(m.seq)) this.emit({ type: 'acked', acked: this.outbox.acked });
        this.pump();
        return;
      case 'events':
        this.emit({ type: 'events', seat: m.seat, from: m.from, events: m.events });
        return;
      case 'exchange':
        return this.exchanges.received(m.step, m.kind, m.answers);
      case 'error':
        return this.serverError(m.code, m.message);
      case 'pong':
        return;
      case 'addresses':
        if (this.role.kind !== 'presenter') return this.ignored('addresses');
        this.lanOrigins = m.origins;
        this.emit({ type: 'addresses', origins: m.origins });
        return;
    }
  }

  private ignored(what: string): void {
    this.badFrames++;
    this.warn(`an unexpected '${what}' from the room server was ignored`);
  }

  private online(): void {
    this.welcomed = true;
    this.attempt = 0;
    // A stream the server stopped stays said (the run goes on without the room).
    this.setStatus('online', this.streamStopped);
  }

  private seated(seat: SeatInfo, token: Secret, stored: number): void {
    if (this.role.kind !== 'student') return this.ignored('seat');
    writeSecrets(this.storage, this.url, this.role.room, { ...readSecrets(this.storage, this.url, this.role.room), seat: { index: seat.index, token } });
    this.seat = seat;
    // This tab holds the seat now: its own reconnects take it back from a stale connection.
    this.takeover = true;
    // The server's count is the truth: send on from there (events it holds are never sent again).
    this.outbox.seated(stored);
    this.online();
    this.emit({ type: 'seat', seat, stored });
    this.emit({ type: 'acked', acked: this.outbox.acked });
    for (const x of this.exchanges.kept()) this.sendNow({ t: 'exchange', step: x.step, kind: x.kind, answers: x.answers });
    this.pump();
  }

  private serverError(code: RoomErrorCode, message: string): void {
    this.told = true;
    const text = errorText(code, SHORT.includes(code) ? '' : message);
    if (this.role.kind === 'student' && this.welcomed && this.streamStopped !== null && (code === 'out-of-order' || EVENT_REFUSALS.includes(code))) {
      // The events after the refused one, refused in turn: already said, nothing to resend.
      return;
    }
    if (this.role.kind === 'student' && this.welcomed && EVENT_REFUSALS.includes(code) && this.outbox.inFlight > 0) {
      return this.eventRefused(text);
    }
    if (code === 'bad-seat' && this.role.kind === 'student') {
      // The stored seat is not this room's any more: take a new one.
      const room = this.role.room;
      const secrets = readSecrets(this.storage, this.url, room);
      if (secrets.seat) {
        writeSecrets(this.storage, this.url, room, { key: secrets.key });
        this.error = text;
        this.hello();
        return;
      }
    }
    if (code === 'seat-in-use' && this.role.kind === 'student') {
      // Refused (another tab holds the seat) or taken (another tab chose to hold it): wait here.
      this.elsewhere(text);
      return;
    }
    if (code === 'seat-removed' && this.role.kind === 'student') {
      // The seat is gone for good: its token with it, so a reload does not offer it again.
      const secrets = readSecrets(this.storage, this.url, this.role.room);
      writeSecrets(this.storage, this.url, this.role.room, { key: secrets.key });
      this.fail(text);
      return;
    }
    if (FATAL.includes(code) && !this.welcomed) {
      this.fail(text);
      return;
    }
    if (code === 'room-closed') {
      this.fail(text);
      return;
    }
    if (code === 'out-of-order') {
      // The server holds a different count than this page thought: join again to learn it.
      this.error = text;
      this.dropSocket();
      this.retry();
      return;
    }
    // Refused once (rate, size, a bad message): said, and the connection goes on.
    this.error = text;
    this.emit({ type: 'status', status: this.status, error: text, streaming: this.streamStopped === null });
  }

  // ---- the event stream

  /**
   * The server refused the first unacknowledged event: join again and send it once more (a
   * refusal of the moment passes); refused again, the stream stops for good and the page says so.
   */
  private eventRefused(text: string): void {
    const at = this.outbox.acked;
    if (!this.outbox.refused()) {
      this.error = text;
      this.dropSocket();
      this.retry();
      return;
    }
    this.streamStopped = `${text.replace(/\.$/, '')}. The room refused event ${at} of this run twice, so this page sends it no more of the run: the run goes on here and is saved in this browser.`;
    this.warn(this.streamStopped);
    this.setStatus(this.status, this.streamStopped);
  }

  /** Send what the window and the pace allow; come back when the pace allows more. */
  private pump(): void {
    if (!this.welcomed || this.role.kind !== 'student' || !this.socket) return;
    const { paced } = this.outbox.sendable(this.timers.now(), (seq, event) => this.sendNow({ t: 'event', seq, event }));
    if (paced && this.paceTimer === null) {
      this.paceTimer = this.timers.setTimeout(() => {
        this.paceTimer = null;
        this.pump();
      }, Math.ceil(1000 / SEND_PER_SECOND));
    }
  }
}

/** A presenter or a student connection over the browser's WebSocket and localStorage. */
export function connectRoom(url: string, role: RoomRole): RoomConnection {
  let storage: KeyValueStore | null = null;
  try {
    storage = globalThis.localStorage ?? null;
  } catch {
    storage = null;
  }
  // The DOM's handlers take Event subtypes; the client reads only `data` of a message.
  return new RoomConnection({ url, role, socket: (u) => new WebSocket(u) as unknown as SocketLike, storage });
}
