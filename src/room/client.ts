/**
 * Class mode's client: one WebSocket to the room server (protocol.ts) for a presenter or a student,
 * kept alive across a flaky class Wi-Fi (the socket, its reconnects with backoff, its pings and the
 * parsing of every frame: roomSocket.ts). No React and no DOM beyond what is injected (a socket
 * factory, a storage, timers), so the tests drive it with a fake socket.
 *
 *   - every (re)connection says its hello again: `create` (once) or `present {room, key}` for the
 *     presenter, `join {room, seat}` for a student (the seat token from the secrets store, so a
 *     reload or a lost connection takes the same seat);
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
 * One seat in two tabs: a page that opens a seat another tab holds is refused
 * (`seat-in-use`), and one whose seat another tab took is closed with 4001; either way the status
 * is 'elsewhere' and nothing reconnects by itself (two tabs reconnecting would take the seat from
 * each other forever), until takeOver() ("use this tab here") joins with `takeover`. A tab that
 * held the seat reconnects with `takeover` too: after a network drop the server may still hold the
 * stale connection of this very tab, and so does the same tab reloaded (a mark in its own
 * sessionStorage, secrets.ts readTabSeat): the server may not have seen its old connection close.
 *
 * What an error from the server does (a refused event, a store that failed, a room that cannot be
 * had): refusals.ts. The types: clientTypes.ts.
 */
import type { RecordedEvent } from '../share/record';
import { type RoomErrorCode, type RoomInfo, type Secret, type SeatInfo, type ServerMessage, ROOM_PROTOCOL_VERSION } from './protocol';
import { AnswerExchanges, type Answers, type ExchangeKind } from './exchanges';
import { SEND_PER_SECOND, SeatOutbox } from './seatOutbox';
import { errorText } from './errors';
import { SHORT, errorAction } from './refusals';
import type { SocketLike } from './reconnect';
import { RoomSocket } from './roomSocket';
import { type KeyValueStore, readSecrets, readTabSeat, writeSecrets, writeTabSeat } from './secrets';
import type { RoomClientOptions, RoomRole } from './clientTypes';

export type { CreateRoom, RoomClientEvent, RoomClientOptions, RoomRole, RoomStatus } from './clientTypes';
export { BACKOFF_CAP_MS, BACKOFF_MS, PING_MS, type SocketFactory, type SocketLike, type Timers, unreachableText } from './reconnect';

/** The server's close codes (server/hub.ts): a seat taken over by another connection, a seat removed. */
export const TAKEN_OVER = 4001;
export const SEAT_REMOVED = 4003;

export class RoomConnection extends RoomSocket {
  private role: RoomRole;
  private readonly storage: KeyValueStore | null;
  private paceTimer: unknown = null;

  room: RoomInfo | null = null;
  roomId: Secret | null = null;
  seat: SeatInfo | null = null;
  /** A presenter: where other devices reach the server (the server's `addresses`; [] until then). */
  lanOrigins: string[] = [];

  // A student's stream: the run's events by position, how many the server holds, the next to send.
  private outbox: SeatOutbox;
  /** Why the seat's events stopped going to the room (null: they go). */
  private streamStopped: string | null = null;
  /** A student: join with `takeover` (this tab held the seat last, or its student chose this tab). */
  private takeover = false;
  private tabStorage: KeyValueStore | null;

  // Paired rooms.
  private exchanges = new AnswerExchanges();

