/**
 * One arm of an experiment: a reward scheme applied to its own trained copies of some cohort
 * members. Given the members' rollouts on the step's prompts, the arm
 *   2. counts votes and exchanges them between its members as the scheme says,
 *   3. rewards every rollout (label-free, or the truth in the oracle arm),
 * and after the update
 *   5. measures: everything in MemberStepMetrics, with the truth used only here.
 * Sampling (1) and the GRPO update (4) run for all arms at once, over stacks (step.ts).
 *
 * Votes are counted over all n_vote samples of a prompt, rewards and the update use the first G
 * (TTRL's n_vote >= G; docs/METHOD.md, "Votes and rewards"). With n_vote = G both are the same batch.
 */
import type { Rng } from '../random';
import type { Problem } from '../tasks/types';
import { perCompletionMean, type RolloutBatch } from '../rollout';
import { computeRewards, oracleRewards, type RewardInput, type RewardOutput } from '../rewards/schemes';
import { pluralityVotes, type Answer, type PluralityVote } from '../rewards/vote';
import { groupAdvantages, groupStats, type GroupStats } from '../grpo/advantages';
import type { GrpoUpdateStats } from '../grpo/update';
import type { ArmSpec, ExperimentSpec } from './spec';
import type { ArmStepMetrics, MemberStepMetrics, PairMetrics, RolloutSample } from './events';
import { measureMember, measurePair } from './measure';

export interface StepContext {
  step: number;
  problems: Problem[];
  root: Rng;
  spec: ExperimentSpec;
}

export interface ArmStepResult {
  metrics: ArmStepMetrics;
  sample: RolloutSample;
}

export { voteCount } from './spec';

/** One member's samples at a step: the n_vote per prompt that vote, and the first G of them that train. */
export interface MemberRollouts {
  voted: RolloutBatch;
  /** trainedSubset(voted, G); `voted` itself when n_vote = G. */
  trained: RolloutBatch;
}

/** The stream that breaks a member's ties at a step: the same wherever its vote is counted. */
export function ballotRng(root: Rng, armId: string, memberId: string, step: number): Rng {
  return root.child(`ties/${armId}/${memberId}/${step}`);
}

/** The stream a member samples with: shared by arms (common random numbers across arms). */
export function samplingRng(root: Rng, memberId: string, sampleSeed: number, step: number): Rng {
  return root.child(`sample/${sampleSeed}/${memberId}/${step}`);
}

/** Which answers supervise member i, by scheme (Co-RL's pairing and ring; docs/METHOD.md). */
function rewardInput(
  arm: ArmSpec,
  i: number,
  own: MemberRollouts,
  votedOf: (j: number) => Answer[],
  ctx: StepContext,
  teacherAnswers: Answer[] | null,
): RewardInput {
  const B = ctx.problems.length;
  const G = ctx.spec.grpo.groupSize;
  // The G rewarded answers per prompt; every vote below is over all n_vote (teacherAnswers too).
  const answers = own.trained.answers;
  const tau = arm.tau;
  const ballots = (j: number) => ({
    answers: votedOf(j),
    rng: ballotRng(ctx.root, arm.id, arm.members[j], ctx.step),
  });
  const n = arm.members.length;
  switch (arm.scheme) {
    case 'oracle':
      return { scheme: 'oracle', answers, B, G, truths: ctx.problems.map((p) => p.answer) };
    case 'self':
    case 'self-soft':
      return { scheme: arm.scheme, answers, B, G, ballots: own.voted.answers, rng: ballotRng(ctx.root, arm.id, arm.members[i], ctx.step), tau };
    case 'peer':
      return { scheme: 'peer', answers, B, G, supervisor: ballots(1 - i), tau };
    case 'ring':
      // Co-RL's ring, A <- B <- C <- A: member i is rewarded by the plurality of the next member, i + 1.
      return { scheme: 'ring', answers, B, G, supervisor: ballots((i + 1) % n), tau };
    case 'cohort':
      return { scheme: 'cohort', answers, B, G, others: arm.members.flatMap((_, j) => (j === i ? [] : [votedOf(j)])), tau };
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
      const r = own.trained;
      return { scheme: 'entropy', answers, B, G, meanEntropy: perCompletionMean(r.entropies, r.lengths, r.maxNewTokens) };
    }
    case 'certainty': {
      const r = own.trained;
      return { scheme: 'certainty', answers, B, G, meanCertainty: perCompletionMean(r.certainties, r.lengths, r.maxNewTokens) };
    }
  }
}

/** Completion mask [N, T-1] for a rollout batch: position t is masked in when token t+1 is generated. */
export function completionMask(r: RolloutBatch): Float32Array {
  const N = r.numPrompts * r.groupSize;
  const T = r.promptLength + r.maxNewTokens;
  const mask = new Float32Array(N * (T - 1));
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < r.lengths[i]; k++) mask[i * (T - 1) + r.promptLength - 1 + k] = 1;
  }
  return mask;
}

/** What an arm's members were rewarded with at one step, member by member (the arm's order). */
export interface ArmRewards {
  /**
   * Each member's own plurality votes over its n_vote samples (for the metrics; the same ballot
   * streams as the rewards), without tau: its own answer on every prompt with a parseable vote,
   * however slim the plurality (tau decides what is rewarded, not what the member answers).
   */
  own: PluralityVote[][];
  /** Rewards of the G trained rollouts per prompt, against labels voted by n_vote. */
  rewarded: RewardOutput[];
  /** Each member's trained rollouts' rewards had the truth been the reward (measurement only). */
  oracle: Float32Array[];
}

