/**
 * Reward schemes: the reward of each of one member's rollouts on a batch of B prompts x G samples.
 *
 * Everything here is a pure function of extracted answers (and, for the intrinsic schemes, of
 * per-rollout confidence numbers computed on device by grpo/logprobs.ts). Ground truth enters only
 * the `oracle` scheme, and the type system keeps it there: no other variant of RewardInput has a
 * field for it. Measurement against truth lives in metrics/.
 *
 * Arrays are prompt-major: rollout i = b * G + g is sample g of prompt b.
 */
import type { Rng } from '../random';
import { type Answer, type PluralityVote, groupSize, pluralityVotes, poolBallots, voteCounts } from './vote';

export type RewardScheme =
  | 'oracle'
  | 'self'
  | 'self-soft'
  | 'peer'
  | 'ring'
  | 'teacher'
  | 'cohort'
  | 'entropy'
  | 'certainty';

export const REWARD_SCHEMES: readonly RewardScheme[] = [
  'oracle',
  'self',
  'self-soft',
  'peer',
  'ring',
  'teacher',
  'cohort',
  'entropy',
  'certainty',
];

/** Schemes whose reward comes from a plurality vote (a null answer always gets 0 under these). */
export function isVoteScheme(s: RewardScheme): boolean {
  return s !== 'oracle' && s !== 'entropy' && s !== 'certainty';
}

// ---------------------------------------------------------------------------------------------
// Per-rollout rewards
// ---------------------------------------------------------------------------------------------

/** oracle: 1[a == truth]. The upper reference arm; the only scheme that sees the truth. */
export function oracleReward(answer: Answer, truth: string): number {
  return answer !== null && answer === truth ? 1 : 0;
}

/**
 * 1[a == label] for a pseudo-label from a plurality vote; 0 when the answer is malformed or the
 * prompt is unlabeled. This one rule is the reward of five schemes, differing only in whose votes
 * make the label:
 *   self    - the model's own votes (TTRL, arXiv 2504.16084, majority-vote reward);
 *   peer    - the partner's votes on the same prompt (Co-RL, arXiv 2608.17253);
 *   ring    - the next member's votes, A <- B <- C <- A: A follows B, B follows C, C follows A (Co-RL, N >= 3);
 *   teacher - a frozen copy's votes (fixed-teacher control, docs/METHOD.md);
 *   cohort  - the pooled votes of all other members, ties discarded (docs/METHOD.md).
 * Co-RL marks an unlabeled prompt with a sentinel no answer can equal, so every rollout scores 0
 * (DrStranded/Co-RL llm/trainers/co_rl/co_label_utils.py `_UNLABELED_SENTINEL`); null does the same.
 */
export function agreementReward(answer: Answer, label: string | null): number {
  return answer !== null && label !== null && answer === label ? 1 : 0;
}

/**
 * self-soft: the frequency of a among the model's own parseable votes on the prompt: the lab's own
 * soft version of the self-consistency reward (docs/METHOD.md). Not SRT's (arXiv 2505.21444),
 * whose reward is the hard vote, as `self`.
 * 0 for a malformed answer, and 0 for every rollout of an unlabeled prompt (majorityRatio < tau).
 */
export function selfSoftReward(answer: Answer, counts: ReadonlyMap<string, number>, vote: PluralityVote): number {
  if (answer === null || vote.label === null || vote.parseable === 0) return 0;
  return (counts.get(answer) ?? 0) / vote.parseable;
}

/** entropy (RENT, arXiv 2505.22660 sec. 3.3): minus the mean token entropy of the completion. */
export function entropyReward(meanTokenEntropy: number): number {
  return -meanTokenEntropy;
}

/**
 * certainty (Intuitor, arXiv 2505.19590 eq. 2): the mean over completion tokens of
 * KL(Uniform || p) = -log V - mean_v log p_v. Note the direction: mode-seeking, not an affine
 * function of entropy (DrStranded/Co-RL llm/trainers/self_rewarding/intrinsic_rewards.py).
 */
export function certaintyReward(meanTokenCertainty: number): number {
  return meanTokenCertainty;
}

// ---------------------------------------------------------------------------------------------
// One entry point for a member's batch
// ---------------------------------------------------------------------------------------------

/** One voter's answers on the same B prompts (prompt-major, any samples per prompt) and the seeded stream that breaks its ties. */
export interface Ballots {
  answers: readonly Answer[];
  rng: Rng;
}

/**
 * The rollouts being rewarded: one member, B prompts x G samples, prompt-major. The votes that make
 * a label may come from more samples than are rewarded (n_vote >= G, docs/METHOD.md): the voters'
 * answers below may have any number per prompt.
 */
interface RolloutBatch {
  answers: readonly Answer[];
  B: number;
  G: number;
}

/**
 * What `computeRewards` needs, by scheme. tau (default 0) is the majority-ratio threshold below which
 * a prompt is unlabeled. For peer / ring / teacher, `supervisor` holds the partner's, the next ring member's
 * or frozen teacher's answers on the same prompts with that voter's own tie-breaking stream, so the
 * partner's label here equals the label its own `self` vote would give.
 */