  constructor(opts: RoomClientOptions) {
    super(opts);
    this.role = opts.role;
    this.storage = opts.storage;
    this.roomId = 'room' in opts.role ? opts.role.room : null;
    this.tabStorage = opts.tabStorage ?? null;
    // This very tab held the seat before it was reloaded: its old connection is no other tab's.
    if (opts.role.kind === 'student' && readTabSeat(this.tabStorage, opts.url, opts.role.room)) this.takeover = true;
    this.outbox = new SeatOutbox(this.timers.now());
    this.connect();
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
    this.backoff.stored();
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

  // ---- the connection (roomSocket.ts's hooks)

  protected get streaming(): boolean {
    return this.streamStopped === null;
  }

  protected stopping(): void {
    if (this.paceTimer !== null) this.timers.clearTimeout(this.paceTimer);
    this.paceTimer = null;
  }

  protected closedWith(code: number | undefined): boolean {
    if (this.role.kind !== 'student') return false;
    if (code === TAKEN_OVER) this.elsewhere(errorText('seat-in-use', ''));
    // Told by an error frame first, as a rule; the close alone says the same.
    else if (code === SEAT_REMOVED) this.serverError('seat-removed', '');
    else return false;
    return true;
  }

  protected hello(): void {
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
    // Another tab holds the seat: a reload of this one asks again, as any other tab does.
    if (this.role.kind === 'student') writeTabSeat(this.tabStorage, this.url, this.role.room, null);
    // No socket and no timer is left, so nothing reconnects; close() still ends it for good.
    this.dropSocket(1000, 'seat open elsewhere');
    this.setStatus('elsewhere', text);
  }

  // ---- what the server says

  protected message(m: ServerMessage): void {
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
      case 'alone':
        return this.nowAlone(m.seat);
      case 'ack':
        // A write got through: a failing store (server-error) holds the backoff no more.
        this.backoff.stored();
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

  private online(): void {
    this.welcomed = true;
    this.backoff.online();
    // A stream the server stopped stays said (the run goes on without the room).
    this.setStatus('online', this.streamStopped);
  }

  private seated(seat: SeatInfo, token: Secret, stored: number): void {
    if (this.role.kind !== 'student') return this.ignored('seat');
    writeSecrets(this.storage, this.url, this.role.room, { ...readSecrets(this.storage, this.url, this.role.room), seat: { index: seat.index, token } });
    // Switched to train alone while this page was away (it missed `alone`): the same restart.
    const switched = this.seat?.index === seat.index && this.seat.alone !== true && seat.alone === true && stored === 0;
    this.seat = seat;
    // This tab holds the seat now: its own reconnects, and its reload, take it back from a stale connection.
    this.takeover = true;
    writeTabSeat(this.tabStorage, this.url, this.role.room, seat.index);
    if (switched) this.restart();
    // The server's count is the truth: send on from there (events it holds are never sent again).
    this.outbox.seated(stored);
    this.online();
    this.emit({ type: 'seat', seat, stored });
    if (switched) this.emit({ type: 'alone', seat });
    this.emit({ type: 'acked', acked: this.outbox.acked });
    for (const x of this.exchanges.kept()) this.sendNow({ t: 'exchange', step: x.step, kind: x.kind, answers: x.answers });
    this.pump();
  }

  /**
   * The room switched this paired seat to train both members itself (its partner's seat was freed
   * and not taken again) and holds none of its events or answers any more: the stream starts over
   * from position 0, the answers kept for the partner are dropped (waiters are rejected: nobody
   * will answer them), and the page is told (`alone`) to start the pair's run from its base.
   */
  private nowAlone(seat: SeatInfo): void {
    if (this.role.kind !== 'student' || this.seat?.index !== seat.index || !seat.alone) return this.ignored('alone');
    this.seat = seat;
    this.restart();
    this.emit({ type: 'alone', seat });
    this.emit({ type: 'acked', acked: 0 });
  }

  /** The seat's run starts again: no event held, none acked, no answer kept, the stream going. */
  private restart(): void {
    this.outbox = new SeatOutbox(this.timers.now());
    this.exchanges.end(new Error('your partner left: this seat now trains both members itself'));
    this.exchanges = new AnswerExchanges();
    const stopped = this.streamStopped !== null;
    this.streamStopped = null;
    // A stream the room had stopped (the member part's) goes again: the new run is another.
    if (stopped) this.setStatus(this.status, null);
  }

  /** An error from the server: what it does is refusals.ts's table. */
  private serverError(code: RoomErrorCode, message: string): void {
    this.told = true;
    const text = errorText(code, SHORT.includes(code) ? '' : message);
    const student = this.role.kind === 'student';
    switch (errorAction(code, { student, welcomed: this.welcomed, streamStopped: this.streamStopped !== null, inFlight: this.outbox.inFlight })) {
      case 'already-said':
        return;
      case 'event-refused':
        return this.eventRefused(text);
      case 'store-failed':
        // A seated student's event or answers: sent again after the rejoin, the backoff growing until one is stored.
        if (student && this.welcomed) this.backoff.serverFailed();
        return this.rejoin(text);
      case 'new-seat':
        if (this.newSeat(text)) return;
        break;
      case 'elsewhere':
        // Refused (another tab holds the seat) or taken (another tab chose to hold it): wait here.
        return this.elsewhere(text);
      case 'removed': {
        // The seat is gone for good: its token with it, so a reload does not offer it again.
        const room = (this.role as { room: Secret }).room;
        writeSecrets(this.storage, this.url, room, { key: readSecrets(this.storage, this.url, room).key });
        return this.fail(text);
      }
      case 'fail':
        return this.fail(text);
      case 'rejoin':
        return this.rejoin(text);
      case 'say':
        break;
    }
    // Refused once (rate, size, a bad message): said, and the connection goes on.
    this.error = text;
    this.emit({ type: 'status', status: this.status, error: text, streaming: this.streaming });
  }

  /** The stored seat is not this room's any more: forget it and join for a new one (false: no seat was stored). */
  private newSeat(text: string): boolean {
    const room = (this.role as { room: Secret }).room;
    const secrets = readSecrets(this.storage, this.url, room);
    if (!secrets.seat) return false;
    writeSecrets(this.storage, this.url, room, { key: secrets.key });
    this.error = text;
    this.hello();
    return true;
  }

  // ---- the event stream

  /**
   * The server refused the first unacknowledged event: join again and send it once more (a
   * refusal of the moment passes); refused again, the stream stops for good and the page says so.
   */
  private eventRefused(text: string): void {
    const at = this.outbox.acked;
    if (!this.outbox.refused()) return this.rejoin(text);
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
  // Typed here, not from the DOM's globals: Node code (the class-view benchmark) compiles the page's store, which names this file.
  const store = (name: 'localStorage' | 'sessionStorage'): KeyValueStore | null => {
    try {
      return (globalThis as Partial<Record<typeof name, KeyValueStore>>)[name] ?? null;
    } catch {
      return null;
    }
  };
  // The DOM's handlers take Event subtypes; the client reads only `data` of a message.
  return new RoomConnection({ url, role, socket: (u) => new WebSocket(u) as unknown as SocketLike, storage: store('localStorage'), tabStorage: store('sessionStorage') });
}
