/**
 * One WebSocket connection to the room server, untrusted: every frame is rate-limited (a token
 * bucket: ROOM_LIMITS.messagesPerSecond, bursts of messageBurst), must be a text frame, and is
 * parsed by the protocol's parseClientMessage (size, JSON, schema) before the hub sees it. A
 * message over the rate is dropped with a `rate-limited` error (at most one a second); a connection
 * that keeps sending regardless is closed. Messages are handled one after the other, in order.
 */
import type { RawData, WebSocket } from 'ws';
import { ROOM_LIMITS, ROOM_PROTOCOL_VERSION, parseClientMessage } from '../src/room/protocol';
import { errorFrame } from './frames';
import type { HubClient, Role, RoomHub } from './hub';
import { TokenBucket } from './rateLimit';

/** WebSocket close codes the server uses (4000-4999 are the application's). */
export const CLOSE = { rateLimited: 1008, serverError: 1011, goingAway: 1001 } as const;

/** A `version` error for a create, present or join of another protocol version (a page older or newer than the server). */
function versionMismatch(text: string): string | null {
  if (text.length > ROOM_LIMITS.frameChars) return null;
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

export class Connection implements HubClient {
  role: Role = { kind: 'none' };
  creates = 0;
  /** Answered a heartbeat ping since the last one. */
  alive = true;
  private held: string[] | null = null;
  private readonly bucket: TokenBucket;
  private dropped = 0;
  private lastLimitNote = -Infinity;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: RoomHub,
    private readonly now: () => number,
    private readonly log: (line: string) => void,
  ) {
    this.bucket = new TokenBucket(ROOM_LIMITS.messagesPerSecond, ROOM_LIMITS.messageBurst, now());
  }

  send(frame: string): void {
    if (this.held) this.held.push(frame);
    else this.sendNow(frame);
  }

  sendNow(frame: string): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(frame);
  }

  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const queued = this.held ?? [];
    this.held = null;
    for (const f of queued) this.sendNow(f);
  }

  buffered(): number {
    return this.ws.bufferedAmount;
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  /** A frame from the client. Never throws. */
  receive(data: RawData, isBinary: boolean): void {
    const now = this.now();
    if (!this.bucket.take(now)) {
      this.dropped++;
      if (this.dropped > ROOM_LIMITS.messageBurst) {
        this.sendNow(errorFrame('rate-limited', 'Too many messages after being told to slow down: closing this connection.'));
        this.close(CLOSE.rateLimited, 'rate limit');
      } else if (now - this.lastLimitNote >= 1000) {
        this.lastLimitNote = now;
        this.sendNow(errorFrame('rate-limited', `At most ${ROOM_LIMITS.messagesPerSecond} messages a second (bursts of ${ROOM_LIMITS.messageBurst}): this message and any more this second are dropped.`));
      }
      return;
    }
    if (isBinary) return this.sendNow(errorFrame('bad-message', 'Messages are JSON in text frames, not binary frames.'));
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.sendNow(versionMismatch(text) ?? errorFrame(parsed.code, parsed.message));
    const msg = parsed.message;
    this.queue = this.queue
      .then(() => this.hub.handle(this, msg))
      .catch((e: unknown) => {
        // Only the store failing gets here (the hub answers every bad request itself).
        this.log(`error handling a ${msg.t}: ${e instanceof Error ? e.message : String(e)}`);
        this.close(CLOSE.serverError, 'server error');
      });
  }

  closed(): void {
    this.hub.disconnected(this);
  }
}
