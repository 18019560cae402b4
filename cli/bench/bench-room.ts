/**
 * `npm run bench -- --room-start N [--room-together K]`: how long a class's seats take from
 * opening the join link to their run's first RL step, in Chromium, with the room's seeds
 * (src/core/experiment/roomSeeds.ts). The production build is served by the room server itself
 * (as `npm run room` serves it to a class), a presenter (a headless client) creates an unpaired room
 * of `peers-learn` (or --room-preset's) as the page does and starts it, and each seat is a fresh browser context opening the join
 * link (no cache shared: each is another device):
 *
 *   - alone: N seats one after another, each the only one training (N = 30: every seed of a
 *     30-seat class once), so each figure is that seed's start on this machine, not a share of it;
 *   - unlisted: 2 seats of a room made without the list (seeds 1000, 1001: no shipped warm start),
 *     the same way: what a seat pays when it warm-starts itself;
 *   - together: K seats of a new room joining a second apart, all training at once on this
 *     machine's cores (a class's devices each have their own).
 *
 * Into bench/results/room-start.json and BENCHMARKS' <!-- room-start --> section, made from it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { chromium, type Browser } from '@playwright/test';
import { findChromium } from '../../scripts/find-chromium.mjs';
import { getPreset } from '../../src/core/experiment/presets';
import { ROOM_PROTOCOL_VERSION } from '../../src/room/protocol';
import { createSeeds, newRoomSeeds } from '../../src/room/roomSeeds';
import { RoomClient } from '../../server/load/roomClient';
import { startRoomServer } from '../../server/server';

export type RoomStartMode = 'alone' | 'unlisted' | 'together';

export interface SeatStart {
  seat: number;
  seed: number;
  /** Seconds from opening the join link to the seat shown, and to the first RL step shown (null: not within the timeout). */
  seatS: number | null;
  firstStepS: number | null;
  /** Each member's warm-start source as the cohort summary says it, e.g. "A: shipped". */
  sources: string[];
  /** The page's start-up marks (ms since the run started): backend, warm, base, step. */
  marks: { phase: string; atMs: number }[];
  /** The backend the page chose, as its status says it (e.g. "wasm"). */
  backend: string;
}

export interface RoomStartRun {
  mode: RoomStartMode;
  preset: string;
  browser: string;
  /** Milliseconds between two seats' joins (together). */
  staggerMs: number | null;
  seats: SeatStart[];
  /** The machine's 1-minute load average when the run ended (2 cores). */
  load: number;
  date: string;
}

const DEFAULT_PRESET = 'peers-learn';
const ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const round = (x: number) => Math.round(x * 100) / 100;

/** A room on the server at `ws`: as the presenter's page creates it (listed), or at baseSeed 1000 without the list; started. */
async function openRoom(ws: string, preset: string, listed: boolean): Promise<{ presenter: RoomClient; room: string }> {
  const spec = getPreset(preset)!.spec;
  const seeds = listed ? newRoomSeeds(preset, spec.seed) : { specSeed: 1000, baseSeed: 1000 };
  const presenter = await RoomClient.connect(ws);
  presenter.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'bench', preset, spec: { ...spec, seed: seeds.specSeed }, ...createSeeds(seeds), pairing: false });
  const { room } = await presenter.waitFor('created');
  presenter.send({ t: 'start' });
  await presenter.waitFor('room', (m) => m.room.status === 'running');
  return { presenter, room };
}

