import { describe, expect, it } from 'vitest';
import type { RolloutBatch } from '../rollout';
import { Rng } from '../random';
import { armRewards, type MemberRollouts, type StepContext } from './arm';
import { measureMember } from './measure';
import { groupStats } from '../grpo/advantages';
import type { ArmSpec, ExperimentSpec } from './spec';

/** Two prompts x G = 4 answers (prompt-major), every completion 3 tokens long. */
function rollout(answers: (string | null)[]): MemberRollouts {
  const N = answers.length;
  const batch: RolloutBatch = {
    numPrompts: 2,
    groupSize: 4,
    promptLength: 3,
    maxNewTokens: 4,
    sequences: new Int32Array(N * 7),
    completionTokens: new Int32Array(N * 4),
    lengths: new Int32Array(N).fill(3),
    finished: new Uint8Array(N).fill(1),
    logProbs: new Float32Array(N * 4),
    entropies: new Float32Array(N * 4).fill(0.5),
    certainties: new Float32Array(N * 4).fill(0.2),
    completions: [...answers],
    answers,
  };
  return { voted: batch, trained: batch };
}

describe('armRewards: own votes for the mechanism', () => {
  // Truths '1', '3'. A: prompt 0 votes '1' 2 of 4 (ratio 0.5, right), prompt 1 '7' 3 of 4 (wrong).
  // B (the partner): '1' 4 of 4, '3' 4 of 4 (both right).
  const truths = ['1', '3'];
  const A = rollout(['1', '1', '2', '5', '7', '7', '7', '3']);
  const B = rollout(['1', '1', '1', '1', '3', '3', '3', '3']);
  const ctx: StepContext = {
    step: 1,
    problems: truths.map((answer) => ({ prompt: '', answer })) as StepContext['problems'],
    root: new Rng(3),
    spec: { grpo: { groupSize: 4 } } as ExperimentSpec,
  };

  it('are the plain plurality, not bent by tau (tau only decides what is rewarded)', () => {
    const arm: ArmSpec = { id: 'peer', scheme: 'peer', members: ['A', 'B'], tau: 0.6 } as ArmSpec;
    const r = armRewards(arm, [A, B], ctx, null);
    // A's plurality on prompt 0 has ratio 0.5 < tau: still its answer, '1'.
    expect(r.own[0].map((v) => v.label)).toEqual(['1', '7']);
    const m = measureMember({
      scheme: 'peer',
      rollout: A.trained,
      rewards: r.rewarded[0],
      oracle: r.oracle[0],
      ownVotes: r.own[0],
      truths,
      stats: groupStats(r.rewarded[0].rewards, 2, 4),
      update: { loss: 0, kl: null, clipFraction: 0, gradNorm: 0 } as never,
    });
    // Own vote right on prompt 0, wrong on prompt 1 (with tau bending it, prompt 0 counted as wrong: 0).
    expect(m.ownVoteAccuracy).toBe(0.5);
    // Where it is wrong (prompt 1) B's label '3' is right: rescue 1/1 (with tau: 2/2, a rescue that was not one).
    expect(m.rescueRate).toBe(1);
    // Where it is right (prompt 0) B's label '1' is right too: misled 0/1.
    expect(m.misleadRate).toBe(0);
    expect(m.pseudoLabelAccuracy).toBe(1);
  });
});
