/**
 * The runner's phases (runner.ts createRun), each over a resolved experiment (resolve.ts) and the
 * run's state:
 *
 *   restoreRun        a checkpoint's references, copies and Adam state, before any RL step
 *   evaluateBase      every warm-started member on the held-out set, and every pair's overlap
 *   rlStep            one RL step: draw B prompts, one cohort step (step.ts) or a member part's
 *                     step (memberStep.ts), the held-out evaluation every E steps, one event
 *   captureCheckpoint the state between two steps as plain data
 *
 * Every random stream is a named child of the experiment's root (seed, purpose, step), so a run
 * continued from a checkpoint repeats the uninterrupted one.
 */
import type { NamedWeight } from '../models/policy';
import { evaluatePolicy, type HeldOutScore } from '../evaluate';
import { createPolicy } from '../models/index';
import { median } from '../median';
import { CHECKPOINT_VERSION, CheckpointError, type Checkpoint } from './checkpoint';
import { readCheckpoint } from './checkpointShapes';
import { policyConfigFor, type WarmMember } from './cohort';
import { stepPromptIndices } from './data';
import type { ArmStepMetrics, RunnerEvent, RunSummary } from './events';
import { evalPairMetrics, pooledMajAtG } from './measure';
import { exchangeEvaluation, memberStep, partnerSlot } from './memberStep';
import type { ResolvedExperiment } from './resolve';
import { buildTrainingStacks, disposeTrainingStacks, slotId, type Stacking, type TrainingStack } from './stacks';
import { cohortStep, evaluateCohort } from './step';
import { emptySummary, foldEvent } from './summary';
import { type BlowUp, blowUpExplanation } from './blowUp';

type BaseEvent = Extract<RunnerEvent, { type: 'base' }>;

/** Tests only: `poisonWeight` writes `value` (default NaN) into one trained copy's first weight after its update at RL step `step`. */
export interface RunFaults {
  poisonWeight?: { step: number; armId: string; memberId: string; value?: number };
}

/** What a run holds between pulls. */
export interface RunState {
  /** The warm-started members (their frozen references), by id. */
  warm: Map<string, WarmMember>;
  /** Every arm's trained copies, grouped by shape. */
  stacks: TrainingStack[];
  /** The last completed RL step. */
  step: number;
  summary: RunSummary;
  stepTimes: number[];
  disposed: boolean;
  /** Set when a step made a number non-finite: the run ends there and checkpoints are refused. */
  halted: BlowUp | null;
  /** A member part stopped between its update and the end of its step: its weights are of no step. */
  torn: boolean;
}

export function newRunState(x: ResolvedExperiment, backend: string): RunState {
  return { warm: new Map(), stacks: [], step: 0, summary: emptySummary(x.spec, backend), stepTimes: [], disposed: false, halted: null, torn: false };
}

/** Held-out evaluation options for one purpose (its stream is the root's child of that name). */
function evalOptions(x: ResolvedExperiment, purpose: string) {
  return {
    groupSize: x.spec.grpo.groupSize,
    temperature: x.spec.grpo.temperature,
    maxNewTokens: x.lengthCap,
    batchSize: Math.max(1, Math.floor(512 / x.spec.grpo.groupSize)),
    rng: x.root.child(purpose),
  };
}

export async function restoreRun(x: ResolvedExperiment, st: RunState, input: Checkpoint, stacking?: Stacking): Promise<void> {
  // Refused whole before any tensor exists (checkpoint.ts): another spec or version, a step
  // outside 0..steps, missing or extra arms or members, other shapes, non-finite values.
  const read = readCheckpoint(x.spec, input, undefined, x.member?.scope, x.maxLen);
  if (!read.ok) throw new CheckpointError(read.problem);
  const cp = read.checkpoint;
  for (const m of x.spec.members) {
    if (x.needed && !x.needed.has(m.id)) continue;
    const policy = createPolicy(policyConfigFor(m, x.vocabSize, x.maxLen), x.root.child(`init/${m.initSeed}/${m.family}`));
    policy.importWeights(cp.references[m.id]);
    const info = cp.members.find((i) => i.id === m.id)!;
    st.warm.set(m.id, { spec: m, reference: policy, info });
  }
  st.stacks = buildTrainingStacks(x.trainSpec, st.warm, stacking);
  const saved = new Map(cp.arms.flatMap((a) => a.members.map((m) => [slotId(a.id, m.id), m] as const)));
  for (const s of st.stacks) {
    const states = s.slots.map((slot) => {
      const m = saved.get(slotId(slot.armId, slot.memberId));
      if (!m) throw new Error(`checkpoint: no weights for member ${slot.memberId} of arm ${slot.armId}`);
      return m;
    });
    states.forEach((m, k) => s.models.importModel(k, m.weights));
    s.optimizer.importModelStates(states.map((m) => m.optimizer));
  }
  st.step = cp.step;
  Object.assign(st.summary, structuredClone(cp.summary));
}