/** One seat: a fresh context opens the join link; the seconds to its seat and to its first RL step. */
async function seat(browser: Browser, link: string, timeoutMs: number): Promise<SeatStart> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const t0 = performance.now();
    const since = () => round((performance.now() - t0) / 1000);
    await page.goto(link);
    const line = page.getByTestId('room-seat-line');
    await line.waitFor({ timeout: timeoutMs });
    let seatS: number | null = null;
    let firstStepS: number | null = null;
    let seatNo = -1;
    let seed = -1;
    while (performance.now() - t0 < timeoutMs) {
      if (seatS === null) {
        const m = /^You are seat (\d+), seed (\d+)/.exec((await line.textContent()) ?? '');
        if (m) [seatS, seatNo, seed] = [since(), Number(m[1]), Number(m[2])];
      }
      const step = Number((await page.getByTestId('rl-step').getAttribute('data-step').catch(() => '0')) ?? 0);
      if (step >= 1) {
        firstStepS = since();
        break;
      }
      await page.waitForTimeout(100);
    }
    // The members the seat's run has, as its cohort summary lists them (an unpaired overlap seat: A and its level's partner).
    const sources: string[] = [];
    for (const row of await page.locator('[data-testid^="base-source-"]').all()) {
      const id = ((await row.getAttribute('data-testid')) ?? '').slice('base-source-'.length);
      const text = await row.textContent({ timeout: 5000 }).catch(() => null);
      sources.push(`${id}: ${(text ?? 'not shown').split(' (')[0]}`);
    }
    if (sources.length === 0) sources.push('no member shown');
    const json = await page.getByTestId('startup-timeline').getAttribute('data-timeline', { timeout: 5000 }).catch(() => null);
    const marks = json ? (JSON.parse(json) as { marks: { phase: string; atMs: number }[] }).marks : [];
    const backend = ((await page.getByTestId('backend-status').textContent({ timeout: 5000 }).catch(() => null)) ?? '?').replace(/^Backend:\s*/, '');
    return { seat: seatNo, seed, seatS, firstStepS, sources, marks, backend };
  } finally {
    await context.close();
  }
}

export interface RoomStartOptions {
  /** The room's preset (default peers-learn): unpaired, at its own seed, as the presenter's page makes it. */
  preset?: string;
  /** Seats measured alone (1-30), and together (0: none). */
  alone: number;
  together: number;
  staggerMs?: number;
  /** A seat's timeout. */
  timeoutMs?: number;
  port?: number;
  log?: (line: string) => void;
}

export async function runRoomStartBench(o: RoomStartOptions): Promise<RoomStartRun[]> {
  const log = o.log ?? (() => {});
  const preset = o.preset ?? DEFAULT_PRESET;
  if (!getPreset(preset)) throw new Error(`no preset "${preset}"`);
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-room-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'cohort-lab-room-data-'));
  log('room-start: vite build ...');
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await startRoomServer({
    port: o.port ?? 4341,
    host: '127.0.0.1',
    dataDir,
    ttlHours: 1,
    distDir: outDir,
    limits: { joinsPerMinute: 600, joinBurst: 200, connectionsPerAddress: 400, socketsPerAddress: 400 },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const ws = `ws://127.0.0.1:${server.port}/room`;
  const linkOf = (room: string) => `${origin}/?room=${room}&server=${encodeURIComponent(ws)}`;
  const browser = await chromium.launch({ executablePath, args: ARGS, headless: true });
  const timeoutMs = o.timeoutMs ?? 180_000;
  const date = new Date().toISOString().slice(0, 10);
  const runOf = (mode: RoomStartMode, seats: SeatStart[], staggerMs: number | null): RoomStartRun => ({
    mode,
    preset,
    browser: `Chromium ${browser.version()}`,
    staggerMs,
    seats,
    load: round(loadavg()[0]),
    date,
  });
  const runs: RoomStartRun[] = [];
  const clients: RoomClient[] = [];
  try {
    for (const [mode, n] of [
      ['alone', o.alone],
      ['unlisted', 2],
    ] as const) {
      const { presenter, room } = await openRoom(ws, preset, mode === 'alone');
      clients.push(presenter);
      const seats: SeatStart[] = [];
      for (let i = 0; i < n; i++) {
        const s = await seat(browser, linkOf(room), timeoutMs);
        log(`room-start ${mode}: seat ${s.seat} seed ${s.seed}: seat ${s.seatS} s, first RL step ${s.firstStepS} s (${s.sources.join(', ')})`);
        seats.push(s);
      }
      runs.push(runOf(mode, seats, null));
    }
    if (o.together > 0) {
      const staggerMs = o.staggerMs ?? 1000;
      const { presenter, room } = await openRoom(ws, preset, true);
      clients.push(presenter);
      const seats = await Promise.all(
        Array.from({ length: o.together }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i * staggerMs));
          return seat(browser, linkOf(room), timeoutMs);
        }),
      );
      for (const s of seats) log(`room-start together: seat ${s.seat} seed ${s.seed}: first RL step ${s.firstStepS} s (${s.sources.join(', ')})`);
      runs.push(runOf('together', seats.sort((a, b) => a.seat - b.seat), staggerMs));
    }
    return runs;
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sec = (x: number | null) => (x === null ? 'not reached' : x.toFixed(1));

