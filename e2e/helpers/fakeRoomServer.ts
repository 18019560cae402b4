/**
 * A room server somebody else runs: a plain `ws` server on another loopback
 * address (127.0.0.2 stands for another device on the class's network) that answers nothing and
 * keeps every connection and every frame a page sends it, so a test can check that no presenter
 * key or seat token ever reaches it, and that no page connects to it before its user said yes.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export class FakeRoomServer {
  /** Connections opened to it (the upgrade went through), in order. */
  connections = 0;
  /** Every text frame any page sent it. */
  readonly frames: string[] = [];

  private constructor(private readonly wss: WebSocketServer) {
    wss.on('connection', (ws) => {
      this.connections++;
      ws.on('error', () => {});
      ws.on('message', (data) => this.frames.push(data.toString()));
    });
  }

  /** Listen on `host` (another loopback address than the lab's) at a port of the OS's choice. */
  static start(host = '127.0.0.2'): Promise<FakeRoomServer> {
    return new Promise((done, fail) => {
      const wss = new WebSocketServer({ host, port: 0, path: '/room' });
      wss.once('error', fail);
      wss.once('listening', () => done(new FakeRoomServer(wss)));
    });
  }

  /** The address a crafted join link names. */
  get url(): string {
    const a = this.wss.address() as AddressInfo;
    return `ws://${a.address}:${a.port}/room`;
  }

  /** Everything it was sent, as one string (to search for a secret in). */
  get wire(): string {
    return this.frames.join('\n');
  }

  close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    return new Promise((done) => this.wss.close(() => done()));
  }
}
