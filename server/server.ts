/**
 * The room server: HTTP (the built app, static.ts) and the WebSocket endpoint /room on one port,
 * the hub (hub.ts) over the store (store.ts) in `dataDir`, and three timers: the students' feed
 * (once a second, with each connection's backlog check), the expiry sweep, and a heartbeat that
 * drops connections that stopped answering pings (so a seat whose laptop slept shows as
 * disconnected). Every socket has an error handler from the moment it exists (a client that
 * resets its connection mid-upgrade once ended the process). Sockets are counted per source
 * address when they are accepted, before they send anything, and on the whole server (1,100 idle
 * sockets of one address that never upgraded once kept new students out); a socket must send a
 * whole request within upgradeMs; WebSocket connections are counted again per address (limits.ts).
 * Every logged line has its control characters escaped (a room's name once rewrote the operator's
 * terminal), and lines about an address are rate-limited per address (logLimit.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_PARTNER_WAIT_S, ROOM_LIMITS } from '../src/room/protocol';
import { CLOSE, Connection } from './connection';
import { FEED_BYTES_PER_SECOND } from './feed';
import { RoomHub } from './hub';
import { AddressBudgets, DEFAULT_LIMITS, type ServerLimits } from './limits';
import { LogLimiter } from './logLimit';
import { lanOrigins, safeLogLine } from './operator';
import { readJoinCode } from '../src/room/joinCode';
import { TokenBucket } from './rateLimit';
import { staticHandler } from './static';
import { RoomStore } from './store';
import { TaskChecks } from './taskChecks';

export const ROOM_PATH = '/room';

export interface RoomServerOptions {
  port: number;
  host: string;
  dataDir: string;
  ttlHours: number;
  /** The built app to serve (null: none). */
  distDir: string | null;
  /** Flush each write an acknowledgement promises to the disk (survives a power cut; default true). */
  fsync?: boolean;
  /** Budgets (limits.ts), any of them. */
  limits?: Partial<ServerLimits>;
  /** Behind a reverse proxy on this machine: a connection from loopback counts as the address its X-Forwarded-For ends with. */
  proxied?: boolean;
  maxRooms?: number;
  now?: () => number;
  /** The students' feed: how often (ms) and each student's budget (bytes a second; feed.ts). */
  feedMs?: number;
  feedBytesPerSecond?: number;
  sweepMs?: number;
  heartbeatMs?: number;
  roomDebounceMs?: number;
  /** How long the seat of a student who left before the room started is kept for them (ms). */
  seatGraceMs?: number;
  /** How long a seat of a running paired room waits for a partner before it trains alone (ms; default 20 s). */
  partnerWaitMs?: number;
  log?: (line: string) => void;
}