/** Seconds from the warm start's beginning to the base evaluated: loading (or training) the warm starts, and the base. */
export function warmAndBaseS(s: Pick<SeatStart, 'marks'>): number | null {
  const warm = s.marks.find((m) => m.phase === 'warm');
  const base = s.marks.find((m) => m.phase === 'base');
  return warm && base ? round((base.atMs - warm.atMs) / 1000) : null;
}

const WORDS: Record<RoomStartMode, string> = {
  alone: 'one seat at a time, each the only browser training (seeds from the room seed list)',
  unlisted: 'one seat at a time, in a room made without the list (seeds 1000 and 1001: no shipped warm start)',
  together: 'seats joining one room a second apart, all training at once on this machine',
};

/** BENCHMARKS' room-start section: per run, a summary line and one row per seat. */
export function roomStartSection(runs: readonly RoomStartRun[]): string {
  const dates = [...new Set(runs.map((r) => r.date))].sort().join(', ');
  const browsers = [...new Set(runs.map((r) => r.browser))].join(', ');
  const lines = [
    `## A class's seats: joining to the first RL step, ${dates}`,
    '',
    '`npm run bench -- --no-node --no-browser --no-bundle --no-torch --room-start 30 --room-together 6 [--room-preset overlap]` (cli/bench/bench-room.ts): the production ' +
      'build served by the room server (as `npm run room` serves a class), an unpaired room of the preset (`peers-learn`: each seat trains the whole experiment; ' +
      '`overlap`: each seat A and its level\'s partner) created as the presenter\'s page creates it and ' +
      'started, and each seat a fresh browser context opening the join link, with no backend forced. Seconds from opening the link to the ' +
      'seat shown and to its run\'s first RL step shown; "warm starts and base": the page\'s start-up timeline from the warm start\'s ' +
      'beginning to the base evaluated (loading or training the members, then the base evaluation); the sources are the cohort summary\'s. ' +
      `${browsers} (backend as the page chose it: ${[...new Set(runs.flatMap((r) => r.seats.map((s) => s.backend)))].join(', ')}), on this project's 2-core machine (load: the 1-minute load average when each run ended, the bench's own browsers included). ` +
      'Target: every seat of a 30-seat class at its first RL step within 5 s of joining (on its own device; one machine cannot run 30 browsers at once).',
  ];
  for (const r of runs) {
    const reached = r.seats.map((s) => s.firstStepS).filter((x): x is number => x !== null);
    const shipped = r.seats.filter((s) => s.sources.every((x) => / shipped$/.test(x))).length;
    const within = reached.filter((x) => x <= 5).length;
    lines.push(
      '',
      `### ${r.preset}, ${r.mode}: ${WORDS[r.mode]}${r.staggerMs !== null ? ` (${r.staggerMs} ms apart)` : ''}, load ${r.load}`,
      '',
      `${r.seats.length} seats; every member shipped in ${shipped} of ${r.seats.length}; first RL step median ${sec(median(reached))} s, ` +
        `slowest ${sec(reached.length ? Math.max(...reached) : null)} s; within 5 s: ${within} of ${r.seats.length}.`,
      '',
      '| seat | seed | to the seat (s) | to the first RL step (s) | warm starts and base (s) | warm starts |',
      '|---:|---:|---:|---:|---:|---|',
      ...r.seats.map((s) => `| ${s.seat} | ${s.seed} | ${sec(s.seatS)} | ${sec(s.firstStepS)} | ${sec(warmAndBaseS(s))} | ${s.sources.join(', ')} |`),
    );
  }
  return lines.join('\n');
}
