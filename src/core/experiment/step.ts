/**
 * One RL step of the whole cohort (docs/METHOD.md, "Data flow"), top-down:
 *
 *   1. sample    every model of every stack samples n_vote completions for the same B prompts
 *                (one rollout per stack, one readback per stack); n_vote = G unless voteSize is
 *                set, and then the first G of each prompt are the ones trained on
 *   2. vote      each arm counts its members' votes (all n_vote) and exchanges them as its scheme says
 *   3. reward    every trained rollout, label-free (or the truth, in the oracle arm)
 *   4. update    group-relative advantages, then one GRPO loss, backward pass and Adam step
 *                per stack on B*G rollouts per model (one readback of the stats per stack, which
 *                also says whether a loss, gradient or weight stopped being finite: `nonfinite`)
 *   5. measure   every member of every arm; the truth enters here and nowhere in training
 *
 * Held-out evaluation (every E steps) also runs stack by stack: evaluateCohort.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import type { Problem, Task } from '../tasks/types';
import { promptTokens } from '../tasks/index';
import { sampleRollouts, sampleStack, trainedSubset, type RolloutBatch } from '../rollout';
import { grpoUpdateStackOnDevice, readStackUpdateStats, type GradientApplier, type GrpoUpdateStats } from '../grpo/update';
import { firstNonFinite, type NonFinite } from '../grpo/nonfinite';
import { evaluateStack, type Evaluation } from '../evaluate';
import type { Answer } from '../rewards/vote';
import type { GroupStats } from '../grpo/advantages';
import type { ExperimentSpec } from './spec';
import type { WarmMember } from './cohort';
import type { ArmStepMetrics, RolloutSample } from './events';
import {
  armRewards,
  completionMask,
  measureArm,
  memberAdvantages,
  samplingRng,
  voteCount,
  type ArmRewards,
  type MemberRollouts,
  type StepContext,
} from './arm';
import { slotId, type TrainingStack } from './stacks';

export interface CohortStepContext extends StepContext {
  task: Task;
  difficulty: number;
  /** L: the completion length cap. */
  maxNewTokens: number;
  /** The warm-started members (teachers sample from their frozen weights). */
  warm: Map<string, WarmMember>;
  /** Tests only: a weight of one trained copy set to `value` after its update (RunOptions.faults). */
  fault?: WeightFault;
}

/** A fault written into a trained copy's first weight after its update, as a broken step would leave it. */
export interface WeightFault {
  armId: string;
  memberId: string;
  value: number;
}

export interface CohortStepResult {
  arms: ArmStepMetrics[];
  samples: RolloutSample[];
  /** Completion tokens generated over every model (all n_vote samples per prompt; teachers not counted). */
  tokens: number;
  /** What the GRPO updates trained on, over every model: B*G rollouts per model and their completion tokens. */
  trained: { rollouts: number; tokens: number };
  /** Copies whose loss, gradient or weights stopped being finite in this step, in spec order (arms, then members). */
  nonfinite: (NonFinite & { armId: string; memberId: string })[];
}

