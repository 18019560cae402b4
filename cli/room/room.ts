/**
 * npm run room -- [--port 8787] [--host 0.0.0.0] [--data .room-data] [--ttl-hours 24] [--no-fsync] [--feed-kib 128] [--limits k=v,...] [--proxied] [--partner-wait-s 20]
 * npm run room -- --load 300 [--step-ms 150] [--pairs 10] [--url ws://host:port/room]
 * npm run room -- --attack [--only id,id] [--root DIR]
 * npm run room -- --check | --repair [--data .room-data]
 *
 * The room server of class mode (docs/ROOM.md): the WebSocket endpoint /room, and the built app
 * (dist/, from `npm run build`) on the same port, so a class on one network opens one address.
 * --feed-kib: each student's budget for the class feed, KiB a second (server/feed.ts).
 * --limits: the server's budgets (server/limits.ts), e.g. connectionsPerAddress=300 for a class
 * behind one NAT address. --proxied: behind a reverse proxy on this machine (X-Forwarded-For).
 * --partner-wait-s: how long a paired seat with no one beside it waits for a partner before it trains
 * its pair alone (server/lifecycle.ts), 1 to 3600 s.
 * Prints the address to give the class first (the LAN's), this machine's own after it, and where
 * the data lives; rooms live --ttl-hours.
 * With --load N: the load check (server/load/loadCheck.ts), which exits 1 if any event was lost.
 * With --attack: the red-team (server/attack/), printing its table; exits 1 if any attack got through.
 * With --check: reads every record of the data directory and names any damage (exits 1 if some);
 * with --repair: copies the directory beside itself, runs LevelDB's repair and says what it recovered
 * (server/storeRepair.ts). The server itself refuses to start over a damaged directory.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, intFlag, parseArgs, runMain } from '../common/args';
import { attackTable, runAttacks } from '../../server/attack/run';
import { ATTACKS } from '../../server/attack/attacks';
import { DEFAULT_LIMITS, type ServerLimits } from '../../server/limits';
import { loadCheck } from '../../server/load/loadCheck';
import { originsToPrint } from '../../server/operator';
import { ROOM_PATH, startRoomServer } from '../../server/server';
import { StoreDamage } from '../../server/storeCheck';
import { checkDataDir, repairDataDir } from '../../server/storeRepair';
import { safeLogLine } from '../../server/operator';

const FLAGS = {
  port: 'string',
  host: 'string',
  data: 'string',
  'ttl-hours': 'string',
  'no-fsync': 'boolean',
  fsync: 'boolean',
  'feed-kib': 'string',
  limits: 'string',
  proxied: 'boolean',
  'partner-wait-s': 'string',
  load: 'string',
  'step-ms': 'string',
  pairs: 'string',
  url: 'string',
  attack: 'boolean',
  only: 'string',
  root: 'string',
  check: 'boolean',
  repair: 'boolean',
  help: 'boolean',
} as const;

const USAGE = `usage: npm run room -- [--port 8787] [--host 0.0.0.0] [--data .room-data] [--ttl-hours 24] [--no-fsync] [--feed-kib 128] [--limits name=value,...] [--proxied] [--partner-wait-s 20]
       npm run room -- --load N [--step-ms 150] [--pairs P] [--url ws://host:port/room]
       npm run room -- --attack [--only ${ATTACKS.map((a) => a.id).join(',')}] [--root DIR]
       npm run room -- --check | --repair [--data .room-data]
limits (server/limits.ts, docs/ROOM.md "Limits"): ${Object.entries(DEFAULT_LIMITS).map(([k, v]) => `${k}=${v}`).join(', ')}`;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function limitsFlag(text: string | undefined): Partial<ServerLimits> {
  if (text === undefined) return {};
  const out: Partial<ServerLimits> = {};
  for (const part of text.split(',')) {
    const [k, v] = part.split('=');
    if (!Object.hasOwn(DEFAULT_LIMITS, k)) throw new UsageError(`--limits: no limit "${k}" (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
    if (!/^\d+$/.test(v ?? '') || Number(v) <= 0) throw new UsageError(`--limits: ${k} must be a whole number above 0, got "${v}"`);
    out[k as keyof ServerLimits] = Number(v);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  if (args.flags.has('attack')) {
    const only = (args.flags.get('only') as string | undefined)?.split(',');
    for (const id of only ?? []) if (!ATTACKS.some((a) => a.id === id)) throw new UsageError(`--only: no attack "${id}"`);
    const rows = await runAttacks({ only, fresh: true, root: args.flags.has('root') ? resolve(args.flags.get('root') as string) : undefined, log: (line) => console.log(line) });
    console.log(`\n${attackTable(rows)}\n`);
    console.log(rows.every((r) => r.pass) ? `all ${rows.length} attacks held` : `${rows.filter((r) => !r.pass).length} of ${rows.length} attacks got through`);
    process.exit(rows.every((r) => r.pass) ? 0 : 1);
  }
  const load = intFlag(args, 'load', 1, 400);
  if (load !== undefined) {
    const url = args.flags.get('url') as string | undefined;
    if (url !== undefined && !/^wss?:\/\/[^\s]+$/.test(url)) throw new UsageError(`--url must be a ws:// or wss:// address, got "${url}"`);
    const ok = await loadCheck({ clients: load, stepMs: intFlag(args, 'step-ms', 10, 10_000) ?? 150, pairs: intFlag(args, 'pairs', 0, Math.floor(load / 2)) ?? 0, url: url ?? null, log: (line) => console.log(line) });
    process.exit(ok ? 0 : 1);
  }
  const dataDir = resolve((args.flags.get('data') as string | undefined) ?? join(root, '.room-data'));
  if (args.flags.has('check') || args.flags.has('repair')) {
    const report = args.flags.has('repair') ? await repairDataDir(dataDir, `${dataDir}.before-repair-${new Date().toISOString().replace(/[:.]/g, '-')}`) : await checkDataDir(dataDir);
    for (const line of report.lines) console.log(safeLogLine(line));
    process.exit(report.ok ? 0 : 1);
  }
  for (const f of ['url', 'step-ms', 'pairs', 'only', 'root'] as const) if (args.flags.has(f)) throw new UsageError(`--${f} goes with --${f === 'only' || f === 'root' ? 'attack' : 'load'}`);
  const port = intFlag(args, 'port', 0, 65535) ?? 8787;
  const host = (args.flags.get('host') as string | undefined) ?? '0.0.0.0';
  const ttlText = (args.flags.get('ttl-hours') as string | undefined) ?? '24';
  const ttlHours = Number(ttlText);
  if (!/^\d+(\.\d+)?$/.test(ttlText) || !(ttlHours > 0) || ttlHours > 24 * 365) throw new UsageError(`--ttl-hours must be a number of hours above 0 (at most a year), got "${ttlText}"`);
  const feedKib = intFlag(args, 'feed-kib', 1, 1_000_000) ?? 128;
  const limits = limitsFlag(args.flags.get('limits') as string | undefined);
  const partnerWaitS = intFlag(args, 'partner-wait-s', 1, 3600);
  // Synced writes are the default now; --fsync is still accepted (it asks for what is done anyway).
  const fsync = !args.flags.has('no-fsync');
  const dist = join(root, 'dist');
  const distDir = existsSync(join(dist, 'index.html')) ? dist : null;
  const server = await startRoomServer({ port, host, dataDir, ttlHours, distDir, fsync, limits, proxied: args.flags.has('proxied'), feedBytesPerSecond: feedKib * 1024, ...(partnerWaitS === undefined ? {} : { partnerWaitMs: partnerWaitS * 1000 }), log: (line) => console.log(line) }).catch((e: unknown) => {
    const code = (e as { code?: string }).code;
    if (e instanceof StoreDamage) {
      throw new Error(`the room server did not start: its data directory ${dataDir} is damaged:\n${e.problems.map((p) => `  ${safeLogLine(p)}`).join('\n')}\n\`npm run room -- --check --data ${dataDir}\` reports what it holds, \`npm run room -- --repair --data ${dataDir}\` copies it and runs LevelDB's repair`);
    }
    if ((e as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED' || code === 'LEVEL_LOCKED') throw new Error(`cannot open the data directory ${dataDir}: another room server is using it (${(e as Error).message})`);
    if (code === 'EADDRINUSE') throw new Error(`port ${port} is in use: stop what uses it or choose another with --port`);
    if (code === 'LEVEL_DATABASE_NOT_OPEN') throw new Error(`cannot open the data directory ${dataDir}: ${(e as { cause?: Error }).cause?.message ?? (e as Error).message}`);
    throw e;
  });
  const { lan, local } = originsToPrint(host, server.port);
  console.log(`room server on port ${server.port}; rooms expire ${ttlHours} h after they are made; each student's class feed ${feedKib} KiB/s`);
  if (lan.length > 0) {
    console.log(`give the class: ${lan[0]}/${lan.length > 1 ? `  (other networks of this machine: ${lan.slice(1).join(', ')})` : ''}`);
  } else console.log('no network address: only this machine reaches this server (bound to loopback, or no network)');
  if (local.length > 0) console.log(`on this machine: ${local.map((u) => `${u}/`).join(', ')} (the join link and QR a presenter page here shows use the class's address)`);
  if (!distDir) console.log('no app served here: run `npm run build` first to serve the lab from this server too');
  console.log(`the room (WebSocket): ${(lan[0] ?? local[0]).replace(/^http/, 'ws')}${ROOM_PATH}`);
  console.log(`data: ${dataDir}${fsync ? '' : ' (writes not flushed to disk: --no-fsync)'}; rooms, seats, events and answers live there until their room expires; to purge everything, stop the server and delete that directory`);
  const stop = () => {
    console.log('closing...');
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

runMain(main, 'room');
