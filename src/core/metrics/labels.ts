/**
 * How good the label-free supervision is, measured against the truth the lab knows but the arms
 * (other than oracle) never see. Definitions follow docs/METHOD.md's metric list and TTRL's logged
 * metrics (PRIME-RL/TTRL verl/verl/trainer/ppo/ttrl_utils.py: label_accuracy, reward_accuracy,
 * majority_ratio).
 *
 * Convention for every metric in this folder: a rate over an empty set (no prompts, no labeled
 * prompts, ...) is NaN, not 0 and not null. NaN keeps the type `number`, cannot be mistaken for a
 * measured 0, and is drawn as a gap by the charts (uPlot skips non-finite points).
 */
import { type Answer, type PluralityVote, groupSize } from '../rewards/vote';

function rate(hits: number, total: number): number {
  return total === 0 ? NaN : hits / total;
}

function sameLength(a: ArrayLike<unknown>, b: ArrayLike<unknown>, what: string): void {
  if (a.length !== b.length) throw new RangeError(`${what}: lengths ${a.length} and ${b.length} differ`);
}

/** Pseudo-label accuracy: among labeled prompts (label not null), the fraction whose label equals the truth. NaN if none is labeled. */
export function pseudoLabelAccuracy(labels: readonly (string | null)[], truths: readonly string[]): number {
  sameLength(labels, truths, 'pseudoLabelAccuracy');
  let labeled = 0;
  let right = 0;
  labels.forEach((l, b) => {
    if (l === null) return;
    labeled++;
    if (l === truths[b]) right++;
  });
  return rate(right, labeled);
}

/** Fraction of prompts that received a pseudo-label. */
export function labeledFraction(labels: readonly (string | null)[]): number {
  return rate(labels.filter((l) => l !== null).length, labels.length);
}

/** Binarise a reward for comparison with the 0/1 oracle reward: > 0.5 counts as 1. */
function asBinary(r: number): number {
  return r > 0.5 ? 1 : 0;
}

/**
 * Reward accuracy: the fraction of rollouts whose label-free reward equals the oracle reward (TTRL's
 * `reward_accuracy`). Rewards are binarised at > 0.5 first, which is the identity for the 0/1 vote
 * schemes and makes self-soft comparable (a frequency above one half counts as "rewarded"). For the
 * entropy and certainty schemes the number is defined but not meaningful: their rewards are not on
 * a 0..1 scale.
 */
export function rewardAccuracy(labelFreeRewards: ArrayLike<number>, oracleRewards: ArrayLike<number>): number {
  sameLength(labelFreeRewards, oracleRewards, 'rewardAccuracy');
  let same = 0;
  for (let i = 0; i < labelFreeRewards.length; i++) {
    if (asBinary(labelFreeRewards[i]) === asBinary(oracleRewards[i])) same++;
  }
  return rate(same, labelFreeRewards.length);
}

/** Reward gap (the hacking gap): mean label-free reward minus mean oracle reward. */
export function rewardGap(labelFreeRewards: ArrayLike<number>, oracleRewards: ArrayLike<number>): number {
  sameLength(labelFreeRewards, oracleRewards, 'rewardGap');
  const n = labelFreeRewards.length;
  if (n === 0) return NaN;
  let d = 0;
  for (let i = 0; i < n; i++) d += labelFreeRewards[i] - oracleRewards[i];
  return d / n;
}

/** Mean majority ratio over prompts; a prompt with no parseable vote counts as ratio 0 (no consensus at all). */
export function meanMajorityRatio(votes: readonly Pick<PluralityVote, 'majorityRatio'>[]): number {
  return rate(
    votes.reduce((s, v) => s + v.majorityRatio, 0),
    votes.length,
  );
}

/** Fraction of prompts whose plurality was a tie (broken by the seeded stream, or discarded for cohort). */
export function tieRate(votes: readonly Pick<PluralityVote, 'tied'>[]): number {
  return rate(votes.filter((v) => v.tied).length, votes.length);
}

/** Peer agreement: among prompts both models labeled, the fraction where their pluralities are equal. NaN if no prompt is labeled by both. */
export function agreementRate(labelsA: readonly (string | null)[], labelsB: readonly (string | null)[]): number {
  sameLength(labelsA, labelsB, 'agreementRate');
  let both = 0;
  let equal = 0;
  labelsA.forEach((a, b) => {
    const bb = labelsB[b];
    if (a === null || bb === null) return;
    both++;
    if (a === bb) equal++;
  });
  return rate(equal, both);
}

/**
 * Supervision contains truth: the fraction of prompts where the truth is among the supervising votes
 * (prompt-major, any number per prompt; e.g. RewardOutput.supervision). A plurality can only be right
 * where this holds, so it bounds pseudo-label accuracy from above.
 */
export function supervisionContainsTruth(supervision: readonly Answer[], truths: readonly string[]): number {
  if (truths.length === 0) return NaN;
  const g = groupSize(supervision, truths.length, 'supervision');
  let hits = 0;
  truths.forEach((t, b) => {
    for (let j = b * g; j < (b + 1) * g; j++) {
      if (supervision[j] === t) {
        hits++;
        return;
      }
    }
  });
  return hits / truths.length;
}