export async function cohortStep(stacks: TrainingStack[], ctx: CohortStepContext): Promise<CohortStepResult> {
  const { spec } = ctx;
  const G = spec.grpo.groupSize;

  // 1. Sample: every slot of every stack on the same prompts, each with its member's stream
  // (common random numbers: a member draws the same noise in every arm). n_vote per prompt vote;
  // the first G of them train: the samples of a prompt are i.i.d. given the prompt, so the first G
  // are an unbiased subset (rollout.ts trainedSubset). With n_vote = G the two are one batch.
  const prompts = ctx.problems.map((p) => promptTokens(ctx.task, ctx.difficulty, p.prompt));
  const rollouts = new Map<string, MemberRollouts>();
  for (const s of stacks) {
    const rngs = s.slots.map((slot) => samplingRng(ctx.root, slot.memberId, slot.sampleSeed, ctx.step));
    const batches = await sampleStack(s.models, prompts, ctx.task, ctx.difficulty, rolloutOptions(spec, ctx.maxNewTokens, rngs));
    s.slots.forEach((slot, k) => rollouts.set(slotId(slot.armId, slot.memberId), { voted: batches[k], trained: trainedSubset(batches[k], G) }));
  }
  const teacherAnswers = await sampleTeachers(prompts, ctx);

  // 2-3. Votes and rewards, arm by arm.
  const armRollouts = (armId: string, members: string[]) => members.map((m) => rollouts.get(slotId(armId, m))!);
  const rewards = new Map<string, ArmRewards>();
  for (const arm of spec.arms) {
    rewards.set(arm.id, armRewards(arm, armRollouts(arm.id, arm.members), ctx, arm.teacher ? (teacherAnswers.get(arm.teacher) ?? null) : null));
  }

  // 4. Advantages, then one update per stack.
  const groups = new Map<string, GroupStats>();
  const updates = new Map<string, GrpoUpdateStats>();
  for (const s of stacks) {
    const advantages = s.slots.map((slot) => {
      const arm = spec.arms.find((a) => a.id === slot.armId)!;
      const a = memberAdvantages(rewards.get(arm.id)!.rewarded[arm.members.indexOf(slot.memberId)], ctx);
      groups.set(slotId(slot.armId, slot.memberId), a.stats);
      return a.advantages;
    });
    const optimizer = faulty(s, ctx.fault);
    const stats = await updateStack(s, optimizer, s.slots.map((slot) => rollouts.get(slotId(slot.armId, slot.memberId))!.trained), advantages, ctx);
    s.slots.forEach((slot, k) => updates.set(slotId(slot.armId, slot.memberId), stats[k]));
  }

  // 5. Measure: the trained rollouts, and the votes over n_vote (in `rewards`).
  const result: CohortStepResult = { arms: [], samples: [], tokens: 0, trained: { rollouts: 0, tokens: 0 }, nonfinite: [] };
  for (const arm of spec.arms) {
    for (const memberId of arm.members) {
      const found = firstNonFinite(updates.get(slotId(arm.id, memberId))!);
      if (found) result.nonfinite.push({ ...found, armId: arm.id, memberId });
    }
    const of = <T>(m: Map<string, T>) => arm.members.map((id) => m.get(slotId(arm.id, id))!);
    const trained = armRollouts(arm.id, arm.members).map((r) => r.trained);
    const measured = measureArm(arm, trained, rewards.get(arm.id)!, of(groups), of(updates), ctx);
    result.arms.push(measured.metrics);
    result.samples.push(measured.sample);
  }
  const sum = (xs: Int32Array) => xs.reduce((a, x) => a + x, 0);
  for (const r of rollouts.values()) {
    result.tokens += sum(r.voted.lengths);
    result.trained.rollouts += r.trained.lengths.length;
    result.trained.tokens += sum(r.trained.lengths);
  }
  return result;
}

export function rolloutOptions(spec: ExperimentSpec, maxNewTokens: number, rngs: Rng[]) {
  return { groupSize: voteCount(spec.grpo), temperature: spec.grpo.temperature, maxNewTokens, rngs };
}

/** The frozen teachers' answers (teacher arms only), n_vote per prompt, each from its own stream. */
async function sampleTeachers(prompts: number[][], ctx: CohortStepContext): Promise<Map<string, Answer[]>> {
  const out = new Map<string, Answer[]>();
  for (const arm of ctx.spec.arms) {
    if (arm.scheme !== 'teacher' || !arm.teacher || out.has(arm.teacher)) continue;
    const t = ctx.warm.get(arm.teacher)!;
    const rng = samplingRng(ctx.root, `teacher-${t.spec.id}`, t.spec.sampleSeed, ctx.step);
    const g = ctx.spec.grpo;
    const opts = { groupSize: voteCount(g), temperature: g.temperature, maxNewTokens: ctx.maxNewTokens, rng };
    out.set(arm.teacher, (await sampleRollouts(t.reference, prompts, ctx.task, ctx.difficulty, opts)).answers);
  }
  return out;
}

