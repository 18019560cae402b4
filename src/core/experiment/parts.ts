/**
 * A run split into parts, one per worker (the pool: src/engine/pooledRun.ts, cli/experiment/pool.ts). Arms
 * never exchange anything during training (a peer arm's members exchange votes inside the arm,
 * and every random stream is named by seed, purpose, member and step: arm.ts, random.ts), so each
 * part trains some whole arms, and the merged events equal a one-part run's bit for bit on wasm.
 *
 *   planParts     arms onto N parts by cost, greedy longest-first (LPT); part 0 is the lead
 *   partMembers   the members a part warm-starts: its arms' members and teachers (the lead: all,
 *                 for the base evaluation, which only the lead runs)
 *   mergeSteps    the parts' events of one step as the one-part run yields it (arms in spec order)
 *   mergeCheckpoints  the parts' checkpoints as one checkpoint of the whole run
 *
 * Plain data in and out: no tensor, no worker.
 */
import { countParams } from '../models';
import { policyConfigFor } from './cohort';
import { runMaxLen, runVocabSize } from './lengths';
import { blowUpExplanation } from './blowUp';
import { CHECKPOINT_VERSION, type Checkpoint } from './checkpoint';
import type { ExperimentSpec } from './spec';
import type { RunSummary, RunnerEvent } from './events';

/** The arms one worker trains. The lead also warm-starts every member and evaluates the base. */
export interface RunPart {
  arms: string[];
  lead: boolean;
}

type StepEvent = Extract<RunnerEvent, { type: 'step' }>;
type NonFiniteEvent = Extract<RunnerEvent, { type: 'nonfinite' }>;

/**
 * The relative cost of an arm's RL step: the parameters of every copy it trains (sampling, the
 * loss and its backward pass are each about linear in them at this scale), plus half its frozen
 * teacher's (the teacher only samples).
 */
export function armCost(spec: ExperimentSpec, armId: string, T: number = runMaxLen(spec)): number {
  const V = runVocabSize(spec);
  const params = new Map(spec.members.map((m) => [m.id, countParams(policyConfigFor(m, V, T))]));
  const arm = spec.arms.find((a) => a.id === armId)!;
  return arm.members.reduce((s, id) => s + (params.get(id) ?? 0), 0) + (arm.teacher ? (params.get(arm.teacher) ?? 0) / 2 : 0);
}

/**
 * At most `workers` parts (never more than the arms, never an empty one): the costliest arm first
 * onto the least loaded part (ties: the later part), each part's arms then in spec order. `maxLen`: the resolved experiment's (resolve.ts), where
 * the caller has it.
 */
export function planParts(spec: ExperimentSpec, workers: number, maxLen: number = runMaxLen(spec)): RunPart[] {
  const n = Math.max(1, Math.min(Math.floor(workers), spec.arms.length));
  const order = spec.arms.map((a, i) => ({ id: a.id, i, cost: armCost(spec, a.id, maxLen) })).sort((a, b) => b.cost - a.cost || a.i - b.i);
  const load = new Array<number>(n).fill(0);
  const owned: number[][] = Array.from({ length: n }, () => []);
  for (const a of order) {
    // Ties go to the last part: the lead (part 0) has the base evaluation to do as well.
    const k = load.lastIndexOf(Math.min(...load));
    load[k] += a.cost;
    owned[k].push(a.i);
  }
  return owned.map((idx, k) => ({ arms: idx.sort((x, y) => x - y).map((i) => spec.arms[i].id), lead: k === 0 }));
}

/** The members a part builds: every member for the lead; else its arms' members and their teachers. */
export function partMembers(spec: ExperimentSpec, part: RunPart): Set<string> {
  if (part.lead) return new Set(spec.members.map((m) => m.id));
  const arms = spec.arms.filter((a) => part.arms.includes(a.id));
  return new Set(arms.flatMap((a) => [...a.members, ...(a.teacher ? [a.teacher] : [])]));
}

const armIndex = (spec: ExperimentSpec) => new Map(spec.arms.map((a, i) => [a.id, i]));

/**
 * One step's events of every part as one event: a 'step' with every arm's metrics and samples in
 * spec order and the tokens summed, or, when any part's copies blew up, the 'nonfinite' of the
 * first copy in spec order (arms, then members) naming every other one, as a one-part run says it.
 * `stepMs`: the pool's wall time of the step.
 */
export function mergeSteps(spec: ExperimentSpec, events: RunnerEvent[], stepMs: number): StepEvent | NonFiniteEvent {
  const at = armIndex(spec);
  const nonfinite = events.filter((e): e is NonFiniteEvent => e.type === 'nonfinite');
  if (nonfinite.length > 0) {
    const memberAt = (armId: string, memberId: string) => at.get(armId)! * 1000 + spec.arms[at.get(armId)!].members.indexOf(memberId);
    const copies = nonfinite.flatMap((e) => [{ armId: e.armId, memberId: e.memberId }, ...(e.alsoAt ?? [])]);
    copies.sort((a, b) => memberAt(a.armId, a.memberId) - memberAt(b.armId, b.memberId));
    const first = nonfinite.find((e) => e.armId === copies[0].armId && e.memberId === copies[0].memberId)!;
    const halt = { step: first.step, armId: first.armId, memberId: first.memberId, quantity: first.quantity, value: first.value };
    return { type: 'nonfinite', ...halt, explanation: blowUpExplanation(spec, halt, copies.slice(1)) };
  }
  const steps = events.filter((e): e is StepEvent => e.type === 'step');
  if (steps.length !== events.length || steps.some((e) => e.step !== steps[0].step)) {
    throw new Error(`the pool's parts are out of step: ${events.map((e) => (e.type === 'step' ? `step ${e.step}` : e.type)).join(', ')}`);
  }
  const byArm = <T extends { armId: string }>(xs: T[]) => xs.sort((a, b) => at.get(a.armId)! - at.get(b.armId)!);
  return {
    type: 'step',
    step: steps[0].step,
    steps: steps[0].steps,
    arms: byArm(steps.flatMap((e) => e.arms)),
    samples: byArm(steps.flatMap((e) => e.samples)),
    stepMs,
    tokens: steps.reduce((s, e) => s + e.tokens, 0),
  };
}

/**
 * The parts' checkpoints (the lead's first, all of one step) as one: the lead's warm-started
 * references and member infos, every arm from the part that trains it, in spec order, and the
 * pool's summary (folded from the merged events).
 */
export function mergeCheckpoints(spec: ExperimentSpec, parts: Checkpoint[], summary: RunSummary): Checkpoint {
  const [lead] = parts;
  if (parts.some((p) => p.step !== lead.step)) throw new Error(`the pool's checkpoints are of different steps: ${parts.map((p) => p.step).join(', ')}`);
  const arms = new Map(parts.flatMap((p) => p.arms.map((a) => [a.id, a] as const)));
  return {
    version: CHECKPOINT_VERSION,
    spec,
    step: lead.step,
    members: lead.members,
    references: lead.references,
    arms: spec.arms.map((a) => {
      const got = arms.get(a.id);
      if (!got) throw new Error(`no part holds arm ${a.id}`);
      return got;
    }),
    summary: structuredClone(summary),
  };
}
