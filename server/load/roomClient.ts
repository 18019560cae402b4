/**
 * A headless room client in Node (a plain `ws` WebSocket): what the load check's students and
 * presenter are, and what the server's tests talk through. Every frame it receives is checked with
 * the page's own parser (parseServerMessage) unless `check` is off; a frame the page would refuse
 * is recorded in `refused`.
 */
import { WebSocket } from 'ws';
import { parseServerMessage, type ClientMessage, type ServerMessage } from '../../src/room/protocol';

/** How long a client waits for an answer that must come, at most (waitAny). */
export const ANSWER_MS = 60_000;

let devices = 0;

/**
 * A loopback address no other client of this process has used: 127.1.0.1, 127.1.0.2, ... (Linux
 * routes all of 127.0.0.0/8 to the loopback interface, so each is a distinct source address).
 */
export function nextDevice(): string {
  const n = ++devices;
  return `127.${1 + ((n >> 16) & 0x7f)}.${(n >> 8) & 0xff}.${n & 0xff}`;
}

/** A fresh loopback source address for a server on loopback; none (the system's choice) for another host. */
export function deviceFor(url: string): string | undefined {
  return /^wss?:\/\/(127\.|localhost[:/])/.test(url) ? nextDevice() : undefined;
}

export class RoomClient {
  readonly messages: ServerMessage[] = [];
  readonly refused: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private listeners = new Set<(m: ServerMessage) => void>();

  private constructor(
    readonly ws: WebSocket,
    private readonly check: boolean,
    private readonly keep: boolean,
  ) {
    this.closed = new Promise((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('error', () => {});
    ws.on('message', (data) => {
      const text = data.toString();
      let m: ServerMessage;
      if (this.check) {
        const r = parseServerMessage(text);
        if (!r.ok) {
          this.refused.push(`${r.code}: ${r.message}`);
          return;
        }
        m = r.message;
      } else m = JSON.parse(text) as ServerMessage;
      if (this.keep) this.messages.push(m);
      for (const l of this.listeners) l(m);
    });
  }

  /**
   * check: parse as the page does; keep: keep every message in `messages` (off: only listeners
   * see them); from: the local address to connect from (another 127.x.y.z stands for another
   * device: the server's budgets are per address), by default a fresh one (nextDevice).
   */
  static connect(url: string, { check = true, keep = true, from = deviceFor(url) }: { check?: boolean; keep?: boolean; from?: string } = {}): Promise<RoomClient> {
    return new Promise((done, fail) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: from });
      ws.once('open', () => done(new RoomClient(ws, check, keep)));
      ws.once('error', fail);
    });
  }

  send(m: ClientMessage): void {
    this.ws.send(JSON.stringify(m));
  }

  /** Send anything, as a text frame (a string) or a binary one (a Buffer): for the junk tests. */
  sendRaw(data: string | Buffer): void {
    this.ws.send(data, { binary: Buffer.isBuffer(data) });
  }

  on(listener: (m: ServerMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first message from index `after` on that matches, waiting for it if none has come yet;
   * rejects when the connection closes, or after `timeoutMs`: a bound that only stops a hung test
   * (ANSWER_MS, a minute; on a machine at load 20 an answer can take seconds), never one a test checks.
   */
  waitAny(match: (m: ServerMessage) => boolean, { after = 0, timeoutMs = ANSWER_MS } = {}): Promise<ServerMessage> {
    const seen = this.messages.slice(after).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((done, fail) => {
      const timer = setTimeout(() => {
        off();
        fail(new Error(`no such message within ${timeoutMs} ms; got: ${this.messages.map((m) => (m.t === 'error' ? `error ${m.code}` : m.t)).join(', ')}`));
      }, timeoutMs);
      const off = this.on((m) => {
        if (!match(m)) return;
        clearTimeout(timer);
        off();
        done(m);
      });
      void this.closed.then(({ code }) => {
        clearTimeout(timer);
        off();
        fail(new Error(`the connection closed (${code}) before the message came`));
      });
    });
  }

  /** waitAny for a message of type `t`. */
  waitFor<T extends ServerMessage['t']>(t: T, match: (m: Extract<ServerMessage, { t: T }>) => boolean = () => true, opts: { after?: number; timeoutMs?: number } = {}): Promise<Extract<ServerMessage, { t: T }>> {
    type M = Extract<ServerMessage, { t: T }>;
    return this.waitAny((m) => m.t === t && match(m as M), opts) as Promise<M>;
  }

  close(): Promise<unknown> {
    this.ws.close();
    return this.closed;
  }
}
