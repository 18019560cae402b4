/**
 * A hostile room client from Node (the `ws` package, as any script could be): it sends whatever
 * it is given, text or binary, and keeps what the server answers, to check that junk gets errors
 * in words (or closes that one connection) and that the class goes on.
 */
import { WebSocket } from 'ws';

export interface ServerReply {
  t: string;
  code?: string;
  message?: string;
  [k: string]: unknown;
}

export class JunkClient {
  readonly replies: ServerReply[] = [];
  readonly closed: Promise<{ code: number }>;
  private waiters = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((done) => ws.on('close', (code) => done({ code })));
    ws.on('error', () => {});
    ws.on('message', (data) => {
      try {
        this.replies.push(JSON.parse(data.toString()) as ServerReply);
      } catch {
        this.replies.push({ t: 'unparsable', message: data.toString().slice(0, 200) });
      }
      for (const w of this.waiters) w();
    });
    void this.closed.then(() => {
      for (const w of this.waiters) w();
    });
  }

  static connect(url: string): Promise<JunkClient> {
    return new Promise((done, fail) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.once('open', () => done(new JunkClient(ws)));
      ws.once('error', fail);
    });
  }

  /** A text frame (a string) or a binary one (a Buffer), as is. */
  send(data: string | Buffer): void {
    this.ws.send(data, { binary: Buffer.isBuffer(data) });
  }

  get errors(): ServerReply[] {
    return this.replies.filter((r) => r.t === 'error');
  }

  /** Wait until `count` replies match (rejects after timeoutMs, or if the connection closes first). */
  async waitFor(match: (r: ServerReply) => boolean, count = 1, timeoutMs = 20_000): Promise<ServerReply[]> {
    const found = () => this.replies.filter(match);
    if (found().length >= count) return found();
    let isClosed = false;
    void this.closed.then(() => (isClosed = true));
    return new Promise((done, fail) => {
      const timer = setTimeout(() => finish(new Error(`${count} such replies did not come within ${timeoutMs} ms; got: ${this.summary()}`)), timeoutMs);
      const check = () => {
        if (found().length >= count) finish(null);
        else if (isClosed) finish(new Error(`the connection closed before ${count} such replies came; got: ${this.summary()}`));
      };
      const finish = (e: Error | null) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (e) fail(e);
        else done(found());
      };
      this.waiters.add(check);
    });
  }

  /** Ping, and wait for the pong: frames are answered in order, so everything sent before is answered. */
  async settle(): Promise<void> {
    const pongs = this.replies.filter((r) => r.t === 'pong').length;
    this.send(JSON.stringify({ t: 'ping' }));
    await this.waitFor((r) => r.t === 'pong', pongs + 1);
  }

  summary(): string {
    return this.replies.map((r) => (r.t === 'error' ? `error ${r.code}` : r.t)).join(', ');
  }

  close(): Promise<unknown> {
    this.ws.close();
    return this.closed;
  }
}
