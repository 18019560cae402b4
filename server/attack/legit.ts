/**
 * A legitimate class that keeps working while an attack runs: a presenter and a few students,
 * each from a loopback address of its own, each streaming a long run's events at a step every
 * `stepMs` and timing each event's acknowledgement. The red-team checks that every student keeps
 * getting acks (and `npm run room -- --attack` reports their p95 during each attack).
 */
import { performance } from 'node:perf_hooks';
import { ROOM_PROTOCOL_VERSION, streamedEvent } from '../../src/room/protocol';
import { presetSpec } from '../load/harness';
import { ANSWER_MS, RoomClient, nextDevice } from '../load/roomClient';
import { syntheticRun } from '../load/syntheticRun';

export interface LegitClass {
  room: string;
  /** Ack latencies (ms) since the last mark(). */
  latencies: number[];
  /** Acks since the last mark(). */
  acks(): number;
  problems: string[];
  mark(): void;
  /** The p95 of latencies since the last mark, ms (NaN: none). */
  p95(): number;
  stop(): Promise<void>;
}

export function p95(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))];
}

export async function startClass(url: string, { students = 4, stepMs = 100 } = {}): Promise<LegitClass> {
  // A run of 600 steps (a minute at 100 ms a step); a student whose run ends takes a new seat and
  // streams it again, so the class outlasts any attack.
  const spec = { ...presetSpec('quick'), steps: 600 };
  const presenter = await RoomClient.connect(url, { keep: false });
  presenter.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'legit class', preset: null, spec, baseSeed: 1, pairing: false });
  const room = (await presenter.waitFor('created', () => true, { timeoutMs: ANSWER_MS })).room;
  // As a page sends them: a 'done' without its histories (streamedEvent).
  const run = syntheticRun(spec, 1).map(streamedEvent);
  let latencies: number[] = [];
  let acks = 0;
  const problems: string[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  const clients = new Set<RoomClient>([presenter]);
  let stopping = false;

  /** A student on a new seat; `from`: its device, kept across its seats. */
  const student = async (i: number, from: string) => {
    const c = await RoomClient.connect(url, { keep: false, from });
    clients.add(c);
    c.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: null });
    await c.waitFor('seat', () => true, { timeoutMs: ANSWER_MS });
    const sentAt: (number | undefined)[] = [];
    let next = 0;
    let finished = false;
    c.on((m) => {
      const sent = m.t === 'ack' ? sentAt[m.seq] : undefined;
      if (sent !== undefined && m.t === 'ack') {
        latencies.push(performance.now() - sent);
        acks++;
        sentAt[m.seq] = undefined;
      } else if (m.t === 'error') problems.push(`student ${i}: ${m.code}: ${m.message}`);
    });
    void c.closed.then(({ code }) => stopping || finished || problems.push(`student ${i}: connection closed (${code})`));
    const timer = setInterval(() => {
      if (c.ws.readyState !== c.ws.OPEN || finished) return;
      if (next >= run.length) {
        finished = true;
        clearInterval(timer);
        clients.delete(c);
        void c.close().then(async () => {
          if (!stopping) await student(i, from).catch((e: unknown) => problems.push(`student ${i}: ${String(e)}`));
        });
        return;
      }
      sentAt[next] = performance.now();
      c.send({ t: 'event', seq: next, event: run[next] });
      next++;
    }, stepMs);
    timers.push(timer);
  };
  for (let i = 0; i < students; i++) await student(i, nextDevice());
  return {
    room,
    get latencies() {
      return latencies;
    },
    acks: () => acks,
    problems,
    mark() {
      latencies = [];
      acks = 0;
    },
    p95: () => p95(latencies),
    async stop() {
      stopping = true;
      for (const t of timers) clearInterval(t);
      await Promise.all([...clients].map((c) => c.close()));
    },
  };
}
