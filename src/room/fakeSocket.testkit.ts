/**
 * Test kit for class mode's client (client.ts): a fake WebSocket the test opens, answers and
 * closes by hand, a fake room server's frames, a Map-backed storage, and a small valid run.
 * (Test code only; the page never loads it.)
 */
import { PRESETS } from '../core/experiment/presets';
import { emptySummary, foldEvent } from '../core/experiment/summary';
import type { RecordedEvent } from '../share/record';
import { RoomConnection, type RoomClientEvent, type SocketLike } from './client';
import type { KeyValueStore } from './secrets';
import type { RoomInfo, SeatInfo, ServerMessage } from './protocol';

export class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
  // What the test does as the network and the server:
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  server(message: ServerMessage | string): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  /** The connection ends (1006: lost; the server's own codes, e.g. 4001: the seat taken by another tab). */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  /** Messages of type `t` sent so far. */
  of<T extends string>(t: T): ({ t: T } & Record<string, unknown>)[] {
    return this.sent.filter((m): m is { t: T } & Record<string, unknown> => (m as { t?: string }).t === t);
  }
}

/** A socket factory that keeps every socket it made. */
export function socketFactory() {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    make: (url: string) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    get last(): FakeSocket {
      return sockets[sockets.length - 1];
    },
  };
}

export function memoryStorage(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

/** The room server the fake pages talk to, its origin (secrets are kept by it), and another server. */
export const URL = 'ws://127.0.0.1:8787/room';
export const ORIGIN = 'ws://127.0.0.1:8787';
export const ATTACKER = 'ws://127.0.0.2:9999/room';

export const ROOM_ID = 'r'.repeat(21) + '1';
export const KEY = 'k'.repeat(21) + '1';
export const TOKEN = 't'.repeat(21) + '1';
export const TOKEN2 = 't'.repeat(21) + '2';

export const roomSpec = { ...structuredClone(PRESETS.quick.spec), steps: 4 };

export function seatInfo(index: number, over: Partial<SeatInfo> = {}): SeatInfo {
  return { index, seed: 100 + index, member: null, partner: null, connected: true, events: 0, lastStep: 0, done: false, ...over };
}

export function roomInfo(over: Partial<RoomInfo> = {}): RoomInfo {
  return { id: ROOM_ID, name: 'class', preset: 'quick', spec: roomSpec, baseSeed: 100, pairing: false, status: 'open', locked: false, expiresAt: 2e12, seats: [], ...over };
}

/** A run of roomSpec's shape: base, steps 1..n (each with one rollout sample), 'done' after the last. */
export function runEvents(n: number, opts: { passAt1?: (step: number) => number; reward?: (step: number) => number } = {}): RecordedEvent[] {
  const pass = opts.passAt1 ?? (() => 0.4);
  const reward = opts.reward ?? ((s: number) => s / 10);
  const metrics = (s: number, id: string) => ({
    reward: reward(s), oracleReward: 0.4, pseudoLabelAccuracy: 0.7, rewardAccuracy: 0.8, rewardGap: 0.1, ownVoteAccuracy: 0.5, rescueRate: 0.5, misleadRate: 0.2,
    sharedErrorRate: 0.2, labeledFraction: 1, majorityRatio: 0.6, tieRate: 0, entropy: 1, length: 9, capFraction: 0, malformedFraction: 0, rewardStd: 0.3,
    zeroStdFraction: 0.2, supervisionContainsTruth: 0.9, topAnswerShare: 0.2, loss: 0.01, kl: 0, clipFraction: 0, gradNorm: 0.5,
    ...(s === roomSpec.steps || s % 2 === 0 ? { evalPassAt1: pass(s) + (id === 'B' ? 0.01 : 0) } : {}),
  });
  const events: RecordedEvent[] = [
    {
      type: 'base',
      members: roomSpec.members.map((m) => ({ id: m.id, family: 'mlp', params: 100, label: m.id })),
      base: roomSpec.members.map((m) => ({ memberId: m.id, passAt1: 0.4, majAtG: 0.5 })),
      baseKappa: [],
    },
  ];
  for (let s = 1; s <= n; s++) {
    events.push({
      type: 'step',
      step: s,
      steps: roomSpec.steps,
      arms: roomSpec.arms.map((a) => ({ armId: a.id, scheme: a.scheme, members: Object.fromEntries(a.members.map((id) => [id, metrics(s, id)])), pairs: [] })),
      samples: [{ armId: roomSpec.arms[0].id, prompt: '1+2+3=', truth: '6', members: [] }],
      stepMs: 10,
      tokens: 100,
    });
  }
  if (n === roomSpec.steps) {
    // The summary the runner ends with: its fold over the same events.
    const summary = emptySummary(roomSpec, 'wasm');
    for (const ev of events) foldEvent(summary, ev, roomSpec);
    events.push({ type: 'done', summary });
  }
  return events;
}

/** A student's page of ROOM_ID over fake sockets (the backoff's jitter fixed at its middle), and what it said. */
export function studentPage(storage = memoryStorage(), url = URL) {
  const f = socketFactory();
  const events: RoomClientEvent[] = [];
  const c = new RoomConnection({ url, role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage, random: () => 0.5 });
  c.subscribe((e) => events.push(e));
  return { c, f, storage, events };
}
