import { describe, expect, it } from 'vitest';
import type { RolloutBatch } from '../rollout';
import { computeRewards, oracleRewards } from '../rewards/schemes';
import { pluralityVotes } from '../rewards/vote';
import { groupStats } from '../grpo/advantages';
import { Rng } from '../random';
import { evalPairMetrics, measureMember } from './measure';
import type { Evaluation } from '../evaluate';
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
      : scheme === 'oracle'
        ? computeRewards({ scheme, answers, B: 2, G: 4, truths })
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

  it('gives pseudo-label accuracy only where there is a pseudo-label (not for the oracle or an intrinsic arm)', () => {
    expect(measure('oracle').pseudoLabelAccuracy).toBeNull();
    expect(measure('entropy').pseudoLabelAccuracy).toBeNull();
    // The own votes ('1' right, '7' wrong) are still measured, as own-vote accuracy.
    expect(measure('oracle').ownVoteAccuracy).toBe(0.5);
    expect(measure('self').pseudoLabelAccuracy).toBe(0.5);
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

describe('evalPairMetrics', () => {
  const evaluation = (plurality: (string | null)[], sampleAccuracy: number[], truths: string[]): Evaluation => ({
    passAt1: 0,
    majAtG: 0,
    answers: [],
    plurality,
    majCorrect: plurality.map((p, i) => p === truths[i]),
    sampleAccuracy,
    meanLength: 0,
  });

  it('gives kappa, both-wrong-same and the correlation of per-problem sample accuracies', () => {
    const truths = ['1', '2', '3', '4'];
    const problems = truths.map((answer) => ({ prompt: '', answer }));
    const a = evaluation(['1', '2', '9', '8'], [0.9, 0.6, 0.2, 0.1], truths);
    const b = evaluation(['1', '7', '9', '4'], [0.8, 0.4, 0.3, 0.6], truths);
    const m = evalPairMetrics(a, b, problems as never);
    expect(m.bothWrongSame).toBe(0.25);
    // a - mean: .45 .15 -.25 -.35; b - mean: .275 -.125 -.225 .075 -> .135 / sqrt(.41 * .1475)
    expect(m.passCorrelation).toBeCloseTo(0.135 / Math.sqrt(0.41 * 0.1475), 9);
    expect(m.kappa).not.toBeNull();
    // Constant sample accuracy: no correlation is defined.
    expect(evalPairMetrics(evaluation(['1', '2', '3', '4'], [1, 1, 1, 1], truths), b, problems as never).passCorrelation).toBeNull();
  });
});
