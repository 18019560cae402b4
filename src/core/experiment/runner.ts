/**
 * The experiment runner: an async step generator that the UI worker and the CLI both drive.
 *
 *   warm start every member once  ->  evaluate the base  ->  stack the arms' copies by shape
 *   ->  for each RL step: draw B prompts  ->  one cohort step (step.ts)  ->  evaluate every E steps
 *
 * It is pull-driven: nothing runs while nobody pulls, which is how the UI pauses and single-steps.
 * After the warm start, each pull yields exactly one 'step' event. Between steps `checkpoint()`
 * captures everything (weights, optimizer state, step, history) as plain data; a run created
 * from that checkpoint continues exactly as the uninterrupted run would have: every random
 * stream after the warm start is derived from (seed, purpose, step), not from a running state.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../random';
import type { NamedWeight } from '../models/policy';
import { CHECKPOINT_VERSION, CheckpointError, type Checkpoint } from './checkpoint';
import { readCheckpoint } from './checkpointShapes';
import { getTask, sequenceLength, type Split } from '../tasks/index';
import { VOCAB_SIZE } from '../tasks/tokenizer';
import type { Task } from '../tasks/types';
import { evaluatePolicy, type HeldOutScore } from '../evaluate';
import { policyConfigFor, type WarmMember } from './cohort';
import type { WarmStartCache } from './warmStartCache';
import { warmStartCohort } from './warmStartCohort';
import { createPolicy } from '../models/index';
import { evalPairMetrics, pooledMajAtG } from './measure';
import { buildTrainingStacks, disposeTrainingStacks, slotId, type Stacking, type TrainingStack } from './stacks';
import { cohortStep, evaluateCohort } from './step';
import { experimentSplit, stepPromptIndices } from './data';
import { emptySummary, foldEvent } from './summary';
import type { ExperimentSpec } from './spec';
import type { ArmStepMetrics, RunnerEvent, RunSummary } from './events';
import { checkMemory, type MemoryLimits } from './budget';
import { type BlowUp, blowUpExplanation } from './blowUp';
import { partMembers, type RunPart } from './parts';
import { memberPlan, type MemberPart } from './memberParts';
import { exchangeEvaluation, memberStep, partnerSlot } from './memberStep';
import { median } from '../median';

/** Thrown by events() before the base evaluation when a member missed its warm-start target. */
export { WarmStartMissError } from './warmStartCohort';

/** The checkpoint format (checkpoint.ts: its version, schema, migrations and checks). */
export { CHECKPOINT_VERSION, CheckpointError, type Checkpoint } from './checkpoint';

export interface RunOptions {
  checkpoint?: Checkpoint;
  /** Reported in the summary (the backend the caller initialised). */
  backend?: string;
  /** 'shape' (default): same-shape copies train as one stack; 'slot': one model at a time. */
  stacking?: Stacking;
  /** Stored warm starts: a member found there skips its warm start; one trained is saved there. */
  warmStartCache?: WarmStartCache;
  /** What the backend can hold: a run estimated above it throws RunTooLargeError before it starts. */
  memoryLimits?: MemoryLimits;
  /**
   * A pooled run's part (parts.ts): train only these arms, build only the members they need, and
   * evaluate the base only in the lead part (the others yield a 'base' event without evaluations).
   * A checkpoint then holds only these arms; resume a part from the merged checkpoint of the pool.
   */
  part?: RunPart;
  /**
   * A member part (memberParts.ts): train only this member of this two-member peer arm, whose
   * partner trains elsewhere (class mode: another browser), exchanging answers with it through
   * `exchange` at every step and evaluation (the base's at step 0). Its events hold its own
   * member's metrics and the pair's; mergeMemberSteps merges the pair's. Its checkpoint holds
   * its member alone and resumes a member part (the exchanges after its step are made again).
   */
  memberPart?: MemberPart;
  /**
   * Tests only: faults injected to test what catches them. `poisonWeight` writes `value` (default
   * NaN) into the first weight of one trained copy right after its update at RL step `step`.
   */
  faults?: { poisonWeight?: { step: number; armId: string; memberId: string; value?: number } };
}

/** Thrown by checkpoint() once a 'nonfinite' event was yielded: the weights are poisoned, never saved. */
export class NonFiniteRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonFiniteRunError';
  }
}

/** Thrown by events() before anything is computed when the run would not fit its backend's memory. */
export class RunTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunTooLargeError';
  }
}

