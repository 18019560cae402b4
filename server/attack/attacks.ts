/**
 * The red-team: each attack of docs/ROOM.md's red-team table (and fuzzed frames) against the real server
 * process (target.ts), each attacker from loopback addresses of its own (127.9.<attack>.<n>: other
 * devices, to the server). An attack reports what it saw and whether the server held within the
 * bound it states; the runner (run.ts) also checks that the process is alive and that a
 * legitimate class (legit.ts) kept getting its acks meanwhile.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { ROOM_PROTOCOL_VERSION, streamedEvent, type SeatEvent } from '../../src/room/protocol';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { presetSpec } from '../load/harness';
import { syntheticRun } from '../load/syntheticRun';
import { fuzzFrames } from './fuzz';
import { roomCliOf, startTarget, type Target } from './target';
import { MiB, attackerRoom, attackerSeat, bigExchangeSpec, bigSpec, bigStep, costlyFrames, createMsg, hammer, heavyTask, joinMsg, ownTaskSpec, raw, settled, sleep, type Raw } from './tools';

export interface AttackResult {
  /** The server stayed within the attack's bound. */
  held: boolean;
  /** What happened, in a few words with the figures. */
  saw: string;
}

export interface Attack {
  id: string;
  /** The attack, in words (a row of docs/ROOM.md's attack table). */
  what: string;
  /** What is checked. */
  bound: string;
  /** Seconds or less: in `npm test` too. */
  fast: boolean;
  /** Build what the attack sends before the class's clock starts (the class runs in this process too). */
  prepare?(): void;
  run(t: Target, addr: (n: number) => string): Promise<AttackResult>;
}

let fuzzed: (string | Buffer)[] | undefined;
const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;

/** Open sockets from `from` until one is refused or `max` are open. */
async function openMany(url: string, from: string, max: number): Promise<Raw[]> {
  const out: Raw[] = [];
  for (let i = 0; i < max; i++) {
    const r = await raw(url, from);
    if (!r) break;
    out.push(r);
  }
  return out;
}

/** Plain TCP sockets from `from`, opened one after the other; each with whether the server has closed it. */
async function tcpSockets(port: number, from: string, n: number): Promise<{ s: net.Socket; closed: () => boolean }[]> {
  const out: { s: net.Socket; closed: () => boolean }[] = [];
  for (let i = 0; i < n; i++) {
    const got = await new Promise<{ s: net.Socket; closed: () => boolean } | null>((done) => {
      let closed = false;
      const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
      s.once('close', () => (closed = true));
      s.on('error', () => done(null));
      s.once('connect', () => done({ s, closed: () => closed }));
    });
    if (got) out.push(got);
  }
  return out;
}

/**
 * `n` WebSocket frames of one message, never finished: a text frame and continuation frames, each
 * without FIN, masked with a zero key, one byte each (7 bytes a frame on the wire).
 */
function unfinishedMessage(n: number): Buffer {
  const b = Buffer.alloc(7 * n);
  for (let i = 0; i < n; i++) {
    b[7 * i] = i === 0 ? 0x01 : 0x00;
    b[7 * i + 1] = 0x80 | 1;
    b[7 * i + 6] = 0x20;
  }
  return b;
}

/** Run `npm run room -- ARGS` of checkout `root` to its end: its exit code and output. */
function roomCli(root: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return nodeTsx(root, [roomCliOf(root), ...args]);
}

/** Run a TypeScript script of checkout `root` (its path first in `args`) to its end: its exit code and output. */
function nodeTsx(root: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, args[0]), ...args.slice(1)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => done({ code, out }));
  });
}