export interface RoomServer {
  port: number;
  hub: RoomHub;
  store: RoomStore;
  /** Connections open now. */
  connections(): number;
  /** TCP sockets open now (counted at accept). */
  sockets(): number;
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
  const rawLog = o.log ?? (() => {});
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...o.limits };
  const logLimiter = new LogLimiter((line) => rawLog(safeLogLine(line)), { perAddress: limits.logLinesPerAddress, total: limits.logLines, windowMs: limits.logWindowMs }, now);
  /** A line for the operator; one about a client's address counts against that address's log budget. */
  const log = (line: string, address?: string) => logLimiter.line(line, address ?? null);
  const budgets = new AddressBudgets(limits, now);
  const store = await RoomStore.open(o.dataDir, { fsync: o.fsync ?? true });
  let port = 0;
  const hub = await RoomHub.load(store, {
    limits,
    origins: () => lanOrigins(o.host, port),
    mayJoin: (address) => budgets.join(address),
    seatGraceMs: o.seatGraceMs ?? 15_000,
    partnerWaitMs: o.partnerWaitMs ?? DEFAULT_PARTNER_WAIT_S * 1000,
    ttlMs: o.ttlHours * 3600_000,
    now,
    maxRooms: o.maxRooms ?? 1000,
    feedBytesPerSecond: o.feedBytesPerSecond ?? FEED_BYTES_PER_SECOND,
    roomDebounceMs: o.roomDebounceMs ?? 200,
    log,
  }).catch(async (e: unknown) => {
    // Damage found while loading (storeCheck.ts): the directory is let go, as it was, for --check or --repair.
    await store.close().catch(() => undefined);
    throw e;
  });
  // After its first request (timed below, with a log line), a kept-alive socket's next request
  // must have its headers within about upgradeMs too: Node's own check, every second rather than
  // its default 30 s, a second later than ours so that ours sees the first request.
  const serveStatic = await staticHandler(o.distDir);
  // A join code typed on the lab's address (src/room/joinCode.ts): GET /code/K7Q3MX answers the
  // room's id while it is open or running, at most one look-up a second per address (ten at once).
  const codeLookups = new Map<string, TokenBucket>();
  const answerCode = (req: IncomingMessage, res: ServerResponse, typed: string) => {
    const address = addressOf(req);
    if (codeLookups.size > 10_000) codeLookups.clear();
    let bucket = codeLookups.get(address);
    if (!bucket) codeLookups.set(address, (bucket = new TokenBucket(1, 10, Date.now())));
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
      res.end(JSON.stringify(body));
    };
    if (!bucket.take(Date.now())) return send(429, { error: 'Too many codes tried from this address: wait a minute.' });
    const code = readJoinCode(typed);
    const room = code ? hub.roomIdByCode(code) : null;
    if (!room) return send(404, { error: 'No open room has this code: check it, or ask for the link.' });
    send(200, { room });
  };
  const http = createServer(
    { headersTimeout: limits.upgradeMs + 1000, requestTimeout: Math.max(60_000, limits.upgradeMs + 1000), connectionsCheckingInterval: 1000 },
    (req, res) => {
      const m = /^\/code\/([A-Za-z0-9-]{1,32})$/.exec(req.url ?? '');
      if (m && req.method === 'GET') return answerCode(req, res, m[1]);
      serveStatic(req, res);
    },
  );
  // Creates carrying a task of their own are checked in a worker thread, one at a time (taskChecks.ts).
  const tasks = new TaskChecks({ budgetMs: limits.taskCheckMs, perAddress: limits.taskChecksPerAddress, total: limits.taskChecksWaiting, log });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, perMessageDeflate: false });
  const conns = new Map<WebSocket, Connection>();

  /** The address a request comes from (behind a local proxy: the one the proxy says). */
  const addressOf = (req: IncomingMessage): string => {
    const peer = req.socket.remoteAddress ?? 'unknown';
    if (!o.proxied || !/^(127\.|::1$|::ffff:127\.)/.test(peer)) return peer;
    const forwarded = String(req.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim();
    return forwarded && forwarded.length <= 64 ? forwarded : peer;
  };
  /** Refuse an upgrade with a plain HTTP answer; the socket may already be gone (a reset), which is fine. */
  const refuseUpgrade = (socket: Socket, status: string, why: string) => {
    if (socket.destroyed) return;
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${why}\n`);
    setTimeout(() => socket.destroy(), 1000).unref?.();
  };

  http.on('upgrade', (req, socket: Socket, head) => {
    // First of all: a reset from the client now, or at any later point, is an error event on this
    // socket, and an error event with no listener ends the process.
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (path !== ROOM_PATH) return refuseUpgrade(socket, '404 Not Found', `the room is at ${ROOM_PATH}`);
    const address = addressOf(req);
    requested.add(socket);
    const over = budgets.connect(address);
    if (over) {
      log(`refused a connection from ${address}: ${over}`, address);
      return refuseUpgrade(socket, '503 Service Unavailable', over);
    }
    let counted = true;
    const uncount = () => {
      if (counted) budgets.disconnect(address);
      counted = false;
    };
    socket.once('close', uncount);
    try {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new Connection(ws, hub, now, log, address, budgets, tasks);
        conns.set(ws, conn);
        ws.on('message', (data, isBinary) => conn.receive(data, isBinary));
        ws.on('pong', (data) => conn.pong(data));
        // Each chunk goes to the connection's frame count first, and to ws's reader only if it
        // passes (frameGate.ts): ws reads the socket through its 'data' listeners, put behind ours.
        const wsReaders = socket.listeners('data') as ((chunk: Buffer) => void)[];
        socket.removeAllListeners('data');
        socket.on('data', (chunk: Buffer) => {
          if (conn.read(chunk)) for (const reader of wsReaders) reader.call(socket, chunk);
        });
        ws.on('error', () => ws.terminate());
        ws.on('close', () => {
          conns.delete(ws);
          uncount();
          conn.closed();
        });
      });
    } catch (e) {
      log(`upgrade from ${address} failed: ${e instanceof Error ? e.message : String(e)}`, address);
      socket.destroy();
    }
  });
  http.on('clientError', (_e, socket) => socket.destroy());
  /** Sockets that have sent a whole request (a page's file, or an upgrade): the upgradeMs timer lets them be. */
  const requested = new WeakSet<Socket>();
  http.on('request', (req: IncomingMessage) => requested.add(req.socket));
  http.on('connection', (socket: Socket) => {
    socket.on('error', () => socket.destroy());
    // Counted at accept, before a byte is read. Behind a local proxy the peer is the proxy, so its
    // sockets count only server-wide (each WebSocket still counts for the address it forwards).
    const peer = socket.remoteAddress ?? 'unknown';
    const address = o.proxied && /^(127\.|::1$|::ffff:127\.)/.test(peer) ? null : peer;
    const over = budgets.accept(address);
    if (over) {
      log(`closed a socket from ${peer} at once: ${over}`, peer);
      socket.destroy();
      return;
    }
    socket.once('close', () => budgets.release(address));
    const timer = setTimeout(() => {
      if (requested.has(socket) || socket.destroyed) return;
      log(`closed a socket from ${peer}: no whole request within ${limits.upgradeMs / 1000} s of connecting`, peer);
      socket.destroy();
    }, limits.upgradeMs);
    timer.unref?.();
    socket.once('close', () => clearTimeout(timer));
  });

  const timers = [
    setInterval(() => {
      for (const conn of conns.values()) {
        conn.checkBacklog();
        conn.checkMessage();
      }
      void hub.flushFeeds().catch((e: unknown) => log(`feed: ${String(e)}`));
    }, o.feedMs ?? 1000),
    setInterval(() => void hub.sweep().catch((e: unknown) => log(`sweep: ${String(e)}`)), o.sweepMs ?? 60_000),
    setInterval(() => {
      for (const conn of conns.values()) conn.beat();
    }, o.heartbeatMs ?? 30_000),
  ];

  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(o.port, o.host, () => {
      http.off('error', fail);
      done();
    });
  });
  // After listening, an error of the server itself is logged, not thrown at the process.
  http.on('error', (e) => log(`http server: ${e.message}`));
  port = (http.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    port,
    hub,
    store,
    connections: () => conns.size,
    sockets: () => budgets.sockets(),
    close() {
      closing ??= (async () => {
        for (const t of timers) clearInterval(t);
        tasks.close();
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
        logLimiter.endWindow();
      })();
      return closing;
    },
  };
}
