/**
 * What the red-team's attackers are made of: raw `ws` sockets from a chosen loopback address
 * (another 127.x.y.z is another device to the server), sockets that stop reading, and frames
 * built to be large or costly within the protocol's own bounds.
 */
import { WebSocket } from 'ws';
import { ROOM_PROTOCOL_VERSION, type SeatEvent, type ServerMessage } from '../../src/room/protocol';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { specWithTask } from '../../src/core/experiment/withTask';
import type { TaskDefinition } from '../../src/core/tasks/custom/index';
import { presetSpec } from '../load/harness';
import { syntheticRun } from '../load/syntheticRun';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How long an attacker waits for an answer that must come, at most: a bound that only stops a hung
 * attack (on a machine at load 20 an answer can take seconds), never the bound an attack checks.
 */
export const ANSWER_MS = 60_000;
export const MiB = 1024 * 1024;

/** A raw attacker socket: every message parsed loosely, kept; never throws on errors. */
export interface Raw {
  ws: WebSocket;
  got: ServerMessage[];
  closed: Promise<number>;
  send(m: unknown): void;
  /** Stop reading from the socket (the server's sends pile up on its side). */
  stopReading(): void;
  /** The first message that matches, waiting for it (null: none within `ms`, ANSWER_MS by default, or the socket closed). */
  waitFor(pred: (m: ServerMessage) => boolean, ms?: number): Promise<ServerMessage | null>;
  close(): void;
}

/** A socket from `from`, or null if the server refused it (its connection budget). */
export function raw(url: string, from: string): Promise<Raw | null> {
  return new Promise((done) => {
    // A zero mask: the attacker skips masking (cheap for it), which the server must take as any other.
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: from, generateMask: (mask: Buffer) => void mask.fill(0) });
    const got: ServerMessage[] = [];
    const listeners = new Set<() => void>();
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('error', () => done(null));
    ws.on('message', (d) => {
      try {
        got.push(JSON.parse(d.toString()) as ServerMessage);
      } catch {
        /* not ours to judge */
      }
      for (const l of listeners) l();
    });
    ws.once('open', () =>
      done({
        ws,
        got,
        closed,
        send: (m) => {
          if (ws.readyState === ws.OPEN) ws.send(typeof m === 'string' ? m : JSON.stringify(m));
        },
        stopReading: () => (ws as unknown as { _socket: { pause(): void } })._socket.pause(),
        waitFor(pred, ms = ANSWER_MS) {
          const seen = got.find(pred);
          if (seen) return Promise.resolve(seen);
          return new Promise((r) => {
            const check = () => {
              const m = got.find(pred);
              if (m) finish(m);
            };
            const finish = (m: ServerMessage | null) => {
              clearTimeout(timer);
              listeners.delete(check);
              r(m);
            };
            const timer = setTimeout(() => finish(null), ms);
            listeners.add(check);
            void closed.then(() => finish(got.find(pred) ?? null));
          });
        },
        close: () => ws.terminate(),
      }),
    );
  });
}

export const createMsg = (spec: ExperimentSpec, name = 'attacker', pairing = false) => ({ t: 'create', v: ROOM_PROTOCOL_VERSION, name, preset: null, spec, baseSeed: 1, pairing });
export const joinMsg = (room: string, seat: { index: number; token: string } | null = null, takeover = false) => ({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat, ...(takeover ? { takeover } : {}) });

/** A room made by `from`: its id and key, and the socket that presents it. */
export async function attackerRoom(url: string, from: string, spec: ExperimentSpec, pairing = false): Promise<{ room: string; key: string; presenter: Raw }> {
  const presenter = await raw(url, from);
  if (!presenter) throw new Error(`the server refused a connection from ${from}`);
  presenter.send(createMsg(spec, 'attacker', pairing));
  const m = await presenter.waitFor((x) => x.t === 'created' || x.t === 'error');
  if (!m || m.t !== 'created') throw new Error(`create refused: ${JSON.stringify(m)}`);
  return { room: m.room, key: m.key, presenter };
}

/** A seat in `room` from `from`. */
export async function attackerSeat(url: string, from: string, room: string, claim: { index: number; token: string } | null = null): Promise<{ s: Raw; index: number; token: string }> {
  const s = await raw(url, from);
  if (!s) throw new Error(`the server refused a connection from ${from}`);
  s.send(joinMsg(room, claim));
  const m = await s.waitFor((x) => x.t === 'seat' || x.t === 'error');
  if (!m || m.t !== 'seat') throw new Error(`join refused: ${JSON.stringify(m)}`);
  return { s, index: m.seat.index, token: m.token };
}

/** A long spec (many steps), so that a seat may store many events. */
export const longSpec = (steps = 5000): ExperimentSpec => ({ ...presetSpec('peers-learn'), steps });

/**
 * A valid step event of bigSpec, as large as a spec's arms allow: 10 arms of 6 members, each with
 * every metric at full precision (about 37 KB of JSON).
 */
export function bigStep(step: number, steps: number): SeatEvent {
  const base = syntheticRun(presetSpec('peers-learn'), 7)[3];
  if (base.type !== 'step') throw new Error('expected a step event');
  const metrics = Object.values(base.arms[0].members)[0];
  const members = Object.fromEntries(BIG_MEMBERS.map((id) => [id, { ...metrics, entropy: Math.random() / 3 }]));
  return { ...base, step, steps, arms: Array.from({ length: 10 }, (_, i) => ({ armId: `arm${i}`, scheme: 'self' as const, members, pairs: [] })) };
}

