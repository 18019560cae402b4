/**
 * npm run room -- [--port 8787] [--host 0.0.0.0] [--data .room-data] [--ttl-hours 24] [--fsync] [--feed-kib 128]
 * npm run room -- --load 60 [--step-ms 150] [--url ws://host:port/room]
 *
 * The room server of class mode (docs/ROOM.md): the WebSocket endpoint /room, and the built app
 * (dist/, from `npm run build`) on the same port, so a class on one network opens one address.
 * --feed-kib: each student's budget for the class feed, KiB a second (server/feed.ts).
 * Prints the address(es) to give the class and the data directory; rooms live --ttl-hours.
 * With --load N: the load check (server/load/loadCheck.ts), which exits 1 if any event was lost.
 */
import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, intFlag, parseArgs, runMain } from './args';
import { loadCheck } from '../server/load/loadCheck';
import { ROOM_PATH, startRoomServer } from '../server/server';

const FLAGS = { port: 'string', host: 'string', data: 'string', 'ttl-hours': 'string', fsync: 'boolean', 'feed-kib': 'string', load: 'string', 'step-ms': 'string', url: 'string', help: 'boolean' } as const;

const USAGE = `usage: npm run room -- [--port 8787] [--host 0.0.0.0] [--data .room-data] [--ttl-hours 24] [--fsync] [--feed-kib 128]
       npm run room -- --load N [--step-ms 150] [--url ws://host:port/room]`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The addresses a class can reach the server at: each non-internal IPv4 address (or the host given). */
function addresses(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${host}:${port}/`];
  const out = [`http://localhost:${port}/`];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(`http://${a.address}:${port}/`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const load = intFlag(args, 'load', 1, 200);
  if (load !== undefined) {
    const url = args.flags.get('url') as string | undefined;
    if (url !== undefined && !/^wss?:\/\/[^\s]+$/.test(url)) throw new UsageError(`--url must be a ws:// or wss:// address, got "${url}"`);
    const ok = await loadCheck({ clients: load, stepMs: intFlag(args, 'step-ms', 10, 10_000) ?? 150, url: url ?? null, log: (line) => console.log(line) });
    process.exit(ok ? 0 : 1);
  }
  for (const f of ['url', 'step-ms'] as const) if (args.flags.has(f)) throw new UsageError(`--${f} goes with --load`);
  const port = intFlag(args, 'port', 0, 65535) ?? 8787;
  const host = (args.flags.get('host') as string | undefined) ?? '0.0.0.0';
  const ttlText = (args.flags.get('ttl-hours') as string | undefined) ?? '24';
  const ttlHours = Number(ttlText);
  if (!/^\d+(\.\d+)?$/.test(ttlText) || !(ttlHours > 0) || ttlHours > 24 * 365) throw new UsageError(`--ttl-hours must be a number of hours above 0 (at most a year), got "${ttlText}"`);
  const feedKib = intFlag(args, 'feed-kib', 1, 1_000_000) ?? 128;
  const dataDir = resolve((args.flags.get('data') as string | undefined) ?? join(root, '.room-data'));
  const dist = join(root, 'dist');
  const distDir = existsSync(join(dist, 'index.html')) ? dist : null;
  const server = await startRoomServer({ port, host, dataDir, ttlHours, distDir, fsync: args.flags.has('fsync'), feedBytesPerSecond: feedKib * 1024, log: (line) => console.log(line) }).catch((e: unknown) => {
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${port} is in use: stop what uses it or choose another with --port`);
    if (code === 'LEVEL_DATABASE_NOT_OPEN' || code === 'LEVEL_LOCKED') throw new Error(`cannot open the data directory ${dataDir}: is another room server using it? (${(e as Error).message})`);
    throw e;
  });
  const urls = addresses(host, server.port);
  console.log(`room server on port ${server.port}; rooms expire ${ttlHours} h after they are made; each student's class feed ${feedKib} KiB/s`);
  if (distDir) {
    console.log('the lab (give the class one of these; students open the join link the presenter shows):');
    for (const u of urls) console.log(`  ${u}`);
  } else console.log('no app served here: run `npm run build` first to serve the lab from this server too');
  console.log('the room (WebSocket):');
  for (const u of urls) console.log(`  ${u.replace(/^http/, 'ws')}${ROOM_PATH.slice(1)}`);
  console.log(`data: ${dataDir}${args.flags.has('fsync') ? ' (every write flushed to disk)' : ''}`);
  const stop = () => {
    console.log('closing...');
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

runMain(main, 'room');
