/**
 * Measurement: turns one member's rollouts, rewards and votes into MemberStepMetrics, and two
 * members' votes into PairMetrics. The truth enters here and nowhere in training (except the
 * oracle arm's reward).
 */
import type { Rng } from '../random';
import type { RolloutBatch } from '../rollout';
import { perCompletionMean } from '../rollout';
import type { RewardOutput } from '../rewards/schemes';
import { voteCounts, type PluralityVote } from '../rewards/vote';
import type { GroupStats } from '../grpo/advantages';
import type { GrpoUpdateStats } from '../grpo/update';
import type { HeldOutScore } from '../evaluate';
import type { Problem } from '../tasks/types';
import {
  agreementRate,
  bothWrongSameAnswer,
  cohenKappa,
  ensembleMajAtG,
  labelMechanism,
  passRateCorrelation,
  pseudoLabelAccuracy,
  rewardAccuracy,
  supervisionContainsTruth,
} from '../metrics/index';
import type { RewardSchemeId } from './spec';
import type { MemberStepMetrics, PairMetrics } from './events';

/** The metrics module returns NaN where a rate is undefined; events carry null there. */
const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

const mean = (xs: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length ? s / xs.length : 0;
};

export interface MemberMeasurement {
  scheme: RewardSchemeId;
  rollout: RolloutBatch;
  rewards: RewardOutput;
  oracle: Float32Array;
  ownVotes: PluralityVote[];
  truths: string[];
  stats: GroupStats;
  update: GrpoUpdateStats;
}

/** Share of all parseable votes in the batch taken by the single most common answer. */
function topAnswerShare(answers: readonly (string | null)[]): number {
  const counts = voteCounts(answers);
  let total = 0;
  let top = 0;
  for (const c of counts.values()) {
    total += c;
    top = Math.max(top, c);
  }
  return total ? top / total : 0;
}

export function measureMember(m: MemberMeasurement): MemberStepMetrics {
  const r = m.rollout;
  const N = r.lengths.length;
  const voteBased = m.rewards.votes !== null;
  const votes = m.rewards.votes ?? m.ownVotes;
  const labels = voteBased ? m.rewards.labels : m.ownVotes.map((v) => v.label);
  let capped = 0;
  let malformed = 0;
  for (let i = 0; i < N; i++) {
    if (!r.finished[i]) capped++;
    if (r.answers[i] === null) malformed++;
  }
  // The intrinsic rewards (minus entropy, self-certainty) are not 0-1 label matches: comparing them
  // with the oracle reward value by value, or subtracting, measures nothing.
  const labelMatch = m.scheme !== 'entropy' && m.scheme !== 'certainty';
  const truths = m.truths;
  const mechanism = labelMechanism(m.ownVotes.map((v) => v.label), m.rewards.labels, truths);
  return {
    reward: mean(m.rewards.rewards),
    oracleReward: mean(m.oracle),
    // Only a vote-based reward has a pseudo-label. The oracle trains on the truth and the intrinsic
    // schemes on no label at all: null there (the oracle's "0.84" was its own vote's
    // accuracy, which ownVoteAccuracy already reports).
    pseudoLabelAccuracy: voteBased ? orNull(pseudoLabelAccuracy(labels, m.truths)) : null,
    rewardAccuracy: labelMatch ? rewardAccuracy(m.rewards.rewards, m.oracle) : null,
    rewardGap: labelMatch ? mean(m.rewards.rewards) - mean(m.oracle) : null,
    ownVoteAccuracy: mechanism.ownVoteAccuracy,
    rescueRate: orNull(mechanism.rescueRate),
    misleadRate: orNull(mechanism.misleadRate),
    sharedErrorRate: orNull(mechanism.sharedErrorRate),
    labeledFraction: labels.filter((l) => l !== null).length / labels.length,
    majorityRatio: mean(votes.map((v) => v.majorityRatio)),
    tieRate: votes.filter((v) => v.tied).length / votes.length,
    entropy: mean(perCompletionMean(r.entropies, r.lengths, r.maxNewTokens)),
    length: mean(r.lengths),
    capFraction: capped / N,
    malformedFraction: malformed / N,
    rewardStd: mean(m.stats.std),
    zeroStdFraction: m.stats.zeroStdFraction,
    supervisionContainsTruth: voteBased && m.rewards.supervision
      ? supervisionContainsTruth(m.rewards.supervision, m.truths)
      : null,
    topAnswerShare: topAnswerShare(r.answers),
    loss: m.update.loss,
    kl: m.update.kl,
    clipFraction: m.update.clipFraction,
    gradNorm: m.update.gradNorm,
  };
}

/** Two members' own pluralities on the same prompts. */
export function measurePair(a: string, b: string, votesA: PluralityVote[], votesB: PluralityVote[], truths: string[]): PairMetrics {
  const la = votesA.map((v) => v.label);
  const lb = votesB.map((v) => v.label);
  return {
    a,
    b,
    agreement: orNull(agreementRate(la, lb)),
    kappa: orNull(
      cohenKappa(
        la.map((l, i) => l === truths[i]),
        lb.map((l, i) => l === truths[i]),
      ),
    ),
    bothWrongSame: bothWrongSameAnswer(la, lb, truths),
  };
}

/** Error overlap of two members on the held-out set (per-prompt maj@G correctness). */
export function evalPairMetrics(a: HeldOutScore, b: HeldOutScore, problems: Problem[]): { kappa: number | null; bothWrongSame: number; passCorrelation: number | null } {
  const truths = problems.map((p) => p.answer);
  return {
    kappa: orNull(cohenKappa(a.majCorrect, b.majCorrect)),
    bothWrongSame: bothWrongSameAnswer(a.plurality, b.plurality, truths),
    passCorrelation: orNull(passRateCorrelation(a.sampleAccuracy, b.sampleAccuracy)),
  };
}

/**
 * The compute-matched ensemble control on the held-out set: two members' G samples per prompt
 * pooled into one plurality of 2G (Co-RL compares a peer pair with two self-trained models).
 */
export function pooledMajAtG(a: HeldOutScore, b: HeldOutScore, problems: Problem[], rng: Rng): number {
  return ensembleMajAtG(a.answers.flat(), b.answers.flat(), problems.map((p) => p.answer), a.answers[0]?.length ?? 0, rng);
}