/** The stack's optimiser, or (tests only) one that writes the fault into its copy's weights after each step. */
export function faulty(s: TrainingStack, fault: WeightFault | undefined): GradientApplier {
  const k = fault ? s.slots.findIndex((slot) => slot.armId === fault.armId && slot.memberId === fault.memberId) : -1;
  if (!fault || k < 0) return s.optimizer;
  return {
    applyGradients(grads: tf.NamedTensorMap) {
      s.optimizer.applyGradients(grads);
      const v = s.models.variables[0];
      const at = new Float32Array(v.size);
      at[(k * v.size) / s.slots.length] = 1;
      tf.tidy(() => v.assign(tf.where(tf.cast(tf.tensor(at, v.shape), 'bool'), tf.fill(v.shape, fault.value), v)));
    },
  };
}

/** 4. One GRPO update of every model of a stack on its own rollouts and advantages. */
export async function updateStack(s: TrainingStack, optimizer: GradientApplier, rollouts: RolloutBatch[], advantages: Float32Array[], ctx: CohortStepContext): Promise<GrpoUpdateStats[]> {
  const K = rollouts.length;
  const r0 = rollouts[0];
  const N = r0.numPrompts * r0.groupSize;
  const T = r0.promptLength + r0.maxNewTokens;
  const join = <A extends Int32Array | Float32Array>(parts: A[], make: (n: number) => A): A => {
    const out = make(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
    return out;
  };
  const tokens = tf.tensor3d(join(rollouts.map((r) => r.sequences), (n) => new Int32Array(n)), [K, N, T], 'int32');
  const mask = tf.tensor3d(join(rollouts.map(completionMask), (n) => new Float32Array(n)), [K, N, T - 1]);
  const adv = tf.tensor2d(join(advantages, (n) => new Float32Array(n)), [K, N]);
  const g = ctx.spec.grpo;
  try {
    return await readStackUpdateStats(
      grpoUpdateStackOnDevice(
        s.models,
        optimizer,
        // Positions before the last prompt token predict prompt tokens (mask 0): skipped.
        { tokens, completionMask: mask, advantages: adv, from: r0.promptLength - 1 },
        {
          temperature: g.temperature,
          clipEps: g.clipEps,
          beta: g.beta,
          normalisation: g.lossNormalisation,
          maxCompletionLength: ctx.maxNewTokens,
          maxGradNorm: g.maxGradNorm,
          updatesPerBatch: g.updatesPerBatch,
        },
        s.references ?? undefined,
      ),
    );
  } finally {
    tf.dispose([tokens, mask, adv]);
  }
}

export interface EvaluationContext {
  task: Task;
  difficulty: number;
  problems: Problem[];
  /** Options of one evaluation stream, as evaluatePolicy takes them. */
  options: (purpose: string) => { groupSize: number; temperature: number; maxNewTokens: number; batchSize: number; rng: Rng };
}

/**
 * Held-out evaluation of every slot, stack by stack. A member is evaluated with the same stream
 * in every arm (`${purpose}/${memberId}`): common random numbers across arms.
 */
export async function evaluateCohort(stacks: TrainingStack[], purpose: string, ctx: EvaluationContext): Promise<Map<string, Evaluation>> {
  const out = new Map<string, Evaluation>();
  for (const s of stacks) {
    const first = ctx.options(`${purpose}/${s.slots[0].memberId}`);
    const rngs = s.slots.map((slot) => ctx.options(`${purpose}/${slot.memberId}`).rng);
    const evals = await evaluateStack(s.models, ctx.task, ctx.difficulty, ctx.problems, { ...first, rngs });
    s.slots.forEach((slot, k) => out.set(slotId(slot.armId, slot.memberId), evals[k]));
  }
  return out;
}