export type RewardInput =
  | (RolloutBatch & { scheme: 'oracle'; truths: readonly string[] })
  | (RolloutBatch & {
      scheme: 'self' | 'self-soft';
      rng: Rng;
      tau?: number;
      /** The member's own votes, n_vote >= G per prompt (TTRL votes over 64 and trains on 32); absent = `answers`. */
      ballots?: readonly Answer[];
    })
  | (RolloutBatch & { scheme: 'peer' | 'ring' | 'teacher'; supervisor: Ballots; tau?: number })
  | (RolloutBatch & { scheme: 'cohort'; others: readonly (readonly Answer[])[]; tau?: number })
  | (RolloutBatch & { scheme: 'entropy'; meanEntropy: ArrayLike<number> })
  | (RolloutBatch & { scheme: 'certainty'; meanCertainty: ArrayLike<number> });

export interface RewardOutput {
  /** One reward per rollout, B * G, prompt-major. */
  rewards: Float32Array;
  /** Per prompt, the label the rewards were computed against: the pseudo-label (null = unlabeled), the truth for oracle, null for entropy / certainty. */
  labels: (string | null)[];
  /** Per prompt, the supervising plurality vote (own, partner's or pooled others'); null for oracle / entropy / certainty. */
  votes: PluralityVote[] | null;
  /** The supervising answers, prompt-major, all that voted (pooled for cohort); null for oracle / entropy / certainty. */
  supervision: Answer[] | null;
}

/** Rewards of one member's rollouts under one scheme. Throws RangeError on inconsistent sizes. */
export function computeRewards(input: RewardInput): RewardOutput {
  const { answers, B, G } = input;
  if (!Number.isInteger(G) || G < 1) throw new RangeError(`G must be a positive integer, got ${G}`);
  if (groupSize(answers, B) !== G) throw new RangeError(`answers: length ${answers.length} != B * G = ${B * G}`);
  const rewards = new Float32Array(B * G);

  switch (input.scheme) {
    case 'oracle': {
      const { truths } = input;
      if (truths.length !== B) throw new RangeError(`truths: length ${truths.length} != B = ${B}`);
      for (let i = 0; i < B * G; i++) rewards[i] = oracleReward(answers[i], truths[Math.floor(i / G)]);
      return { rewards, labels: [...truths], votes: null, supervision: null };
    }
    case 'entropy':
    case 'certainty': {
      const values = input.scheme === 'entropy' ? input.meanEntropy : input.meanCertainty;
      if (values.length !== B * G) throw new RangeError(`per-rollout ${input.scheme}: length ${values.length} != B * G = ${B * G}`);
      const f = input.scheme === 'entropy' ? entropyReward : certaintyReward;
      for (let i = 0; i < B * G; i++) rewards[i] = f(values[i]);
      return { rewards, labels: new Array<string | null>(B).fill(null), votes: null, supervision: null };
    }
    case 'self':
    case 'self-soft': {
      // The label (and self-soft's vote shares) come from all n_vote own ballots; G of them are rewarded.
      const ballots = input.ballots ?? answers;
      const n = groupSize(ballots, B, 'ballots');
      const votes = pluralityVotes(ballots, B, input.rng, input.tau ?? 0);
      for (let b = 0; b < B; b++) {
        const group = answers.slice(b * G, (b + 1) * G);
        const counts = input.scheme === 'self-soft' ? voteCounts(ballots.slice(b * n, (b + 1) * n)) : null;
        for (let g = 0; g < G; g++) {
          rewards[b * G + g] =
            counts === null ? agreementReward(group[g], votes[b].label) : selfSoftReward(group[g], counts, votes[b]);
        }
      }
      return { rewards, labels: votes.map((v) => v.label), votes, supervision: [...ballots] };
    }
    case 'peer':
    case 'ring':
    case 'teacher': {
      const supervision = [...input.supervisor.answers];
      const votes = pluralityVotes(supervision, B, input.supervisor.rng, input.tau ?? 0);
      fillAgreement(rewards, answers, G, votes);
      return { rewards, labels: votes.map((v) => v.label), votes, supervision };
    }
    case 'cohort': {
      // Pool every other member's votes; a tie in the pool is discarded (rng = null).
      const supervision = poolBallots(input.others, B);
      const votes = pluralityVotes(supervision, B, null, input.tau ?? 0);
      fillAgreement(rewards, answers, G, votes);
      return { rewards, labels: votes.map((v) => v.label), votes, supervision };
    }
  }
}

function fillAgreement(rewards: Float32Array, answers: readonly Answer[], G: number, votes: PluralityVote[]): void {
  for (let i = 0; i < answers.length; i++) rewards[i] = agreementReward(answers[i], votes[Math.floor(i / G)].label);
}

/** The oracle reward of every rollout, for measurement (reward accuracy, reward gap): never for training a label-free arm. */
export function oracleRewards(answers: readonly Answer[], truths: readonly string[]): Float32Array {
  const G = groupSize(answers, truths.length);
  const out = new Float32Array(answers.length);
  for (let i = 0; i < answers.length; i++) out[i] = oracleReward(answers[i], truths[Math.floor(i / G)]);
  return out;
}