/**
 * Every warm-started member on the held-out set, and the error overlap of every pair. A member
 * part's pair: its member's evaluation, and its partner's scored from the answers it sends. Only
 * the lead part of a pool evaluates (the pool takes its 'base' event); null: stopped meanwhile.
 */
export async function evaluateBase(x: ResolvedExperiment, st: RunState): Promise<BaseEvent | null> {
  const members = [...st.warm.values()].map((w) => w.info);
  if (x.part && !x.part.lead) return { type: 'base', members, base: [], baseKappa: [] };
  const { task, difficulty, split, member } = x;
  const evals = new Map<string, HeldOutScore>();
  for (const w of st.warm.values()) {
    evals.set(w.spec.id, await evaluatePolicy(w.reference, task, difficulty, split.heldOut, evalOptions(x, `eval/base/${w.spec.id}`)));
  }
  if (member) {
    const rng = evalOptions(x, `eval/base/${member.partnerId}`).rng;
    const partner = await exchangeEvaluation(member, 0, evals.get(member.memberId)!, split.heldOut, x.spec.grpo.groupSize, rng, () => st.disposed);
    if (!partner) return null;
    evals.set(member.partnerId, partner);
  }
  // Pairs in the spec's member order (a member part: its pair).
  const ids = x.spec.members.map((m) => m.id).filter((id) => evals.has(id));
  const baseKappa: BaseEvent['baseKappa'] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const [a, b] = [evals.get(ids[i])!, evals.get(ids[j])!];
      const p = evalPairMetrics(a, b, split.heldOut);
      // The untrained pair pooled by maj@G: the baseline every trained pair's pooled vote is read against.
      const pooled = pooledMajAtG(a, b, split.heldOut, x.root.child(`ensemble/base/${ids[i]}/${ids[j]}`));
      baseKappa.push({ a: ids[i], b: ids[j], kappa: p.kappa, bothWrongSame: p.bothWrongSame, passCorrelation: p.passCorrelation, pooledMajAtG: pooled });
    }
  }
  const base = [...st.warm.keys()].map((memberId) => ({
    memberId,
    passAt1: evals.get(memberId)!.passAt1,
    majAtG: evals.get(memberId)!.majAtG,
    warmStartSteps: st.warm.get(memberId)!.info.warmStartSteps,
  }));
  return { type: 'base', members, base, baseKappa };
}

/**
 * One RL step after `st.step`: its 'step' event, or its 'nonfinite' event when a loss, gradient or
 * weight stopped being finite (the run ends there), each already folded into the summary; null
 * when the run was stopped during the step (a member part's exchange).
 */