/** Start the server of `root` over `dataDir`: null if it listened (it is stopped again, keeping the directory), else what it printed as it exited. */
async function refusedStart(root: string, dataDir: string): Promise<string | null> {
  try {
    const t = await startTarget({ root, dataDir });
    await t.kill();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * Four seats of `room` taken from `from`, each streaming its base and then the largest step events
 * (bigStep) until `until`, the next once the last is acked; `acked` is called with each acked event.
 * Says what ended each seat's stream (the error code, or that none came before the end).
 */
function streamLargest(url: string, from: string, room: string, spec: ExperimentSpec, until: number, acked: (event: SeatEvent) => void): Promise<string[]> {
  const big = bigStep(1, spec.steps);
  return Promise.all([0, 1, 2, 3].map(async () => {
    const { s } = await attackerSeat(url, from, room);
    for (let seq = 0; Date.now() < until; seq++) {
      const event = (seq === 0 ? syntheticRun(spec, 1)[0] : { ...big, step: seq }) as SeatEvent;
      s.got.length = 0;
      s.send({ t: 'event', seq, event });
      const m = await s.waitFor((x) => (x.t === 'ack' && x.seq === seq) || x.t === 'error');
      if (m?.t !== 'ack') {
        s.close();
        return m?.t === 'error' ? m.code : 'no answer';
      }
      acked(event);
    }
    s.close();
    return 'none before the end';
  }));
}

/** Lines of the server's output from `start` on that name `address`. */
const linesAbout = (t: Target, start: number, address: string) => t.output().slice(start).split('\n').filter((l) => l.includes(address));

/** A join from a fresh device: how long until its seat, ms (Infinity: refused or no answer within 10 s). */
async function timedJoin(url: string, room: string, from: string): Promise<number> {
  const t0 = Date.now();
  const r = await raw(url, from);
  if (!r) return Infinity;
  r.send(joinMsg(room));
  const m = await r.waitFor((x) => x.t === 'seat' || x.t === 'error');
  r.close();
  return m?.t === 'seat' ? Date.now() - t0 : Infinity;
}

export const ATTACKS: Attack[] = [
  {
    id: 'crafted-frame',
    what: 'one 220 KB `event` frame whose members record has 20,000 keys, no room, no seat (sent 3 times)',
    bound: 'answered with an error; the process lives',
    fast: true,
    async run(t, addr) {
      const r = await raw(t.url, addr(1));
      if (!r) return { held: false, saw: 'connection refused' };
      const [, crafted] = costlyFrames();
      for (let i = 0; i < 3; i++) r.send(crafted);
      const e = await r.waitFor((m) => m.t === 'error');
      r.close();
      return { held: e !== null, saw: e && e.t === 'error' ? `error ${e.code}: "${e.message.slice(0, 60)}"` : 'no answer' };
    },
  },
  {
    id: 'upgrade-reset',
    what: 'raw upgrade requests to a path other than /room, reset at once (50 of them)',
    bound: 'the process lives',
    fast: true,
    async run(t, addr) {
      for (let i = 0; i < 50; i++) {
        await new Promise<void>((done) => {
          const s = net.connect({ host: '127.0.0.1', port: t.port, localAddress: addr(1) }, () => {
            s.write(`GET /nope HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
            // Reset as the server answers (RST instead of FIN): the server's write then fails.
            setImmediate(() => {
              s.resetAndDestroy();
              done();
            });
          });
          s.on('error', () => done());
        });
      }
      await sleep(300);
      return { held: t.alive(), saw: '50 resets sent' };
    },
  },
  {
    id: 'present-flood',
    what: 'presents its own room (about 24 MB of events of its own experiment) from a socket that never reads, again every 250 ms, 21 times',
    bound: 'server RSS grows by less than 64 MiB',
    fast: false,
    async run(t, addr) {
      const spec = bigSpec(400);
      const { room, key, presenter } = await attackerRoom(t.url, addr(1), spec);
      // Fill the room: 4 seats (from 4 addresses) x 160 of the largest events, about 24 MB of JSON,
      // ten at a time as the acks come (within the budgets of each address).
      const big = bigStep(1, spec.steps);
      let json = 0;
      await Promise.all([0, 1, 2, 3].map(async (k) => {
        const { s: seat } = await attackerSeat(t.url, addr(2 + k), room);
        for (let seq = 0; seq < 160; seq++) {
          const event = seq === 0 ? syntheticRun(spec, 1)[0] : { ...big, step: seq };
          const text = JSON.stringify({ t: 'event', seq, event });
          seat.send(text);
          json += text.length;
          if (seq % 10 === 9) await seat.waitFor((m) => m.t === 'ack' && m.seq === seq, 30_000);
        }
        seat.close();
      }));
      const stored = t.disk();
      presenter.close();
      const before = t.rss();
      t.resetPeak();
      const r = await raw(t.url, addr(5));
      if (!r) return { held: false, saw: 'connection refused' };
      r.stopReading();
      for (let i = 0; i < 21; i++) {
        r.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
        await sleep(250);
      }
      // Long enough for the replays the server took on to be queued (or refused).
      await sleep(5000);
      const grew = t.peakRss() - before;
      r.close();
      return { held: grew < 64 * MiB, saw: `room of ${mb(json)} of events (${mb(stored)} on disk); RSS ${mb(before)} -> peak ${mb(before + grew)} (+${mb(grew)})` };
    },
  },
  {
    id: 'paired-rejoin',
    what: "re-joins a paired seat 30 times from sockets that never read (the partner's exchanges, about 30 MB, replayed each time)",
    bound: 'server RSS grows by less than 64 MiB',
    fast: false,
    async run(t, addr) {
      const spec = bigExchangeSpec(400);
      const { room, presenter } = await attackerRoom(t.url, addr(1), spec, true);
      const a = await attackerSeat(t.url, addr(2), room);
      const b = await attackerSeat(t.url, addr(3), room);
      // Seat 0's answers: 150 steps x 2 kinds of about 100 KB each.
      const answers = Array.from({ length: 128 }, () => Array.from({ length: 24 }, () => 'x'.repeat(30)));
      for (let step = 1; step <= 150; step++) {
        for (const kind of ['train', 'eval']) a.s.send({ t: 'exchange', step, kind, answers });
        // Within the address's byte budget (2 MiB/s): about 200 KB every 100 ms.
        await sleep(100);
      }
      await settled(a.s);
      await sleep(500);
      const stored = t.disk();
      b.s.close();
      const before = t.rss();
      t.resetPeak();
      const socks: Raw[] = [];
      for (let i = 0; i < 30; i++) {
        const r = await raw(t.url, addr(4));
        if (!r) break;
        r.stopReading();
        r.send(joinMsg(room, { index: b.index, token: b.token }, true));
        socks.push(r);
        await sleep(100);
      }
      await sleep(5000);
      const grew = t.peakRss() - before;
      for (const s of [...socks, a.s, presenter]) s.close();
      return { held: grew < 64 * MiB, saw: `${socks.length} rejoins; exchanges ${mb(stored)} on disk; RSS ${mb(before)} -> peak ${mb(before + grew)} (+${mb(grew)})` };
    },
  },
  {
    id: 'room-flood',
    what: 'opens one connection per `create`, 1,000 times',
    bound: 'at most 5 rooms from that address; the teacher (another address) then creates one',
    fast: true,
    async run(t, addr) {
      let made = 0;
      let refused = 0;
      const open: Raw[] = [];
      for (let i = 0; i < 1000; i++) {
        const r = await raw(t.url, addr(1));
        if (!r) {
          refused++;
          continue;
        }
        r.send(createMsg(presetSpec('quick'), `flood ${i}`));
        const m = await r.waitFor((x) => x.t === 'created' || x.t === 'error');
        if (m?.t === 'created') {
          made++;
          open.push(r);
        } else r.close();
      }
      const teacher = await raw(t.url, addr(2));
      teacher?.send(createMsg(presetSpec('quick'), 'Period 3'));
      const got = await teacher?.waitFor((x) => x.t === 'created' || x.t === 'error');
      for (const r of [...open, teacher]) r?.close();
      return { held: made <= 5 && got?.t === 'created', saw: `${made} rooms made, ${1000 - made - refused} creates refused, ${refused} connections refused; the teacher: ${got?.t === 'created' ? 'created' : `refused (${got?.t === 'error' ? got.code : 'no answer'})`}` };
    },
  },
  {
    id: 'seat-flood',
    what: 'joins the projected link 200 times and leaves',
    bound: 'from that address at most 30 seats, then one each 2 s; the next student (another address) gets a seat',
    fast: true,
    async run(t, addr) {
      const { room, presenter } = await attackerRoom(t.url, addr(1), presetSpec('quick'));
      const t0 = Date.now();
      let seated = 0;
      for (let i = 0; i < 200; i++) {
        const r = await raw(t.url, addr(2));
        if (!r) continue;
        r.send(joinMsg(room));
        const m = await r.waitFor((x) => x.t === 'seat' || x.t === 'error');
        if (m?.t === 'seat') seated++;
        r.close();
      }
      const allowed = 30 + Math.ceil((Date.now() - t0) / 2000);
      const ms = await timedJoin(t.url, room, addr(3));
      presenter.close();
      return { held: seated <= allowed && ms < Infinity, saw: `${seated} of 200 joins seated; the next student ${ms < Infinity ? `seated in ${ms} ms` : 'refused'}` };
    },
  },
  {
    id: 'exchange-beyond-spec',
    what: "sends exchanges for steps far beyond the spec's (up to 5,000), and rewrites of a stored one",
    bound: 'refused beyond the spec; the data folder grows by less than 1 MiB (all 13 steps x 2 kinds of the spec take about 0.2 MB)',
    fast: true,
    async run(t, addr) {
      const spec = { ...presetSpec('peers-learn'), steps: 12 };
      const { room, presenter } = await attackerRoom(t.url, addr(1), spec, true);
      const a = await attackerSeat(t.url, addr(2), room);
      const before = t.disk();
      // About 8 KB each (the original attack's were larger: what is refused is refused at any size, and the address's byte budget paces large ones).
      const answers = Array.from({ length: 32 }, () => Array.from({ length: 8 }, (_, i) => `${i}`.repeat(30)));
      for (let step = 0; step <= 5000; step += 10) a.s.send({ t: 'exchange', step, kind: 'train', answers });
      // Rewrites of a stored step change nothing either.
      for (let i = 0; i < 50; i++) a.s.send({ t: 'exchange', step: 1, kind: 'eval', answers });
      await settled(a.s);
      await sleep(300);
      const grew = t.disk() - before;
      const codes = new Map<string, number>();
      for (const m of a.s.got) if (m.t === 'error') codes.set(m.code, (codes.get(m.code) ?? 0) + 1);
      a.s.close();
      presenter.close();
      const errors = [...codes].map(([c, n]) => `${n} ${c}`).join(', ');
      return { held: grew < MiB, saw: `551 sent, errors: ${errors || 'none'}; data folder +${(grew / MiB).toFixed(1)} MiB` };
    },
  },
  {
    id: 'costly-frames',
    what: 'frames built to be slow to check, as fast as they go, from 1 and then 4 attackers (8 connections each)',
    bound: 'a legitimate join is seated within 2 s',
    fast: false,
    async run(t, addr) {
      const { room, presenter } = await attackerRoom(t.url, addr(9), presetSpec('quick'));
      const frames = costlyFrames();
      const joins: number[] = [];
      for (const attackers of [1, 4]) {
        const socks: Raw[] = [];
        for (let a = 0; a < attackers; a++) socks.push(...(await openMany(t.url, addr(1 + a), 8)));
        const until = Date.now() + 4000;
        const runs = socks.map((s) => hammer(s, frames, until));
        await sleep(1500);
        joins.push(await timedJoin(t.url, room, addr(20 + attackers)));
        await Promise.all(runs);
        for (const s of socks) s.close();
      }
      presenter.close();
      return { held: joins.every((ms) => ms < 2000), saw: `a join took ${joins.map((ms) => (ms < Infinity ? `${ms} ms` : 'forever')).join(' (1 attacker), ')} (4)` };
    },
  },
  {
    id: 'idle-sockets',
    what: 'opens ~1,000 idle sockets (250 from each of 4 addresses) under `ulimit -n 1024`',
    bound: 'the server holds under 300 file handles; a student still joins',
    fast: true,
    async run(t, addr) {
      const { room, presenter } = await attackerRoom(t.url, addr(9), presetSpec('quick'));
      const socks: Raw[] = [];
      const tries = await Promise.all([1, 2, 3, 4].map(async (a) => {
        let refused = 0;
        for (let i = 0; i < 250; i++) {
          const r = await raw(t.url, addr(a));
          if (r) socks.push(r);
          else refused++;
        }
        return refused;
      }));
      const fds = t.fds();
      const ms = await timedJoin(t.url, room, addr(10));
      for (const s of [...socks, presenter]) s.close();
      return { held: fds < 300 && ms < Infinity, saw: `${socks.length} open, ${tries.reduce((a, b) => a + b, 0)} refused; the server's file handles ${fds}; a student ${ms < Infinity ? `seated in ${ms} ms` : 'refused'}` };
    },
  },
  {
    id: 'two-tabs',
    what: 'two tabs of one student, each rejoining its seat whenever it loses it, for 3 s',
    bound: 'the second tab gets `seat-in-use`; the seat changes hands 0 times',
    fast: true,
    async run(t, addr) {
      const { room, presenter } = await attackerRoom(t.url, addr(1), presetSpec('quick'));
      const first = await attackerSeat(t.url, addr(2), room);
      let takeovers = 0;
      let inUse = 0;
      const until = Date.now() + 3000;
      // The second tab, as a naive page would: join again on every refusal.
      while (Date.now() < until) {
        const r = await raw(t.url, addr(2));
        if (!r) break;
        r.send(joinMsg(room, { index: first.index, token: first.token }));
        const m = await r.waitFor((x) => x.t === 'seat' || x.t === 'error');
        if (m?.t === 'seat') takeovers++;
        if (m?.t === 'error' && m.code === 'seat-in-use') inUse++;
        r.close();
        await sleep(100);
      }
      first.s.send({ t: 'event', seq: 0, event: syntheticRun(presetSpec('quick'), 1)[0] });
      const ack = await first.s.waitFor((m) => m.t === 'ack');
      first.s.close();
      presenter.close();
      return { held: takeovers === 0 && inUse > 0 && ack !== null, saw: `${inUse} seat-in-use, ${takeovers} takeovers; the first tab ${ack ? 'still gets acks' : 'lost its seat'}` };
    },
  },
  {
    id: 'terminal-escapes',
    what: 'names a room with terminal escapes (erase line, a fake banner, a window title)',
    bound: "no control character reaches the server's output",
    fast: true,
    async run(t, addr) {
      const start = t.output().length;
      const r = await raw(t.url, addr(1));
      r?.send(createMsg(presetSpec('quick'), '\x1b[2K\rroom server on port 8787\x1b]0;owned\x07\x9b31m'));
      await r?.waitFor((m) => m.t === 'created' || m.t === 'error');
      r?.close();
      await sleep(300);
      const printed = t.output().slice(start);
      // eslint-disable-next-line no-control-regex -- control characters are what is looked for
      const bad = printed.match(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g) ?? [];
      return { held: bad.length === 0 && printed.includes('\\x1b'), saw: `${bad.length} control characters printed; the name logged as ${JSON.stringify(printed.trim().split('\n').pop()?.slice(0, 70))}` };
    },
  },
  {
    id: 'impossible-science',
    what: 'a seated student sends events no run of the experiment makes: a step before the base, step 3 first, step 1 twice, a done with no step, reward 1e300, pass@1 1e6, an invented arm and member, members named constructor and toString, steps 5000, stepMs 1e300, a summary with another seed and bidirectional text',
    bound: 'each refused with the rule it broke, none stored or forwarded; the presenter is told the seat of each',
    fast: true,
    async run(t, addr) {
      const spec = presetSpec('quick');
      const { room, presenter } = await attackerRoom(t.url, addr(1), spec);
      const seat = await attackerSeat(t.url, addr(2), room);
      const run = syntheticRun(spec, 1); // seat 0's seed is the room's base seed, 1
      const step = (n: number) => structuredClone(run[n]) as Extract<(typeof run)[number], { type: 'step' }>;
      const member = (e: ReturnType<typeof step>) => Object.keys(e.arms[0].members)[0];
      const lies: [string, unknown][] = [];
      const tamper = (what: string, f: (e: ReturnType<typeof step>) => void) => {
        const e = step(1);
        f(e);
        lies.push([what, e]);
      };
      tamper('reward 1e300', (e) => (e.arms[0].members[member(e)].reward = 1e300));
      tamper('pass@1 1e6', (e) => (e.arms[0].members[member(e)].evalPassAt1 = 1e6));
      tamper('an invented arm', (e) => (e.arms[0].armId = 'seat0_lol'));
      tamper('an invented member', (e) => (e.arms[0].members['Sam-is-a-cheater'] = e.arms[0].members[member(e)]));
      tamper('constructor and toString', (e) => {
        const m = e.arms[0].members;
        for (const name of ['constructor', 'toString']) Object.defineProperty(m, name, { value: m[member(e)], enumerable: true });
      });
      tamper('steps 5000', (e) => (e.steps = 5000));
      tamper('stepMs 1e300', (e) => (e.stepMs = 1e300));
      const done = structuredClone(run.at(-1)!);
      if (done.type === 'done') done.summary = { ...done.summary, seed: 2, backend: '\u202ewasm'.repeat(20) };
      const stored: string[] = [];
      const refused: string[] = [];
      /** Send `event` as the seat's event `seq`: stored (acked) or refused (an error). */
      const attempt = async (what: string, seq: number, event: unknown) => {
        seat.s.send({ t: 'event', seq, event });
        const m = await seat.s.waitFor((x) => (x.t === 'ack' && x.seq === seq) || x.t === 'error');
        seat.s.got.length = 0;
        (m?.t === 'ack' ? stored : refused).push(what);
        return m?.t === 'ack';
      };
      await attempt('a step before the base', 0, run[1]);
      await attempt('the base', 0, run[0]);
      await attempt('step 3 first', 1, run[3]);
      await attempt('a done with no step', 1, run.at(-1));
      for (const [what, e] of lies) await attempt(what, 1, e);
      await attempt('step 1', 1, run[1]);
      await attempt('step 1 again as event 2', 2, run[1]);
      await attempt('a summary with another seed and bidirectional text', 2, done);
      await sleep(300);
      const told = presenter.got.filter((m) => m.t === 'error' && /^Seat 0's event \d+ was refused/.test(m.message)).length;
      const forwarded = presenter.got.filter((m) => m.t === 'events').reduce((n, m) => n + (m.t === 'events' ? m.events.length : 0), 0);
      seat.s.close();
      presenter.close();
      const honest = ['the base', 'step 1'];
      const held = stored.join() === honest.join() && told === refused.length && forwarded <= honest.length;
      return { held, saw: `${refused.length} refused, the presenter told of ${told}; stored: ${stored.join(', ')}; ${forwarded} events forwarded` };
    },
  },
  {
    id: 'pair-answers',
    what: "a paired seat sends answers its partner's page cannot read: too few prompts, too many answers a prompt, held-out answers at a step without an evaluation",
    bound: 'each refused; the partner receives none of them',
    fast: true,
    async run(t, addr) {
      const spec = presetSpec('quick');
      const { room, presenter } = await attackerRoom(t.url, addr(1), spec, true);
      const a = await attackerSeat(t.url, addr(2), room);
      const b = await attackerSeat(t.url, addr(3), room);
      const shaped = (prompts: number, each: number) => Array.from({ length: prompts }, () => Array.from({ length: each }, () => '7'));
      const B = spec.grpo.promptsPerStep;
      const G = spec.grpo.groupSize;
      const bad = [
        { step: 1, kind: 'train', answers: shaped(B - 1, G) },
        { step: 1, kind: 'train', answers: shaped(B, 64) },
        { step: 1, kind: 'eval', answers: shaped(spec.data.heldOut, G) },
      ];
      let refused = 0;
      for (const m of bad) {
        a.s.send({ t: 'exchange', ...m });
        const e = await a.s.waitFor((x) => x.t === 'error');
        a.s.got.length = 0;
        if (e) refused++;
      }
      await sleep(300);
      const relayed = b.s.got.filter((m) => m.t === 'exchange').length;
      for (const s of [a.s, b.s, presenter]) s.close();
      return { held: refused === bad.length && relayed === 0, saw: `${refused} of ${bad.length} refused; the partner received ${relayed}` };
    },
  },
  {
    id: 'fuzz',
    what: '3,000 fuzzed frames (mutated valid messages, random JSON, deep nesting, binary) from 4 addresses',
    bound: 'the process lives',
    fast: true,
    prepare() {
      fuzzed ??= fuzzFrames(3000, 28);
    },
    async run(t, addr) {
      const frames = (fuzzed ??= fuzzFrames(3000, 28));
      let sent = 0;
      await Promise.all([0, 1, 2, 3].map(async (a) => {
        let r = await raw(t.url, addr(1 + a));
        for (let i = a; i < frames.length; i += 4) {
          if (!r || r.ws.readyState !== r.ws.OPEN) r = await raw(t.url, addr(1 + a));
          if (!r) break;
          const f = frames[i];
          r.ws.send(f, { binary: typeof f !== 'string' });
          sent++;
          if (i % 40 === a) await sleep(20);
        }
        r?.close();
      }));
      await sleep(300);
      return { held: t.alive(), saw: `${sent} frames sent` };
    },
  },
  {
    id: 'tcp-flood',
    what: 'opens 1,100 plain TCP sockets from one address that never upgrade, half of them sending a header line every second (slowloris)',
    bound: 'at most 48 of them open a second later and none after upgradeMs (10 s) + 2 s; the server holds under 300 file handles; a student (another address) joins; it is logged',
    fast: false,
    async run(t, addr) {
      const { room, presenter } = await attackerRoom(t.url, addr(9), presetSpec('quick'));
      const start = t.output().length;
      const t0 = Date.now();
      const socks = await tcpSockets(t.port, addr(1), 1100);
      const drip = setInterval(() => {
        for (const [i, x] of socks.entries()) if (i % 2 === 0 && !x.closed()) x.s.write(i === 0 ? 'GET /room HTTP/1.1\r\n' : `X-Slow-${i}: y\r\n`);
      }, 1000);
      await sleep(1000);
      const openAfter1s = socks.filter((x) => !x.closed()).length;
      const fds = t.fds();
      const ms = await timedJoin(t.url, room, addr(10));
      while (Date.now() - t0 < 12_000 && socks.some((x) => !x.closed())) await sleep(200);
      clearInterval(drip);
      const openAfter12s = socks.filter((x) => !x.closed()).length;
      for (const x of socks) x.s.destroy();
      presenter.close();
      const logged = linesAbout(t, start, addr(1)).length;
      return {
        held: socks.length === 1100 && openAfter1s <= 48 && openAfter12s === 0 && fds < 300 && ms < Infinity && logged > 0,
        saw: `${socks.length} connected; open after 1 s: ${openAfter1s}, after ${((Date.now() - t0) / 1000).toFixed(0)} s: ${openAfter12s}; the server's file handles ${fds}; a student ${ms < Infinity ? `seated in ${ms} ms` : 'refused'}; ${logged} log lines about it`,
      };
    },
  },
  {
    id: 'unfinished-messages',
    what: 'presents its own room from 30 connections of one address, each leaving a 16,000-fragment message unfinished and sending pongs unasked every 500 ms',
    bound: 'every such connection cut within 20 s; server RSS grows by less than 32 MiB',
    fast: true,
    async run(t, addr) {
      const { room, key, presenter } = await attackerRoom(t.url, addr(1), presetSpec('quick'));
      const socks: Raw[] = [];
      for (let i = 0; i < 30; i++) {
        const r = await raw(t.url, addr(1));
        if (!r) break;
        r.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
        await r.waitFor((m) => m.t === 'room');
        socks.push(r);
      }
      const frames = unfinishedMessage(16_000);
      await sleep(500);
      const before = t.rss();
      t.resetPeak();
      const t0 = Date.now();
      for (const r of socks) (r.ws as unknown as { _socket: net.Socket })._socket.write(frames);
      const pongs = setInterval(() => {
        for (const r of socks) if (r.ws.readyState === r.ws.OPEN) r.ws.pong('alive');
      }, 500);
      const cut = await Promise.all(socks.map((r) => Promise.race([r.closed.then(() => Date.now() - t0), sleep(20_000).then(() => Infinity)])));
      clearInterval(pongs);
      const grew = t.peakRss() - before;
      for (const r of [...socks, presenter]) r.close();
      const slowest = Math.max(...cut);
      return {
        held: socks.length === 30 && slowest < 20_000 && grew < 32 * MiB,
        saw: `${socks.length} connections; ${cut.filter((ms) => ms < Infinity).length} cut, the last after ${slowest < Infinity ? `${slowest} ms` : 'more than 20 s'}; RSS ${mb(before)} -> peak ${mb(before + grew)} (+${mb(grew)})`,
      };
    },
  },
  {
    id: 'log-flood',
    what: 'sends wrong presenter keys as fast as 8 connections of one address go, for 3 s',
    bound: 'at most 10 lines about that address printed a window of 10 s (3 s meet at most two windows: 20), beside the counts left out',
    fast: true,
    async run(t, addr) {
      const { room, key, presenter } = await attackerRoom(t.url, addr(9), presetSpec('quick'));
      const start = t.output().length;
      const wrong = JSON.stringify({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key: key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A') });
      const until = Date.now() + 3000;
      let sent = 0;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          const r = await raw(t.url, addr(1));
          if (!r) {
            await sleep(50);
            continue;
          }
          sent += await hammer(r, [wrong], until);
          r.close();
        }
      }));
      await sleep(300);
      presenter.close();
      const lines = linesAbout(t, start, addr(1)).filter((l) => !l.startsWith('log: '));
      const counted = linesAbout(t, start, addr(1)).length - lines.length;
      return { held: lines.length <= 20, saw: `${sent} wrong keys sent; ${lines.length} lines about that address printed${counted ? `, ${counted} saying how many were left out` : ''}` };
    },
  },
  {
    id: 'presenter-flood',
    what: "one address with 4 seats streams the largest step events a room accepts, as fast as they are acked, for 12 s, to a presenter whose frames are then fed to the page's class view",
    bound: "the page's class view (its own code, cli/bench/class-view-replay.ts) folds every event once, rebuilding once a second in slices none longer than 250 ms, and drops no run",
    fast: false,
    async run(t, addr) {
      const spec = bigSpec(400);
      const { room, presenter } = await attackerRoom(t.url, addr(1), spec);
      // What the presenter's page receives, as it arrives (the frames' text and the time).
      const frames: { at: number; text: string }[] = [];
      presenter.ws.on('message', (d) => frames.push({ at: Date.now(), text: d.toString() }));
      let acked = 0;
      await streamLargest(t.url, addr(2), room, spec, Date.now() + 12_000, () => acked++);
      await sleep(1500);
      presenter.close();
      const file = join(t.root, `.presenter-flood-${process.pid}.json`);
      writeFileSync(file, JSON.stringify(frames));
      try {
        const { code, out } = await nodeTsx(t.root, ['cli/bench/class-view-replay.ts', file]);
        const line = out.trim().split('\n').pop() ?? '';
        if (code !== 0 || !line.startsWith('{')) return { held: false, saw: `the replay failed: ${out.trim().slice(-300)}` };
        const r = JSON.parse(line) as { events: number; folded: number; rebuilds: number; longestSliceMs: number; dropped: number; refused: number };
        const mib = frames.reduce((n, f) => n + f.text.length, 0) / MiB;
        return {
          held: r.events >= acked && r.folded === r.events && r.longestSliceMs <= 250 && r.dropped === 0 && r.refused === 0,
          saw: `${acked} events acked (${mib.toFixed(1)} MiB of frames at the presenter); the page folded ${r.folded} of ${r.events} in ${r.rebuilds} rebuilds, the longest slice ${r.longestSliceMs} ms, ${r.dropped} runs dropped, ${r.refused} frames refused`,
        };
      } finally {
        rmSync(file, { force: true });
      }
    },
  },
  {
    id: 'disk-quota',
    what: 'one address with 4 seats in its own room streams the largest events it may into a server whose quota is 16 MiB (--limits diskBytes=16777216)',
    bound: 'that address stores at most a quarter of the quota; then an honest class (another room) stores its next event and a new class its first',
    fast: false,
    async run(t, addr) {
      const small = await startTarget({ root: t.root, args: ['--limits', `diskBytes=${16 * MiB}`] });
      try {
        const quick = { ...presetSpec('quick'), steps: 600 };
        const teacher = await attackerRoom(small.url, addr(5), quick);
        const student = await attackerSeat(small.url, addr(6), teacher.room);
        const honest = syntheticRun(quick, 1);
        const acked = async (s: Raw, seq: number, event: unknown) => {
          s.send({ t: 'event', seq, event });
          const m = await s.waitFor((x) => (x.t === 'ack' && x.seq === seq) || x.t === 'error');
          s.got.length = 0;
          return m?.t === 'ack';
        };
        const before = (await acked(student.s, 0, honest[0])) && (await acked(student.s, 1, honest[1]));
        const spec = bigSpec(400);
        const { room, presenter } = await attackerRoom(small.url, addr(1), spec);
        let stored = 0;
        // As the server stores each event (the JSON of what the page streams).
        const refusals = await streamLargest(small.url, addr(2), room, spec, Date.now() + 25_000, (event) => (stored += Buffer.byteLength(JSON.stringify(streamedEvent(event)))));
        const after = await acked(student.s, 2, honest[2]);
        const newClass = await attackerRoom(small.url, addr(7), quick).catch(() => null);
        const newStudent = newClass ? await attackerSeat(small.url, addr(8), newClass.room).catch(() => null) : null;
        const first = newStudent ? await acked(newStudent.s, 0, honest[0]) : false;
        for (const s of [teacher.presenter, student.s, presenter, newClass?.presenter, newStudent?.s]) s?.close();
        return {
          held: before && after && first && stored <= 4 * MiB,
          saw: `the 4 seats stored ${(stored / MiB).toFixed(1)} MiB of JSON (${(small.disk() / MiB).toFixed(1)} MiB on disk), then ${refusals.join(', ')}; the honest class's next event ${after ? 'stored' : 'refused'}; a new class's first ${first ? 'stored' : newClass ? 'refused' : 'room refused'}`,
        };
      } finally {
        await small.stop();
      }
    },
  },
  {
    id: 'heavy-task',
    what: 'creates rooms whose own task is as slow to check as the check accepts (a generator of 20,000 problems whose rules sort 64-character texts; each a task of its own, so none is a check kept from before), two at a time from each of 2 addresses, again whenever answered, for 15 s',
    bound: "while the first heavy creates are checked, another device's room is created, a student seated in a room and 20 pings answered (each before any heavy create is answered); every heavy create answered, created or refused in words",
    fast: false,
    async run(t, addr) {
      let tasks = 0;
      const { room, presenter } = await attackerRoom(t.url, addr(9), presetSpec('quick'));
      const order: string[] = [];
      const answers = new Map<string, number>();
      const until = Date.now() + 15_000;
      const attacker = async (from: string) => {
        while (Date.now() < until) {
          const r = await raw(t.url, from);
          if (!r) return;
          r.send(createMsg(ownTaskSpec(heavyTask(++tasks), { checked: false }), 'heavy'));
          const m = await r.waitFor((x) => x.t === 'created' || x.t === 'error', 60_000);
          r.close();
          order.push('heavy');
          const key = m === null ? 'no answer' : m.t === 'error' ? `${m.code} (${m.message.slice(0, 40)}…)` : 'created';
          answers.set(key, (answers.get(key) ?? 0) + 1);
          if (m?.t !== 'created') await sleep(250);
        }
      };
      const attackers = [1, 2].flatMap((a) => [attacker(addr(a)), attacker(addr(a))]);
      // The attackers' frames first, then another device: a room, a seat, pings one after another.
      await sleep(200);
      const other = await raw(t.url, addr(20));
      other?.send(createMsg(presetSpec('quick'), 'another class'));
      if ((await other?.waitFor((m) => m.t === 'created' || m.t === 'error', 60_000))?.t === 'created') order.push('created');
      if ((await timedJoin(t.url, room, addr(21))) < Infinity) order.push('seated');
      const waits: number[] = [];
      for (let i = 0; i < 20 && other; i++) {
        const n = other.got.length;
        const t0 = Date.now();
        other.send({ t: 'ping' });
        if (await other.waitFor((m) => m.t === 'pong' && other.got.indexOf(m) >= n, 60_000)) order.push('pong');
        waits.push(Date.now() - t0);
      }
      await Promise.all(attackers);
      other?.close();
      presenter.close();
      const before = order.indexOf('heavy') === -1 ? order.length : order.indexOf('heavy');
      const first = order.slice(0, before);
      const pongs = first.filter((e) => e === 'pong').length;
      const held = first.includes('created') && first.includes('seated') && pongs === 20 && !answers.has('no answer');
      const said = [...answers].map(([k, n]) => `${n} ${k}`).join(', ');
      return { held, saw: `before the first heavy create was answered: ${first.includes('created') ? 'a room created' : 'NO room'}, ${first.includes('seated') ? 'a student seated' : 'NO seat'}, ${pongs} of 20 pings answered (the slowest in ${Math.max(0, ...waits)} ms); the heavy creates: ${said}` };
    },
  },
  {
    id: 'damaged-store',
    what: "writes 2 seats' events, is killed as the last ack comes, and is started again over three damaged copies of its data directory: CURRENT deleted, the write-ahead log truncated to 70%, the MANIFEST overwritten",
    bound: 'each start refused with the damage named in words (the events lost counted) and no file deleted; `--repair` of each recovers what its files hold and the server then starts',
    fast: false,
    async run(t, addr) {
      const own = await startTarget({ root: t.root });
      const spec = { ...presetSpec('quick'), steps: 30 };
      let acked = 0;
      try {
        const { room, presenter } = await attackerRoom(own.url, addr(1), spec);
        for (const k of [2, 3]) {
          const { s, index } = await attackerSeat(own.url, addr(k), room);
          const run = syntheticRun(spec, 1 + index).map(streamedEvent);
          run.forEach((event, seq) => s.send({ t: 'event', seq, event }));
          if (await s.waitFor((m) => m.t === 'ack' && m.seq === run.length - 1)) acked += run.length;
          s.close();
        }
        presenter.close();
      } finally {
        // Killed at once: the store counts each write before its ack, so the last acks are counted too.
        await own.kill();
      }
      const harms: [string, (dir: string) => void, RegExp][] = [
        ['CURRENT deleted', (d) => unlinkSync(join(d, 'CURRENT')), /CURRENT file is missing/],
        [
          'log truncated',
          (d) => {
            const log = join(d, readdirSync(d).find((f) => f.endsWith('.log'))!);
            truncateSync(log, Math.floor(statSync(log).size * 0.7));
          },
          /lost \d+ of its \d+ events/,
        ],
        ['MANIFEST overwritten', (d) => writeFileSync(join(d, readdirSync(d).find((f) => f.startsWith('MANIFEST-'))!), 'garbage'.repeat(10)), /LevelDB cannot read its own files/],
      ];
      const saw: string[] = [];
      let held = acked > 0;
      for (const [what, harm, words] of harms) {
        const dir = `${own.dataDir}-${what.split(' ')[0]}`;
        cpSync(own.dataDir, dir, { recursive: true });
        harm(dir);
        const files = readdirSync(dir).filter((f) => /\.(ldb|log)$/.test(f));
        const refused = await refusedStart(t.root, dir);
        // Each table and log is still there, or kept as it was in before-open/ (opening LevelDB turns its log into a table).
        const kept = files.every((f) => existsSync(join(dir, f)) || existsSync(join(dir, 'before-open', f)));
        const named = refused !== null && words.test(refused);
        let repaired = 'no repair';
        if (named) {
          const r = await roomCli(t.root, ['--repair', '--data', dir]);
          const recovered = /recovered \d+ rooms?, \d+ seats?, (\d+) events?/.exec(r.out)?.[1];
          const starts = r.code === 0 && (await refusedStart(t.root, dir)) === null;
          repaired = `repair recovered ${recovered ?? '?'} events${starts ? ', then started' : ', still refused'}`;
          held &&= starts;
        }
        held &&= named && kept;
        saw.push(`${what}: ${refused === null ? 'STARTED' : named ? 'refused, named' : `refused: "${refused.split('\n').find((l) => /error/.test(l))?.slice(0, 80)}"`}${kept ? '' : ', files deleted'}; ${repaired}`);
      }
      // The copies, and the copies --repair made of them, sit beside the directory.
      const parent = join(own.dataDir, '..');
      const base = own.dataDir.slice(parent.length + 1);
      for (const f of readdirSync(parent)) if (f === base || f.startsWith(`${base}-`)) rmSync(join(parent, f), { recursive: true, force: true });
      return { held, saw: `${acked} events acked before the kill; ${saw.join('; ')}` };
    },
  },
];
