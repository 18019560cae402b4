/**
 * The room server: HTTP (the built app, static.ts) and the WebSocket endpoint /room on one port,
 * the hub (hub.ts) over the store (store.ts) in `dataDir`, and three timers: the students' feed
 * (once a second), the expiry sweep, and a heartbeat that drops connections that stopped
 * answering pings (so a seat whose laptop slept shows as disconnected).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ROOM_LIMITS } from '../src/room/protocol';
import { CLOSE, Connection } from './connection';
import { FEED_BYTES_PER_SECOND } from './feed';
import { RoomHub } from './hub';
import { staticHandler } from './static';
import { RoomStore } from './store';

export const ROOM_PATH = '/room';

export interface RoomServerOptions {
  port: number;
  host: string;
  dataDir: string;
  ttlHours: number;
  /** The built app to serve (null: none). */
  distDir: string | null;
  /** Flush every write to the disk (survives a power cut), not only to the operating system. */
  fsync?: boolean;
  maxRooms?: number;
  now?: () => number;
  /** The students' feed: how often (ms) and each student's budget (bytes a second; feed.ts). */
  feedMs?: number;
  feedBytesPerSecond?: number;
  sweepMs?: number;
  heartbeatMs?: number;
  roomDebounceMs?: number;
  log?: (line: string) => void;
}

export interface RoomServer {
  port: number;
  hub: RoomHub;
  store: RoomStore;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * The most bytes a frame may have: ROOM_LIMITS.frameChars characters of JSON are at most 3 bytes
 * each in UTF-8. A larger frame closes the connection (ws: 1009); one between the two gets a
 * `too-large` error.
 */
export const MAX_PAYLOAD_BYTES = ROOM_LIMITS.frameChars * 3;

export async function startRoomServer(o: RoomServerOptions): Promise<RoomServer> {
  const now = o.now ?? Date.now;
  const log = o.log ?? (() => {});
  const store = await RoomStore.open(o.dataDir, { fsync: o.fsync });
  const hub = await RoomHub.load(store, {
    ttlMs: o.ttlHours * 3600_000,
    now,
    maxRooms: o.maxRooms ?? 1000,
    feedBytesPerSecond: o.feedBytesPerSecond ?? FEED_BYTES_PER_SECOND,
    roomDebounceMs: o.roomDebounceMs ?? 200,
    log,
  });
  const http = createServer(await staticHandler(o.distDir));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, perMessageDeflate: false });
  const conns = new Map<WebSocket, Connection>();

  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== ROOM_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = new Connection(ws, hub, now, log);
      conns.set(ws, conn);
      ws.on('message', (data, isBinary) => conn.receive(data, isBinary));
      ws.on('pong', () => (conn.alive = true));
      ws.on('error', () => ws.terminate());
      ws.on('close', () => {
        conns.delete(ws);
        conn.closed();
      });
    });
  });
  http.on('clientError', (_e, socket) => socket.destroy());

  const timers = [
    setInterval(() => void hub.flushFeeds().catch((e: unknown) => log(`feed: ${String(e)}`)), o.feedMs ?? 1000),
    setInterval(() => void hub.sweep().catch((e: unknown) => log(`sweep: ${String(e)}`)), o.sweepMs ?? 60_000),
    setInterval(() => {
      for (const [ws, conn] of conns) {
        if (!conn.alive) ws.terminate();
        else {
          conn.alive = false;
          ws.ping();
        }
      }
    }, o.heartbeatMs ?? 30_000),
  ];

  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(o.port, o.host, () => {
      http.off('error', fail);
      done();
    });
  });

  let closing: Promise<void> | null = null;
  return {
    port: (http.address() as AddressInfo).port,
    hub,
    store,
    connections: () => conns.size,
    close() {
      closing ??= (async () => {
        for (const t of timers) clearInterval(t);
        hub.stop();
        for (const ws of conns.keys()) ws.close(CLOSE.goingAway, 'server closing');
        await new Promise<void>((done) => wss.close(() => done()));
        // Give the closing handshakes a moment, then cut whatever is left.
        await new Promise((r) => setTimeout(r, 50));
        for (const ws of conns.keys()) ws.terminate();
        http.closeAllConnections();
        await new Promise<void>((done) => http.close(() => done()));
        // A write still in flight now fails and is never acknowledged: the client resends it.
        await store.close();
      })();
      return closing;
    },
  };
}