export async function rlStep(x: ResolvedExperiment, st: RunState, faults?: RunFaults): Promise<RunnerEvent | null> {
  const { spec, root, split, member } = x;
  // `st.step` becomes this step once it is done: a checkpoint taken after a failed one (a member
  // part's exchange stopped before its update) is still of the last completed step.
  const s = st.step + 1;
  const t0 = performance.now();
  const problems = stepPromptIndices(root, s, spec.grpo.promptsPerStep, split.rl.length).map((i) => split.rl[i]);
  const poison = faults?.poisonWeight;
  const fault = poison?.step === s ? { armId: poison.armId, memberId: poison.memberId, value: poison.value ?? Number.NaN } : undefined;
  const ctx = { step: s, problems, root, spec: x.trainSpec, task: x.task, difficulty: x.difficulty, maxNewTokens: x.lengthCap, warm: st.warm, fault };
  const result = member ? await memberStep(st.stacks[0], { ...ctx, plan: member, stopped: () => st.disposed }) : await cohortStep(st.stacks, ctx);
  if (!result) return null;
  if (result.nonfinite.length > 0) {
    st.step = s;
    // This step is not reported (its numbers would be NaN), nothing is evaluated or saved with
    // these weights, and the run ends (docs/RELIABILITY.md, "Numerical blow-ups").
    const [first, ...others] = result.nonfinite;
    st.halted = { step: s, armId: first.armId, memberId: first.memberId, quantity: first.quantity, value: first.value };
    const alsoAt = x.part || member ? { alsoAt: others.map((o) => ({ armId: o.armId, memberId: o.memberId })) } : {};
    const event: RunnerEvent = { type: 'nonfinite', ...st.halted, explanation: blowUpExplanation(spec, st.halted, others), ...alsoAt };
    foldEvent(st.summary, event, spec);
    return event;
  }
  if (s % spec.evalEvery === 0 || s === spec.steps) {
    const evals: Map<string, HeldOutScore> = await evaluateCohort(st.stacks, `eval/step${s}`, {
      task: x.task,
      difficulty: x.difficulty,
      problems: split.heldOut,
      options: (purpose) => evalOptions(x, purpose),
    });
    if (member) {
      // The update is done: a stop from here on leaves no checkpoint of this step or the last (torn).
      st.torn = true;
      const own = evals.get(slotId(member.arm.id, member.memberId))!;
      const rng = evalOptions(x, `eval/step${s}/${member.partnerId}`).rng;
      const partner = await exchangeEvaluation(member, s, own, split.heldOut, spec.grpo.groupSize, rng, () => st.disposed);
      if (!partner) return null;
      evals.set(partnerSlot(member), partner);
      st.torn = false;
    }
    result.arms.forEach((metrics) => attachEvaluation(x, metrics, evals, s));
  }
  st.step = s;
  const stepMs = performance.now() - t0;
  const event: RunnerEvent = { type: 'step', step: s, steps: spec.steps, arms: result.arms, samples: result.samples, stepMs, tokens: result.tokens };
  foldEvent(st.summary, event, spec);
  st.stepTimes.push(stepMs);
  st.summary.medianStepMs = median(st.stepTimes);
  return event;
}

/** Held-out results of an evaluation step: per member, per pair, and the pooled pair. */
function attachEvaluation(x: ResolvedExperiment, metrics: ArmStepMetrics, evals: Map<string, HeldOutScore>, s: number): void {
  const of = (memberId: string) => evals.get(slotId(metrics.armId, memberId))!;
  for (const [memberId, m] of Object.entries(metrics.members)) {
    m.evalPassAt1 = of(memberId).passAt1;
    m.evalMajAtG = of(memberId).majAtG;
  }
  for (const p of metrics.pairs) {
    const q = evalPairMetrics(of(p.a), of(p.b), x.split.heldOut);
    p.evalKappa = q.kappa;
    p.evalBothWrongSame = q.bothWrongSame;
  }
  const members = x.spec.arms.find((a) => a.id === metrics.armId)!.members;
  if (members.length >= 2) {
    metrics.ensembleMajAtG = pooledMajAtG(of(members[0]), of(members[1]), x.split.heldOut, x.root.child(`ensemble/${metrics.armId}/${s}`));
  }
}

/** The run between two steps as plain data (the caller refuses a halted or torn run first). */
export async function captureCheckpoint(x: ResolvedExperiment, st: RunState): Promise<Checkpoint> {
  const references: Record<string, NamedWeight[]> = {};
  for (const [id, w] of st.warm) references[id] = await w.reference.exportWeights();
  const saved = new Map<string, Checkpoint['arms'][number]['members'][number]>();
  for (const s of st.stacks) {
    const weights = await s.models.exportAll();
    const optimizer = await s.optimizer.exportModelStates(s.slots.length);
    s.slots.forEach((slot, k) => saved.set(slotId(slot.armId, slot.memberId), { id: slot.memberId, weights: weights[k], optimizer: optimizer[k] }));
  }
  const arms: Checkpoint['arms'] = x.trainSpec.arms.map((a) => ({ id: a.id, members: a.members.map((m) => saved.get(slotId(a.id, m))!) }));
  const members = [...st.warm.values()].map((w) => w.info);
  return { version: CHECKPOINT_VERSION, spec: x.spec, step: st.step, members, references, arms, summary: structuredClone(st.summary) };
}

export function disposeRun(st: RunState): void {
  st.disposed = true;
  disposeTrainingStacks(st.stacks);
  st.stacks = [];
  for (const w of st.warm.values()) w.reference.dispose();
  st.warm.clear();
}
