import { describe, expect, it } from 'vitest';
import type { RolloutBatch } from '../rollout';
import { computeRewards, oracleRewards } from '../rewards/schemes';
import { pluralityVotes } from '../rewards/vote';
import { groupStats } from '../grpo/advantages';
import { Rng } from '../random';
import { measureMember } from './measure';
import type { RewardSchemeId } from './spec';

/** Two prompts x G = 4 answers, every completion 3 tokens long with entropy 0.5 per token. */
function fakeRollout(answers: (string | null)[]): RolloutBatch {
  const N = answers.length;
  const L = 4;
  return {
    numPrompts: 2,
    groupSize: 4,
    promptLength: 3,
    maxNewTokens: L,
    sequences: new Int32Array(N * 7),
    completionTokens: new Int32Array(N * L),
    lengths: new Int32Array(N).fill(3),
    finished: new Uint8Array(N).fill(1),
    logProbs: new Float32Array(N * L),
    entropies: new Float32Array(N * L).fill(0.5),
    certainties: new Float32Array(N * L).fill(0.2),
    completions: answers.map((a) => a),
    answers,
  };
}

function measure(scheme: RewardSchemeId) {
  const answers = ['1', '1', '1', '2', '7', '7', '3', '7'];
  const truths = ['1', '3'];
  const rollout = fakeRollout(answers);
  const rng = new Rng(1);
  const rewards =
    scheme === 'entropy'
      ? computeRewards({ scheme, answers, B: 2, G: 4, meanEntropy: new Float32Array(8).fill(0.5) })
      : computeRewards({ scheme: 'self', answers, B: 2, G: 4, rng, tau: 0 });
  return measureMember({
    scheme,
    rollout,
    rewards,
    oracle: oracleRewards(answers, truths),
    ownVotes: pluralityVotes(answers, 2, new Rng(1), 0),
    truths,
    stats: groupStats(rewards.rewards, 2, 4),
    update: { losses: [0], loss: 0, policyLoss: 0, kl: null, clipFraction: 0, entropy: 0, gradNorm: 0 } as never,
  });
}

describe('measureMember', () => {
  it('gives an intrinsic arm no reward accuracy and no hacking gap (its reward is not a 0-1 label match)', () => {
    const m = measure('entropy');
    expect(m.reward).toBeCloseTo(-0.5, 6);
    expect(m.rewardAccuracy).toBeNull();
    expect(m.rewardGap).toBeNull();
    expect(m.rescueRate).toBeNull();
    expect(m.sharedErrorRate).toBeNull();
    expect(m.ownVoteAccuracy).toBe(0.5);
  });

  it('measures a vote arm against the truth: reward accuracy, gap and the mechanism', () => {
    const m = measure('self');
    // own votes: '1' (right), '7' (wrong) -> self labels the same
    expect(m.rewardAccuracy).toBeCloseTo(4 / 8, 6);
    expect(m.rewardGap).toBeCloseTo(6 / 8 - 4 / 8, 6);
    expect(m.ownVoteAccuracy).toBe(0.5);
    expect(m.rescueRate).toBe(0);
    expect(m.sharedErrorRate).toBe(0.5);
  });
});
