/**
 * One WebSocket connection to the room server, untrusted. In:
 *   - every frame is rate-limited (a token bucket: ROOM_LIMITS.messagesPerSecond, bursts of
 *     messageBurst), and its bytes and the time its checking took are charged to its source
 *     address (limits.ts: bytesPerSecond, checkMsPerSecond), so frames built to be slow to check
 *     run out of budget as fast as floods of cheap ones; a frame whose address is out of budget
 *     waits (its socket is paused, not read: TCP slows the sender down) until it has some again;
 *   - it must be a text frame, and is parsed by parseClientMessage (size, JSON, shape, schema),
 *     except a `create` carrying a task of its own: its JSON and shape are read here, and the rest
 *     (the schema, with the task's check, which can take seconds) runs in a worker thread with a
 *     budget per check and per address (taskChecks.ts), its answer handled in its turn;
 *   - over the rate a frame is dropped with `rate-limited` (at most one such error a second); the
 *     drops decay (messageBurst every 10 s), and a connection that drops more than messageBurst
 *     before they decay is closed;
 *   - messages are handled one after the other, in order; a handler that fails closes this
 *     connection alone, and the failure is logged.
 * Out: every send checks the socket's backlog (`bufferedAmount`): a socket over backlogHardBytes,
 * or over backlogBytes for stallMs, is dropped; replays wait for `drained()` between pages.
 * A connection that has not created, presented or joined within handshakeMs gets `timeout`.
 * A message begun must be complete within messageMs and in at most messageFragments frames (ws
 * holds every fragment of an unfinished message: 31 connections each leaving a 16,000-fragment
 * message unfinished held 80 MiB), else the connection is cut: `read` sees each TCP chunk's frame
 * headers before ws does (frameGate.ts). The heartbeat's pings carry a random payload, and only a
 * pong that echoes the last one counts as an answer (a client that sent pongs unasked stayed
 * "alive" while it held an unfinished message).
 */
import type { RawData, WebSocket } from 'ws';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ROOM_LIMITS, ROOM_PROTOCOL_VERSION, carriesOwnTask, checkClientDoc, readClientFrame, type ClientMessage, type ParsedMessage } from '../src/room/protocol';
import { FrameCounter } from './frameGate';
import { errorFrame } from './frames';
import type { RoomHub } from './hub';
import type { HubClient, Role } from './hubTypes';
import { Bucket, type AddressBudgets } from './limits';
import type { TaskChecks } from './taskChecks';

/** WebSocket close codes the server uses (4000-4999 are the application's). */
export const CLOSE = { rateLimited: 1008, serverError: 1011, goingAway: 1001, timeout: 4008, overQuota: 4029 } as const;

/** A `version` error for a create, present or join of another protocol version (a page older or newer than the server). */
function versionMismatch(text: string): string | null {
  if (text.length > ROOM_LIMITS.frameChars || !/"v"\s*:/.test(text)) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null) return null;
  const { t, v } = doc as { t?: unknown; v?: unknown };
  if ((t !== 'create' && t !== 'present' && t !== 'join') || typeof v !== 'number' || v === ROOM_PROTOCOL_VERSION) return null;
  return errorFrame('version', `This room server speaks version ${ROOM_PROTOCOL_VERSION} of the room protocol and this page version ${v}: reload the page, or use a room server of the same version as the lab.`);
}