/** What checkpoint() throws once a run halted on a non-finite number. */
export function noCheckpointAfter(h: BlowUp): NonFiniteRunError {
  return new NonFiniteRunError(`no checkpoint after step ${h.step}: a ${h.quantity} of member ${h.memberId} in arm ${h.armId} became ${h.value}, so the weights are not finite (the last checkpoint, of step ${h.step - 1} or before, is still good)`);
}

export interface ExperimentRun {
  events(): AsyncGenerator<RunnerEvent, void, void>;
  /** Plain-data snapshot between steps (call it when the generator is not mid-step). */
  checkpoint(): Promise<Checkpoint>;
  dispose(): void;
}

/** The completion length cap L: the spec's, or the longest correct completion plus slack. */
export function lengthCap(spec: ExperimentSpec, task: Task): number {
  return spec.grpo.maxNewTokens > 0 ? spec.grpo.maxNewTokens : task.maxCompletionLength(spec.task.difficulty) + 2;
}

export function createRun(spec: ExperimentSpec, opts: RunOptions = {}): ExperimentRun {
  const root = new Rng(spec.seed);
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const promptTokens = 1 + task.promptLength(d);
  const maxLen = Math.max(sequenceLength(task, d), promptTokens + L);
  // An over-large run is refused before any tensor exists (budget.ts; the caller's limits).
  const tooLarge = opts.memoryLimits ? checkMemory(spec, opts.memoryLimits) : null;
  const split: Split = experimentSplit(spec, root);
  // A part trains some arms (the steps see only those); one-part runs train every arm.
  const part = opts.part;
  // A member part builds one member and trains its copy in one arm; the partner's answers come by exchange.
  const member = opts.memberPart ? memberPlan(spec, opts.memberPart) : null;
  if (member && part) throw new Error('a run is a part of a pool or a member part, not both');
  const trainSpec: ExperimentSpec = member ? member.trainSpec : part ? { ...spec, arms: spec.arms.filter((a) => part.arms.includes(a.id)) } : spec;
  const needed = member ? new Set(member.scope.members) : part ? partMembers(spec, part) : undefined;

  const warm = new Map<string, WarmMember>();
  let stacks: TrainingStack[] = [];
  let step = 0;
  let disposed = false;
  /** Set when a step made a number non-finite: the run ends there and checkpoint() refuses. */
  let halted: BlowUp | null = null;
  /** A member part stopped between its update and the end of its step: its weights are of no step. */
  let torn = false;
  const stepTimes: number[] = [];
  const summary: RunSummary = emptySummary(spec, opts.backend ?? tf.getBackend());


  const evalOpts = (purpose: string) => ({
    groupSize: spec.grpo.groupSize,
    temperature: spec.grpo.temperature,
    maxNewTokens: L,
    batchSize: Math.max(1, Math.floor(512 / spec.grpo.groupSize)),
    rng: root.child(purpose),
  });

  async function restore(input: Checkpoint): Promise<void> {
    // Refused whole before any tensor exists (checkpoint.ts): another spec or version, a step
    // outside 0..steps, missing or extra arms or members, other shapes, non-finite values.
    const read = readCheckpoint(spec, input, undefined, member?.scope);
    if (!read.ok) throw new CheckpointError(read.problem);
    const cp = read.checkpoint;
    for (const m of spec.members) {
      if (needed && !needed.has(m.id)) continue;
      const policy = createPolicy(policyConfigFor(m, VOCAB_SIZE, maxLen), root.child(`init/${m.initSeed}/${m.family}`));
      policy.importWeights(cp.references[m.id]);
      const info = cp.members.find((x) => x.id === m.id)!;
      warm.set(m.id, { spec: m, reference: policy, info });
    }
    stacks = buildTrainingStacks(trainSpec, warm, opts.stacking);
    const saved = new Map(cp.arms.flatMap((a) => a.members.map((m) => [slotId(a.id, m.id), m] as const)));
    for (const s of stacks) {
      const states = s.slots.map((slot) => {
        const m = saved.get(slotId(slot.armId, slot.memberId));
        if (!m) throw new Error(`checkpoint: no weights for member ${slot.memberId} of arm ${slot.armId}`);
        return m;
      });
      states.forEach((m, k) => s.models.importModel(k, m.weights));
      s.optimizer.importModelStates(states.map((m) => m.optimizer));
    }
    step = cp.step;
    Object.assign(summary, structuredClone(cp.summary));
  }

  /**
   * Every warm-started member on the held-out set, and the error overlap of every pair. A member
   * part's pair: its member's evaluation, and its partner's scored from the answers it sends.
   */
  async function baseEvaluation(): Promise<Extract<RunnerEvent, { type: 'base' }> | null> {
    const evals = new Map<string, HeldOutScore>();
    for (const w of warm.values()) {
      evals.set(w.spec.id, await evaluatePolicy(w.reference, task, d, split.heldOut, evalOpts(`eval/base/${w.spec.id}`)));
    }
    if (member) {
      const partner = await exchangeEvaluation(member, 0, evals.get(member.memberId)!, split.heldOut, spec.grpo.groupSize, evalOpts(`eval/base/${member.partnerId}`).rng, () => disposed);
      if (!partner) return null;
      evals.set(member.partnerId, partner);
    }
    // Pairs in the spec's member order (a member part: its pair).
    const ids = spec.members.map((m) => m.id).filter((id) => evals.has(id));
    const baseKappa: Extract<RunnerEvent, { type: 'base' }>['baseKappa'] = [];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const [a, b] = [evals.get(ids[i])!, evals.get(ids[j])!];
        const p = evalPairMetrics(a, b, split.heldOut);
        // The untrained pair pooled by maj@G: the baseline every trained pair's pooled vote is read against.
        const pooled = pooledMajAtG(a, b, split.heldOut, root.child(`ensemble/base/${ids[i]}/${ids[j]}`));
        baseKappa.push({ a: ids[i], b: ids[j], kappa: p.kappa, bothWrongSame: p.bothWrongSame, passCorrelation: p.passCorrelation, pooledMajAtG: pooled });
      }
    }
    return {
      type: 'base',
      members: [...warm.values()].map((w) => w.info),
      base: [...warm.keys()].map((memberId) => ({
        memberId,
        passAt1: evals.get(memberId)!.passAt1,
        majAtG: evals.get(memberId)!.majAtG,
        warmStartSteps: warm.get(memberId)!.info.warmStartSteps,
      })),
      baseKappa,
    };
  }

  async function* events(): AsyncGenerator<RunnerEvent, void, void> {
    if (tooLarge) throw new RunTooLargeError(tooLarge);
    if (opts.checkpoint) {
      await restore(opts.checkpoint);
    } else {
      // Warm start each member once (or load it); every arm's copies start from these weights.
      // A member that missed its warm-start target throws WarmStartMissError here, before the
      // base evaluation: no RL with a member weaker than the spec asked for (docs/WARMSTARTS.md).
      yield* warmStartCohort(
        { spec, pool: split.warmStart, vocabSize: VOCAB_SIZE, maxLen, root, backend: summary.backend, cache: opts.warmStartCache, only: needed },
        warm,
        () => disposed,
      );
      if (disposed) return;
      // Only the lead part evaluates the base (the pool takes its 'base' event).
      const base = !part || part.lead ? await baseEvaluation() : { type: 'base' as const, members: [...warm.values()].map((w) => w.info), base: [], baseKappa: [] };
      if (!base) return;
      stacks = buildTrainingStacks(trainSpec, warm, opts.stacking);
      foldEvent(summary, base, spec);
    }
    yield { type: 'base', members: [...warm.values()].map((w) => w.info), base: summary.base, baseKappa: summary.baseKappa };

    while (step < spec.steps && !disposed) {
      // `step` becomes this step once it is done: a checkpoint taken after a failed one (a member
      // part's exchange stopped before its update) is still of the last completed step.
      const s = step + 1;
      const t0 = performance.now();
      const problems = stepPromptIndices(root, s, spec.grpo.promptsPerStep, split.rl.length).map((i) => split.rl[i]);
      const isEval = s % spec.evalEvery === 0 || s === spec.steps;
      const poison = opts.faults?.poisonWeight;
      const fault = poison?.step === s ? { armId: poison.armId, memberId: poison.memberId, value: poison.value ?? Number.NaN } : undefined;
      const ctx = { step: s, problems, root, spec: trainSpec, task, difficulty: d, maxNewTokens: L, warm, fault };
      const result = member ? await memberStep(stacks[0], { ...ctx, plan: member, stopped: () => disposed }) : await cohortStep(stacks, ctx);
      if (!result) return;
      if (result.nonfinite.length > 0) {
        step = s;
        // A loss, gradient or weight stopped being finite (the update's own readback says so):
        // this step is not reported (its numbers would be NaN), nothing is evaluated or saved with
        // these weights, and the run ends (docs/RELIABILITY.md, "Numerical blow-ups").
        const [first, ...others] = result.nonfinite;
        halted = { step, armId: first.armId, memberId: first.memberId, quantity: first.quantity, value: first.value };
        const alsoAt = part || member ? { alsoAt: others.map((o) => ({ armId: o.armId, memberId: o.memberId })) } : {};
        const event: RunnerEvent = { type: 'nonfinite', ...halted, explanation: blowUpExplanation(spec, halted, others), ...alsoAt };
        foldEvent(summary, event, spec);
        yield event;
        return;
      }
      if (isEval) {
        const evals: Map<string, HeldOutScore> = await evaluateCohort(stacks, `eval/step${s}`, { task, difficulty: d, problems: split.heldOut, options: evalOpts });
        if (member) {
          // The update is done: a stop from here on leaves no checkpoint of this step or the last (torn).
          torn = true;
          const own = evals.get(slotId(member.arm.id, member.memberId))!;
          const partner = await exchangeEvaluation(member, s, own, split.heldOut, spec.grpo.groupSize, evalOpts(`eval/step${s}/${member.partnerId}`).rng, () => disposed);
          if (!partner) return;
          evals.set(partnerSlot(member), partner);
          torn = false;
        }
        result.arms.forEach((metrics) => attachEvaluation(metrics, evals, s));
      }
      step = s;
      const stepMs = performance.now() - t0;
      const event: RunnerEvent = { type: 'step', step, steps: spec.steps, arms: result.arms, samples: result.samples, stepMs, tokens: result.tokens };
      foldEvent(summary, event, spec);
      stepTimes.push(stepMs);
      summary.medianStepMs = median(stepTimes);
      yield event;
    }
    if (!disposed) yield { type: 'done', summary: structuredClone(summary) };
  }

  /** Held-out results of an evaluation step: per member, per pair, and the pooled pair. */
  function attachEvaluation(metrics: ArmStepMetrics, evals: Map<string, HeldOutScore>, s: number): void {
    const of = (memberId: string) => evals.get(slotId(metrics.armId, memberId))!;
    for (const [memberId, m] of Object.entries(metrics.members)) {
      m.evalPassAt1 = of(memberId).passAt1;
      m.evalMajAtG = of(memberId).majAtG;
    }
    for (const p of metrics.pairs) {
      const q = evalPairMetrics(of(p.a), of(p.b), split.heldOut);
      p.evalKappa = q.kappa;
      p.evalBothWrongSame = q.bothWrongSame;
    }
    const members = spec.arms.find((a) => a.id === metrics.armId)!.members;
    if (members.length >= 2) {
      metrics.ensembleMajAtG = pooledMajAtG(of(members[0]), of(members[1]), split.heldOut, root.child(`ensemble/${metrics.armId}/${s}`));
    }
  }

  async function checkpoint(): Promise<Checkpoint> {
    if (halted) {
      throw noCheckpointAfter(halted);
    }
    if (torn) {
      throw new Error(`no checkpoint: step ${step + 1} was stopped while it waited for the partner's held-out answers, after its update (the last checkpoint, of step ${step} or before, is still good)`);
    }
    const references: Record<string, NamedWeight[]> = {};
    for (const [id, w] of warm) references[id] = await w.reference.exportWeights();
    const saved = new Map<string, Checkpoint['arms'][number]['members'][number]>();
    for (const s of stacks) {
      const weights = await s.models.exportAll();
      const optimizer = await s.optimizer.exportModelStates(s.slots.length);
      s.slots.forEach((slot, k) => saved.set(slotId(slot.armId, slot.memberId), { id: slot.memberId, weights: weights[k], optimizer: optimizer[k] }));
    }
    const armStates: Checkpoint['arms'] = trainSpec.arms.map((a) => ({ id: a.id, members: a.members.map((m) => saved.get(slotId(a.id, m))!) }));
    return {
      version: CHECKPOINT_VERSION,
      spec,
      step,
      members: [...warm.values()].map((w) => w.info),
      references,
      arms: armStates,
      summary: structuredClone(summary),
    };
  }

  function dispose(): void {
    disposed = true;
    disposeTrainingStacks(stacks);
    stacks = [];
    for (const w of warm.values()) w.reference.dispose();
    warm.clear();
  }

  return { events, checkpoint, dispose };
}