const BIG_MEMBERS = ['A', 'B', 'C', 'D', 'E', 'F'];

/**
 * The experiment whose events bigStep fits (the server checks each event against its room's
 * experiment): 10 self-rewarded arms of 6 members, as many as a spec holds.
 */
export function bigSpec(steps: number): ExperimentSpec {
  const s = longSpec(steps);
  const member = s.members[0];
  return {
    ...s,
    members: BIG_MEMBERS.map((id, i) => ({ ...member, id, initSeed: member.initSeed + i })),
    arms: Array.from({ length: 10 }, (_, i) => ({ ...s.arms[0], id: `arm${i}`, scheme: 'self' as const, members: [...BIG_MEMBERS] })),
  };
}

/**
 * An experiment whose answers are as large as a spec allows (the server checks their shape):
 * 128 prompts of 24 votes at each step, and 128 held-out problems of 24 answers at every step.
 */
export function bigExchangeSpec(steps: number): ExperimentSpec {
  const s = longSpec(steps);
  // The held-out set grows to 128; the RL pool gives up as many problems, so the split still fits.
  return { ...s, evalEvery: 1, data: { ...s.data, heldOut: 128, rlPool: s.data.rlPool - (128 - s.data.heldOut) }, grpo: { ...s.grpo, promptsPerStep: 128, groupSize: 24, voteSize: 0 } };
}

/**
 * Frames that cost the most to check within the bounds: answers of 1,024 prompts x 38 empty
 * strings (valid in shape: the schema visits every one), and an event whose members record has
 * 20,000 keys (refused by the shape check; before it, zod's issues for them overflowed the stack
 * and ended the process: 5,000 keys did not on this machine, 20,000 did).
 */
export function costlyFrames(): string[] {
  const answers = Array.from({ length: 1024 }, () => Array.from({ length: 38 }, () => ''));
  const step = syntheticRun(presetSpec('quick'), 2)[1] as Extract<SeatEvent, { type: 'step' }>;
  const members: Record<string, unknown> = {};
  for (let i = 0; i < 20_000; i++) members[`k${i}`] = {};
  const crafted = { ...step, arms: [{ ...step.arms[0], members }] };
  return [JSON.stringify({ t: 'exchange', step: 1, kind: 'train', answers }), JSON.stringify({ t: 'event', seq: 0, event: crafted })];
}

/**
 * A generator task written to be as slow to check as the check accepts (its cost bound,
 * CHECK_LIMITS.work, src/core/tasks/custom/cost.ts): 2,004 of its 20,000 problems run, each rule
 * a sort of a 64-character text. Its check took 0.2-0.4 s in Node at load 30 on 2 cores (a task
 * the check accepts); before the cost bound, a rule of nested sorts took 5.5-12.5 s. `n` makes
 * each one a task of its own (checks are kept by content: the same task again is not checked again).
 */
export function heavyTask(n = 0): TaskDefinition {
  const rule = (x: string, y: string, digit: number) => `count(sort(cat(pad(${x},32),pad(${y},32))),"${digit}")`;
  return { kind: 'generator', title: `Heavy ${n}`, template: '{a}+{b}=', vars: { a: { min: 0, max: 199 }, b: { min: 0, max: 99 } }, answer: rule('a', 'b', 0), scratchpad: rule('b', 'a', 1) };
}

/** A data task of `rows` rows ("i+j=" with its sum), as the task editor makes one from a pasted table. */
export function dataTask(rows: number): TaskDefinition {
  return { kind: 'data', title: `Sums of ${rows}`, rows: Array.from({ length: rows }, (_, i) => ({ prompt: `${Math.floor(i / 100)}+${i % 100}=`, answer: String(Math.floor(i / 100) + (i % 100)) })) };
}

/**
 * The quick preset's experiment with `task` as its own task, the split made to fit as the editor
 * does (specWithTask, which checks the task); unchecked: put in as it is (the quick preset's split
 * of 964 problems fits heavyTask's 20,000), so that the server's check is the task's first.
 */
export function ownTaskSpec(task: TaskDefinition, { checked = true } = {}): ExperimentSpec {
  if (!checked) {
    const spec = presetSpec('quick');
    return { ...spec, task: { id: 'custom', difficulty: 1, scratchpad: spec.task.scratchpad, definition: task } };
  }
  const made = specWithTask(presetSpec('quick'), task);
  if (!made.ok) throw new Error(`the task was refused: ${made.findings.map((f) => f.message).join('; ')}`);
  return made.spec;
}

/** Ping until a pong comes (a ping sent while the connection is over its rate is dropped; a late pong counts too): all sent before is handled. */
export async function settled(r: Raw, tries = 30): Promise<boolean> {
  for (let i = 0; i < tries && r.ws.readyState === r.ws.OPEN; i++) {
    const n = r.got.length;
    r.send({ t: 'ping' });
    if (await r.waitFor((m) => m.t === 'pong' && r.got.indexOf(m) >= n, 2000)) return true;
  }
  return false;
}

/** Send frames as fast as the socket takes them (keeping under 1 MiB queued) until `until` passes. */
export async function hammer(r: Raw, frames: string[], until: number): Promise<number> {
  let n = 0;
  while (Date.now() < until && r.ws.readyState === r.ws.OPEN) {
    if (r.ws.bufferedAmount < MiB) {
      r.ws.send(frames[n % frames.length]);
      n++;
    } else await sleep(5);
    if (n % 20 === 0) await sleep(0);
  }
  return n;
}
