/**
 * One arm of an experiment: a reward scheme applied to clones of some cohort members.
 *
 * A step, for every member of the arm on the same B prompts (DESIGN.md's data flow):
 *   1. sample G completions per prompt (rollout),
 *   2. count votes; exchange them between members as the scheme says,
 *   3. reward every rollout (label-free, or the truth in the oracle arm),
 *   4. group-relative advantages and one GRPO update,
 *   5. measure: everything in MemberStepMetrics, with the truth used only here.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import type { Policy } from '../models/policy';
import type { Problem, Task } from '../tasks/types';
import { encodePrompt } from '../tasks/tokenizer';
import { sampleRollouts, perCompletionMean, type RolloutBatch } from '../rollout';
import { computeRewards, oracleRewards, type RewardInput, type RewardOutput } from '../rewards/schemes';
import { pluralityVotes, type Answer, type PluralityVote } from '../rewards/vote';
import { groupAdvantages, groupStats } from '../grpo/advantages';
import { grpoUpdate } from '../grpo/update';
import { Adam } from '../adam';
import type { ArmSpec, ExperimentSpec } from './spec';
import type { ArmStepMetrics, MemberStepMetrics, PairMetrics, RolloutSample } from './events';
import { measureMember, measurePair } from './measure';

export interface ArmMember {
  id: string;
  sampleSeed: number;
  policy: Policy;
  optimizer: Adam;
  /** The warm-started weights (shared, frozen): KL reference. */
  reference: Policy;
}

export interface StepContext {
  step: number;
  problems: Problem[];
  task: Task;
  difficulty: number;
  maxNewTokens: number;
  root: Rng;
  spec: ExperimentSpec;
  /** The frozen teacher for the teacher scheme. */
  teacher?: { id: string; policy: Policy; sampleSeed: number };
}

export interface ArmStepResult {
  metrics: ArmStepMetrics;
  sample: RolloutSample;
  tokens: number;
}

/** The stream that breaks a member's ties at a step: the same wherever its vote is counted. */
export function ballotRng(root: Rng, armId: string, memberId: string, step: number): Rng {
  return root.child(`ties/${armId}/${memberId}/${step}`);
}

/** The stream a member samples with: shared by arms (common random numbers across arms). */
export function samplingRng(root: Rng, memberId: string, sampleSeed: number, step: number): Rng {
  return root.child(`sample/${sampleSeed}/${memberId}/${step}`);
}

/** Which answers supervise member i, by scheme (Co-RL's pairing and ring; DESIGN.md). */
function rewardInput(
  arm: ArmSpec,
  i: number,
  rollouts: RolloutBatch[],
  ctx: StepContext,
  teacherAnswers: Answer[] | null,
): RewardInput {
  const B = ctx.problems.length;
  const G = ctx.spec.grpo.groupSize;
  const answers = rollouts[i].answers;
  const tau = arm.tau;
  const ballots = (j: number) => ({
    answers: rollouts[j].answers,
    rng: ballotRng(ctx.root, arm.id, arm.members[j], ctx.step),
  });
  const n = arm.members.length;
  switch (arm.scheme) {
    case 'oracle':
      return { scheme: 'oracle', answers, B, G, truths: ctx.problems.map((p) => p.answer) };
    case 'self':
    case 'self-soft':
      return { scheme: arm.scheme, answers, B, G, rng: ballotRng(ctx.root, arm.id, arm.members[i], ctx.step), tau };
    case 'peer':
      return { scheme: 'peer', answers, B, G, supervisor: ballots(1 - i), tau };
    case 'ring':
      // A <- B <- C <- A: member i is rewarded by its successor's plurality (Co-RL's ring).
      return { scheme: 'ring', answers, B, G, supervisor: ballots((i + 1) % n), tau };
    case 'cohort':
      return { scheme: 'cohort', answers, B, G, others: rollouts.filter((_, j) => j !== i).map((r) => r.answers), tau };
    case 'teacher':
      return {
        scheme: 'teacher',
        answers,
        B,
        G,
        supervisor: { answers: teacherAnswers!, rng: ballotRng(ctx.root, arm.id, `teacher-${arm.teacher}`, ctx.step) },
        tau,
      };
    case 'entropy': {
      const r = rollouts[i];
      return { scheme: 'entropy', answers, B, G, meanEntropy: perCompletionMean(r.entropies, r.lengths, r.maxNewTokens) };
    }
    case 'certainty': {
      const r = rollouts[i];
      return { scheme: 'certainty', answers, B, G, meanCertainty: perCompletionMean(r.certainties, r.lengths, r.maxNewTokens) };
    }
  }
}

/** Completion mask [N, T-1] for a rollout batch: position t is masked in when token t+1 is generated. */
function completionMask(r: RolloutBatch): Float32Array {
  const N = r.numPrompts * r.groupSize;
  const T = r.promptLength + r.maxNewTokens;
  const mask = new Float32Array(N * (T - 1));
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < r.lengths[i]; k++) mask[i * (T - 1) + r.promptLength - 1 + k] = 1;
  }
  return mask;
}