/** Frames a connection may have waiting for its address's budget; more are dropped (the socket is paused meanwhile, so few arrive). */
const INBOX = 16;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Connection implements HubClient {
  role: Role = { kind: 'none' };
  creates = 0;
  /** Answered a heartbeat ping since the last one. */
  alive = true;
  /** The last heartbeat ping's payload: only a pong that echoes it counts. */
  private pingPayload: Buffer | null = null;
  /** When the message now being received began (null: none is). */
  private messageSince: number | null = null;
  private readonly frames: FrameCounter;
  private held: string[] | null = null;
  private heldChars = 0;
  private readonly bucket: Bucket;
  private dropped = 0;
  private droppedAt: number;
  private lastLimitNote = -Infinity;
  private queue: Promise<void> = Promise.resolve();
  private pendingChars = 0;
  /** When the backlog last went over limits.backlogBytes (null: it is under). */
  private backedUpSince: number | null = null;
  private ended = false;
  /** Frames received and not yet handled: they wait for their address's budget (limits.ts). */
  private readonly inbox: { data: RawData; isBinary: boolean; bytes: number }[] = [];
  private resumeTimer: ReturnType<typeof setTimeout> | null = null;
  private handshake: ReturnType<typeof setTimeout>;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: RoomHub,
    private readonly now: () => number,
    private readonly logAbout: (line: string, address: string) => void,
    readonly address: string,
    private readonly budgets: AddressBudgets,
    private readonly tasks: TaskChecks,
  ) {
    this.bucket = new Bucket(ROOM_LIMITS.messagesPerSecond, ROOM_LIMITS.messageBurst, now());
    this.frames = new FrameCounter(budgets.limits.messageFragments);
    this.droppedAt = now();
    this.handshake = this.armHandshake();
  }

  /** The handshake's clock: a connection with no room, and no create being checked, after handshakeMs is told `timeout`. */
  private armHandshake(): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      if (this.role.kind !== 'none' || this.checkingTasks > 0) return;
      this.refuse('timeout', `A connection must create, present or join a room within ${this.limits.handshakeMs / 1000} s.`, CLOSE.timeout);
    }, this.limits.handshakeMs);
    timer.unref?.();
    return timer;
  }

  private get limits() {
    return this.budgets.limits;
  }

  /** A log line about this connection's address (rate-limited per address: logLimit.ts). */
  private log(line: string): void {
    this.logAbout(line, this.address);
  }

  /** The heartbeat (the server's timer): a connection that did not answer the last ping is cut; otherwise a new ping. */
  beat(): void {
    if (!this.alive) {
      this.ended = true;
      this.ws.terminate();
      return;
    }
    this.alive = false;
    this.pingPayload = randomBytes(8);
    if (this.ws.readyState === this.ws.OPEN) this.ws.ping(this.pingPayload);
  }

  /** A pong came: an answer only if it echoes the last ping. */
  pong(data: Buffer): void {
    if (this.pingPayload && data.equals(this.pingPayload)) {
      this.alive = true;
      this.pingPayload = null;
    }
  }

  /**
   * A TCP chunk from the client, before ws reads it: true if ws may read it; false if it makes a
   * message of more than messageFragments frames (the connection is then cut, and ws never
   * holds those fragments).
   */
  read(chunk: Buffer): boolean {
    if (this.frames.feed(chunk)) {
      // A connection closing for another reason still reads its peer's close frame.
      this.checkMessage();
      return true;
    }
    if (!this.ended) this.cut(`a message in more than ${this.limits.messageFragments} fragments`);
    return false;
  }

  /**
   * Bytes came in, or the server's timer asks: a message unfinished for messageMs ends the
   * connection. Time the socket spends paused by the budgets (pump) does not count: the message
   * cannot finish while it is not read.
   */
  checkMessage(): void {
    if (this.ended) return;
    if (!this.frames.unfinished || this.resumeTimer) {
      this.messageSince = null;
      return;
    }
    const now = this.now();
    this.messageSince ??= now;
    if (now - this.messageSince >= this.limits.messageMs) this.cut(`a message unfinished after ${this.limits.messageMs / 1000} s`);
  }

  private cut(why: string): void {
    this.ended = true;
    this.log(`cut a connection from ${this.address} (${this.describe()}): ${why}`);
    this.ws.terminate();
  }

  send(frame: string): void {
    if (!this.held) return this.sendNow(frame);
    this.held.push(frame);
    this.heldChars += frame.length;
    if (this.heldChars > this.limits.backlogHardBytes) this.overflow();
  }

  sendNow(frame: string): void {
    if (this.ended || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount + frame.length > this.limits.backlogHardBytes) return this.overflow();
    this.ws.send(frame);
    this.checkBacklog();
  }

  /** Drop the socket if its backlog has stayed over the bound for stallMs (the server's timer calls this too). */
  checkBacklog(): void {
    if (this.ended) return;
    if (this.ws.bufferedAmount <= this.limits.backlogBytes) {
      this.backedUpSince = null;
      return;
    }
    const now = this.now();
    this.backedUpSince ??= now;
    if (now - this.backedUpSince >= this.limits.stallMs) this.overflow();
  }

  /** Its backlog is beyond bounds: the socket is cut at once (a close frame would wait behind the backlog). */
  private overflow(): void {
    if (this.ended) return;
    this.ended = true;
    this.log(`dropped a connection from ${this.address} (${this.describe()}): it did not read what it was sent (${this.ws.bufferedAmount} bytes queued)`);
    this.ws.terminate();
  }

  /**
   * Resolves true once the socket's backlog is under limits.drainedBytes, false if the
   * connection ends or does not drain within stallMs (it is then dropped).
   */
  async drained(): Promise<boolean> {
    const start = this.now();
    for (;;) {
      if (this.ended || this.ws.readyState !== this.ws.OPEN) return false;
      if (this.ws.bufferedAmount < this.limits.drainedBytes) return true;
      if (this.now() - start >= this.limits.stallMs) {
        this.overflow();
        return false;
      }
      await sleep(20);
    }
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const queued = this.held ?? [];
    this.held = null;
    this.heldChars = 0;
    for (const f of queued) this.sendNow(f);
  }

  open(): boolean {
    return !this.ended && this.ws.readyState === this.ws.OPEN;
  }

  buffered(): number {
    return this.ws.bufferedAmount;
  }

  /** Close with a close frame; cut the socket if the peer has not closed within 2 s (it may not be reading). */
  close(code: number, reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), 2000).unref?.();
  }

  /** An error the client is told, logged with its address, then the connection closed. */
  refuse(code: Parameters<typeof errorFrame>[0], message: string, closeCode: number): void {
    this.log(`refused ${this.address} (${this.describe()}): ${code}: ${message}`);
    this.sendNow(errorFrame(code, message));
    this.close(closeCode, code);
  }

  /** Who this is, for the log: no secrets, a room's id only by its first characters. */
  private describe(): string {
    const r = this.role;
    if (r.kind === 'presenter') return `presenter of ${r.room.id.slice(0, 4)}…`;
    if (r.kind === 'student') return `seat ${r.seat} of ${r.room.id.slice(0, 4)}…`;
    return 'no room';
  }

  private drop(now: number, why: string): void {
    this.dropped = Math.max(0, this.dropped - ((now - this.droppedAt) / 10_000) * ROOM_LIMITS.messageBurst) + 1;
    this.droppedAt = now;
    if (this.dropped > ROOM_LIMITS.messageBurst) {
      this.refuse('rate-limited', `Too many messages after being told to slow down (${why}): closing this connection.`, CLOSE.rateLimited);
    } else if (now - this.lastLimitNote >= 1000) {
      this.lastLimitNote = now;
      this.log(`rate-limited ${this.address} (${this.describe()}): ${why}`);
      this.sendNow(errorFrame('rate-limited', `At most ${ROOM_LIMITS.messagesPerSecond} messages a second (bursts of ${ROOM_LIMITS.messageBurst}), and a limited time a second to check them: this message and any more this second are dropped (${why}).`));
    }
  }

  /**
   * A frame from the client. Never throws. Over the message rate it is dropped; otherwise it waits
   * in the inbox (at most INBOX frames) until its address has the bytes and checking time for it.
   */
  receive(data: RawData, isBinary: boolean): void {
    if (this.ended) return;
    const now = this.now();
    if (!this.bucket.take(now)) return this.drop(now, 'too many messages');
    if (this.inbox.length >= INBOX) return this.drop(now, 'too many messages waiting for this address to have budget');
    const bytes = Buffer.isBuffer(data) ? data.length : Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
    this.inbox.push({ data, isBinary, bytes });
    this.pump();
  }

  /**
   * Handle the inbox's frames while the address has budget; when it has none, stop reading the
   * socket (TCP slows the sender down: nothing is dropped) and go on when it has some again.
   */
  private pump(): void {
    while (this.inbox.length > 0 && !this.ended && !this.resumeTimer) {
      const wait = this.budgets.mayReceive(this.address, this.inbox[0].bytes);
      if (wait > 0) {
        this.ws.pause();
        this.resumeTimer = setTimeout(() => {
          this.resumeTimer = null;
          // The clock of an unfinished message starts again: it could not arrive while the socket was paused.
          this.messageSince = null;
          if (this.ended) return;
          this.ws.resume();
          this.pump();
        }, Math.min(5000, Math.max(20, wait)));
        this.resumeTimer.unref?.();
        return;
      }
      const { data, isBinary } = this.inbox.shift()!;
      this.handleFrame(data, isBinary);
    }
  }

  private handleFrame(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.sendNow(errorFrame('bad-message', 'Messages are JSON in text frames, not binary frames.'));
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    if (this.pendingChars + text.length > this.limits.pendingChars) return this.drop(this.now(), 'too many messages waiting to be handled');
    const t0 = performance.now();
    const read = readClientFrame(text);
    if (read.ok && carriesOwnTask(read.doc)) {
      this.budgets.checked(this.address, performance.now() - t0);
      return this.checkTask(text);
    }
    const parsed = read.ok ? checkClientDoc(read.doc) : read;
    // A refused create, present or join may be a page of another version: worth a second look (and charged too).
    const refusal = parsed.ok ? null : (versionMismatch(text) ?? errorFrame(parsed.code, parsed.message));
    this.budgets.checked(this.address, performance.now() - t0);
    if (refusal) return this.sendNow(refusal);
    if (!parsed.ok) return;
    this.enqueue(text.length, Promise.resolve(parsed));
  }

  /** Creates of this connection whose task is being checked (taskChecks.ts). */
  private checkingTasks = 0;

  /**
   * A create carrying a task of its own: checked in the worker (taskChecks.ts), its time charged
   * to the address's task budget, and handled in its turn among this connection's messages.
   */
  private checkTask(text: string): void {
    const wait = this.budgets.taskCheckWait(this.address);
    const tooMany = wait === 0 ? null : `this address has used its ${this.limits.taskCheckMsPerMinute / 1000} s a minute of checking tasks: try again in ${Math.ceil(wait / 1000)} s`;
    const check = tooMany ?? this.tasks.check(this.address, text);
    if (typeof check === 'string') {
      this.log(`refused a task from ${this.address} (${this.describe()}): ${check}`);
      return this.sendNow(errorFrame('over-quota', check));
    }
    this.checkingTasks++;
    const parsed = check.then(({ parsed: p, ms }) => {
      this.budgets.checkedTask(this.address, ms);
      if (--this.checkingTasks === 0 && this.role.kind === 'none' && !this.ended) {
        clearTimeout(this.handshake);
        this.handshake = this.armHandshake();
      }
      if (!p.ok) this.sendNow(versionMismatch(text) ?? errorFrame(p.code, p.message));
      return p;
    });
    this.enqueue(text.length, parsed);
  }

  /** Handle a parsed message after this connection's earlier ones (`chars`: its frame's, counted as pending meanwhile). */
  private enqueue(chars: number, parsed: Promise<ParsedMessage<ClientMessage>>): void {
    this.pendingChars += chars;
    let msg: ClientMessage | null = null;
    this.queue = this.queue
      .then(() => parsed)
      .then((p) => {
        if (!p.ok || this.ended) return;
        msg = p.message;
        return this.hub.handle(this, p.message);
      })
      .catch((e: unknown) => {
        // The hub answers every bad request itself: what gets here is a failure of ours (the store,
        // a bug). It ends this connection only; the client may connect again.
        this.log(`error handling a ${msg?.t ?? 'message'} from ${this.address} (${this.describe()}): ${e instanceof Error ? e.message : String(e)}`);
        // `server-error`, not a refusal: the page tries again (a full disk is over-quota, said in hub.ts).
        this.sendNow(errorFrame('server-error', 'The room server could not store or handle that message (its log says why): nothing of it was kept; connect again and send it again.'));
        this.close(CLOSE.serverError, 'server error');
      })
      .finally(() => (this.pendingChars -= chars));
  }

  closed(): void {
    this.ended = true;
    this.inbox.length = 0;
    clearTimeout(this.handshake);
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.hub.disconnected(this);
  }
}
