/**
 * The class the class-view benchmark (bench-class.ts) feeds the page: seats whose step events are
 * as large as a room accepts, and as many of them as the room's byte budget leaves each seat.
 *
 * The largest event a room accepts is a step of the largest experiment (10 arms of 6 members:
 * spec.ts's bounds), each member with every metric, every pair of an arm's members (15 an arm, as
 * the runner reports them: arm.ts) with its held-out figures, held-out figures at every step
 * (evalEvery 1), every number at full precision: the shape check of a frame (FRAME_SHAPE, 4,096
 * values an event) and the frame's 262,144 characters both hold. The room stores at most
 * `roomBytes` (server/limits.ts) counted as the store counts them (diskBound of each event's key
 * and JSON, and of the seat's record written beside it: server/seatWrites.ts), so `seats` seats
 * hold at most roomBytes / seats each (and seatBytes).
 */
import { type ExperimentSpec } from '../../src/core/experiment/spec';
import { emptySummary, foldEvent } from '../../src/core/experiment/summary';
import { PRESETS } from '../../src/core/experiment/presets';
import { type SeatEvent, parseClientMessage, streamedEvent } from '../../src/room/protocol';
import { eventProblem } from '../../src/room/eventRules';
import { DEFAULT_LIMITS } from '../../server/limits';
import { diskBound } from '../../server/diskUse';
import { eventKey, seatKey } from '../../server/store';
import { generator, syntheticRun } from '../../server/load/syntheticRun';

const MEMBERS = ['A', 'B', 'C', 'D', 'E', 'F'];
const ROOM = 'r'.repeat(22);

/** The largest experiment a room runs: 10 self-rewarded arms of 6 members, held-out figures at every step. */
export function classSpec(steps: number): ExperimentSpec {
  const s = structuredClone(PRESETS['peers-learn'].spec);
  const member = s.members[0];
  return {
    ...s,
    steps,
    evalEvery: 1,
    members: MEMBERS.map((id, i) => ({ ...member, id, initSeed: member.initSeed + i })),
    arms: Array.from({ length: 10 }, (_, i) => ({ ...s.arms[0], id: `arm${i}`, scheme: 'self' as const, members: [...MEMBERS] })),
  };
}

type Step = Extract<SeatEvent, { type: 'step' }>;

/** Every number of a step at full precision (in [0, 1]: a rate's range), and every pair of each arm's members. */
function widest(step: Step, rand: () => number): Step {
  const full = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' || v === null ? rand() : v])) as T;
  const arms = step.arms.map((arm) => {
    const ids = Object.keys(arm.members);
    const pairs = ids.flatMap((a, i) => ids.slice(i + 1).map((b) => ({ a, b, agreement: rand(), kappa: rand(), bothWrongSame: rand(), evalKappa: rand(), evalBothWrongSame: rand() })));
    return { ...arm, members: Object.fromEntries(Object.entries(arm.members).map(([id, m]) => [id, full(m)])), pairs, ensembleMajAtG: rand() };
  });
  return { ...step, arms };
}

/** One seat's run of `spec` (its seed): base, steps as wide as the room accepts, and its 'done' as the room stores it (streamed). */
export function seatRun(spec: ExperimentSpec, seed: number): SeatEvent[] {
  const rand = generator(seed * 7919 + 1);
  const events = syntheticRun(spec, seed).map((e) => (e.type === 'step' ? widest(e, rand) : e));
  const summary = emptySummary({ ...spec, seed }, 'wasm');
  for (const e of events) if (e.type !== 'done') foldEvent(summary, e, spec);
  return [...events.filter((e) => e.type !== 'done'), streamedEvent({ type: 'done', summary })];
}

/** The bytes the room counts for a seat's event at `seq` (its record, and the seat's record rewritten beside it, at its widest). */
export function storedBytes(seat: number, seq: number, json: string): number {
  const record = JSON.stringify({ index: seat, tokenHash: 'f'.repeat(64), seed: 2 ** 31 - 1, member: null, events: 5002, lastStep: 5000, done: false, bytes: Number.MAX_SAFE_INTEGER, address: '255.255.255.255' });
  return diskBound(eventKey(ROOM, seat, seq), json) + diskBound(seatKey(ROOM, seat), record);
}

/**
 * How many RL steps each of `seats` seats may store within the room's byte budget (and the seat's),
 * with step events of `stepChars` characters and a base and done of `otherChars` together.
 */
export function stepsWithinBudget(seats: number, stepChars: number, otherChars: number): number {
  const perSeat = Math.min(DEFAULT_LIMITS.seatBytes, Math.floor(DEFAULT_LIMITS.roomBytes / seats));
  const step = storedBytes(0, 0, 'x'.repeat(stepChars));
  const rest = storedBytes(0, 0, 'x'.repeat(otherChars)) + storedBytes(0, 0, '');
  return Math.max(1, Math.floor((perSeat - rest) / step));
}

/** Why the room would refuse `event` as seat event `seq` of a run of `spec` (null: it stores it), as the server checks it. */
export function refusal(spec: ExperimentSpec, seed: number, seq: number, event: SeatEvent): string | null {
  const frame = JSON.stringify({ t: 'event', seq, event });
  const parsed = parseClientMessage(frame);
  if (!parsed.ok) return parsed.message;
  const lastStep = event.type === 'step' ? event.step - 1 : event.type === 'done' ? spec.steps : 0;
  return eventProblem(spec, { events: seq, lastStep, seed }, seq, event);
}