/** One GRPO update of one member from its rollouts and rewards. */
async function updateMember(m: ArmMember, r: RolloutBatch, advantages: Float32Array, ctx: StepContext) {
  const N = r.numPrompts * r.groupSize;
  const T = r.promptLength + r.maxNewTokens;
  const tokens = tf.tensor2d(r.sequences, [N, T], 'int32');
  const mask = tf.tensor2d(completionMask(r), [N, T - 1]);
  const adv = tf.tensor1d(advantages);
  const g = ctx.spec.grpo;
  try {
    return await grpoUpdate(
      m.policy,
      m.optimizer,
      { tokens, completionMask: mask, advantages: adv },
      {
        temperature: g.temperature,
        clipEps: g.clipEps,
        beta: g.beta,
        normalisation: g.lossNormalisation,
        maxCompletionLength: ctx.maxNewTokens,
        maxGradNorm: g.maxGradNorm,
        updatesPerBatch: g.updatesPerBatch,
      },
      g.beta > 0 ? m.reference : undefined,
    );
  } finally {
    tf.dispose([tokens, mask, adv]);
  }
}

export async function armStep(arm: ArmSpec, members: ArmMember[], ctx: StepContext): Promise<ArmStepResult> {
  const B = ctx.problems.length;
  const G = ctx.spec.grpo.groupSize;
  const prompts = ctx.problems.map((p) => encodePrompt(p.prompt));
  const truths = ctx.problems.map((p) => p.answer);
  const rolloutOpts = (rng: Rng) => ({
    groupSize: G,
    temperature: ctx.spec.grpo.temperature,
    maxNewTokens: ctx.maxNewTokens,
    rng,
  });

  // 1. Rollouts: every member on the same prompts.
  const rollouts: RolloutBatch[] = [];
  for (const m of members) {
    rollouts.push(
      await sampleRollouts(m.policy, prompts, ctx.task, ctx.difficulty, rolloutOpts(samplingRng(ctx.root, m.id, m.sampleSeed, ctx.step))),
    );
  }
  let teacherAnswers: Answer[] | null = null;
  if (arm.scheme === 'teacher' && ctx.teacher) {
    const t = ctx.teacher;
    const tr = await sampleRollouts(t.policy, prompts, ctx.task, ctx.difficulty, rolloutOpts(samplingRng(ctx.root, `teacher-${t.id}`, t.sampleSeed, ctx.step)));
    teacherAnswers = tr.answers;
  }

  // 2-3. Votes and rewards. Own pluralities (for the metrics) use the same ballot streams.
  const own: PluralityVote[][] = members.map((m, i) =>
    pluralityVotes(rollouts[i].answers, B, ballotRng(ctx.root, arm.id, m.id, ctx.step), arm.tau),
  );
  const rewarded: RewardOutput[] = members.map((_, i) => computeRewards(rewardInput(arm, i, rollouts, ctx, teacherAnswers)));
  const oracle = rollouts.map((r) => oracleRewards(r.answers, truths));

  // 4. GRPO updates.
  const memberMetrics: Record<string, MemberStepMetrics> = {};
  let tokens = 0;
  for (let i = 0; i < members.length; i++) {
    const advantages = groupAdvantages(rewarded[i].rewards, B, G, ctx.spec.grpo.advantageScale);
    const stats = groupStats(rewarded[i].rewards, B, G);
    const update = await updateMember(members[i], rollouts[i], advantages, ctx);
    // 5. Measurement.
    memberMetrics[members[i].id] = measureMember({
      scheme: arm.scheme,
      rollout: rollouts[i],
      rewards: rewarded[i],
      oracle: oracle[i],
      ownVotes: own[i],
      truths,
      stats,
      update,
    });
    for (let k = 0; k < rollouts[i].lengths.length; k++) tokens += rollouts[i].lengths[k];
  }

  const pairs: PairMetrics[] = [];
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      pairs.push(measurePair(members[i].id, members[j].id, own[i], own[j], truths));
    }
  }

  return {
    metrics: { armId: arm.id, scheme: arm.scheme, members: memberMetrics, pairs },
    sample: inspectorSample(arm, members, rollouts, rewarded, oracle, own, ctx, ctx.step % B),
    tokens,
  };
}

/** One prompt of the step as the rollout inspector shows it. */
function inspectorSample(
  arm: ArmSpec,
  members: ArmMember[],
  rollouts: RolloutBatch[],
  rewarded: RewardOutput[],
  oracle: Float32Array[],
  own: PluralityVote[][],
  ctx: StepContext,
  b: number,
): RolloutSample {
  const G = ctx.spec.grpo.groupSize;
  const slice = <T>(xs: ArrayLike<T>) => Array.from({ length: G }, (_, g) => xs[b * G + g]);
  return {
    armId: arm.id,
    prompt: ctx.problems[b].prompt,
    truth: ctx.problems[b].answer,
    members: members.map((m, i) => ({
      memberId: m.id,
      completions: slice(rollouts[i].completions),
      answers: slice(rollouts[i].answers),
      plurality: own[i][b].label,
      pseudoLabel: rewarded[i].votes ? rewarded[i].labels[b] : arm.scheme === 'oracle' ? ctx.problems[b].answer : null,
      rewards: slice(rewarded[i].rewards),
      oracleRewards: slice(oracle[i]),
    })),
  };
}