/**
 * 2-3. Votes and rewards of an arm's members from their rollouts (in the arm's member order).
 * teacherAnswers: the frozen teacher's n_vote answers per prompt (teacher arms only).
 */
export function armRewards(arm: ArmSpec, rollouts: MemberRollouts[], ctx: StepContext, teacherAnswers: Answer[] | null): ArmRewards {
  const truths = ctx.problems.map((p) => p.answer);
  const votedOf = (j: number) => rollouts[j].voted.answers;
  return {
    own: arm.members.map((id, i) => memberVotes(arm, id, votedOf(i), ctx)),
    rewarded: arm.members.map((_, i) => memberRewards(arm, i, rollouts[i], votedOf, ctx, teacherAnswers)),
    oracle: rollouts.map((r) => oracleRewards(r.trained.answers, truths)),
  };
}

/**
 * A member's own plurality votes at a step from its n_vote answers per prompt (all B prompts,
 * flat), without tau, broken by its ballot stream: the same votes wherever they are counted (in
 * its own browser or, from its answers, in its partner's: memberPart.ts).
 */
export function memberVotes(arm: ArmSpec, memberId: string, voted: Answer[], ctx: StepContext): PluralityVote[] {
  return pluralityVotes(voted, ctx.problems.length, ballotRng(ctx.root, arm.id, memberId, ctx.step), 0);
}

/**
 * 2-3. The rewards of member i's trained rollouts (`own`), given every member's voted answers
 * (`votedOf(j)`: n_vote per prompt, flat; only those the scheme reads are asked for).
 */
export function memberRewards(
  arm: ArmSpec,
  i: number,
  own: MemberRollouts,
  votedOf: (j: number) => Answer[],
  ctx: StepContext,
  teacherAnswers: Answer[] | null,
): RewardOutput {
  return computeRewards(rewardInput(arm, i, own, votedOf, ctx, teacherAnswers));
}

/** 4. Group-relative advantages of one member's rollouts (and the group statistics behind them). */
export function memberAdvantages(rewarded: RewardOutput, ctx: StepContext): { advantages: Float32Array; stats: GroupStats } {
  const B = ctx.problems.length;
  const G = ctx.spec.grpo.groupSize;
  const r = rewarded.rewards;
  return { advantages: groupAdvantages(r, B, G, ctx.spec.grpo.advantageScale), stats: groupStats(r, B, G) };
}

/**
 * 5. The arm's metrics after its members' updates. `rollouts` are the trained ones (G per prompt):
 * reward, entropy, length and the like describe what was trained on; the vote metrics (majority
 * ratio, tie rate, pseudo-label accuracy, supervision, mechanism) come from `rewards`, over n_vote.
 */
export function measureArm(
  arm: ArmSpec,
  rollouts: RolloutBatch[],
  rewards: ArmRewards,
  groups: GroupStats[],
  updates: GrpoUpdateStats[],
  ctx: StepContext,
): ArmStepResult {
  const truths = ctx.problems.map((p) => p.answer);
  const members: Record<string, MemberStepMetrics> = {};
  arm.members.forEach((id, i) => {
    members[id] = measureMember({
      scheme: arm.scheme,
      rollout: rollouts[i],
      rewards: rewards.rewarded[i],
      oracle: rewards.oracle[i],
      ownVotes: rewards.own[i],
      truths,
      stats: groups[i],
      update: updates[i],
    });
  });
  const pairs: PairMetrics[] = [];
  for (let i = 0; i < arm.members.length; i++) {
    for (let j = i + 1; j < arm.members.length; j++) {
      pairs.push(measurePair(arm.members[i], arm.members[j], rewards.own[i], rewards.own[j], truths));
    }
  }
  return {
    metrics: { armId: arm.id, scheme: arm.scheme, members, pairs },
    sample: inspectorSample(arm, rollouts, rewards, ctx, ctx.step % ctx.problems.length),
  };
}

/** One prompt of the step as the rollout inspector shows it. */
function inspectorSample(arm: ArmSpec, rollouts: RolloutBatch[], rewards: ArmRewards, ctx: StepContext, b: number): RolloutSample {
  return {
    armId: arm.id,
    prompt: ctx.problems[b].prompt,
    truth: ctx.problems[b].answer,
    members: arm.members.map((memberId, i) => inspectorMember(arm, memberId, rollouts[i], rewards.rewarded[i], rewards.oracle[i], rewards.own[i], ctx, b)),
  };
}

/** Prompt b of a step, for the inspector: what one member sampled, voted and was rewarded with. */
export function inspectorMember(
  arm: ArmSpec,
  memberId: string,
  rollout: RolloutBatch,
  rewarded: RewardOutput,
  oracle: Float32Array,
  own: PluralityVote[],
  ctx: StepContext,
  b: number,
): RolloutSample['members'][number] {
  const G = ctx.spec.grpo.groupSize;
  const slice = <T>(xs: ArrayLike<T>) => Array.from({ length: G }, (_, g) => xs[b * G + g]);
  return {
    memberId,
    completions: slice(rollout.completions),
    answers: slice(rollout.answers),
    plurality: own[b].label,
    pseudoLabel: rewarded.votes ? rewarded.labels[b] : arm.scheme === 'oracle' ? ctx.problems[b].answer : null,
    rewards: slice(rewarded.rewards),
    oracleRewards: slice(oracle),
  };
}
