import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { type RewardInput, REWARD_SCHEMES, computeRewards, isVoteScheme, oracleRewards } from './schemes';
import type { Answer } from './vote';

// One member, B = 2 prompts x G = 4 samples, prompt-major.
//   prompt 0: '3', '3', '5', malformed -> plurality '3' (2 of 3 parseable)
//   prompt 1: '1', '2', '1', '2'       -> tie between '1' and '2'
const answers: Answer[] = ['3', '3', '5', null, '1', '2', '1', '2'];
const truths = ['3', '2'];
const B = 2;
const G = 4;
const own = () => new Rng(42, 'votes/A');
/** The label the seeded tie-break gives prompt 1 of member A. */
const tieLabel = ['1', '2'][new Rng(42, 'votes/A/prompt1').int(2)];
const rewardsOf = (input: RewardInput) => Array.from(computeRewards(input).rewards);

describe('computeRewards', () => {
  it('oracle: 1[a == truth], labels are the truths', () => {
    const out = computeRewards({ scheme: 'oracle', answers, B, G, truths });
    expect(Array.from(out.rewards)).toEqual([1, 1, 0, 0, 0, 1, 0, 1]);
    expect(out.labels).toEqual(['3', '2']);
    expect(out.votes).toBeNull();
    expect(Array.from(oracleRewards(answers, truths))).toEqual([1, 1, 0, 0, 0, 1, 0, 1]);
  });

  it('self: 1[a == own plurality], seeded tie-break, malformed gets 0', () => {
    const out = computeRewards({ scheme: 'self', answers, B, G, rng: own() });
    const p1 = answers.slice(4).map((a) => (a === tieLabel ? 1 : 0));
    expect(Array.from(out.rewards)).toEqual([1, 1, 0, 0, ...p1]);
    expect(out.labels).toEqual(['3', tieLabel]);
    expect(out.votes!.map((v) => v.tied)).toEqual([false, true]);
    expect(out.votes![0].majorityRatio).toBeCloseTo(2 / 3, 12);
    // Reproducible: the same stream gives the same rewards.
    expect(rewardsOf({ scheme: 'self', answers, B, G, rng: own() })).toEqual(Array.from(out.rewards));
  });

  it('self with tau: a prompt whose majority ratio is below tau gives every rollout 0', () => {
    // ratios: prompt 0 = 2/3, prompt 1 = 1/2
    const out = computeRewards({ scheme: 'self', answers, B, G, rng: own(), tau: 0.6 });
    expect(Array.from(out.rewards)).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
    expect(out.labels).toEqual(['3', null]);
    expect(rewardsOf({ scheme: 'self', answers, B, G, rng: own(), tau: 0.7 })).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('self-soft: frequency of a among own parseable votes', () => {
    const r = rewardsOf({ scheme: 'self-soft', answers, B, G, rng: own() });
    const expected = [2 / 3, 2 / 3, 1 / 3, 0, 0.5, 0.5, 0.5, 0.5];
    r.forEach((x, i) => expect(x).toBeCloseTo(expected[i], 6));
    // tau 0.6 unlabels prompt 1 only
    const t = rewardsOf({ scheme: 'self-soft', answers, B, G, rng: own(), tau: 0.6 });
    [2 / 3, 2 / 3, 1 / 3, 0, 0, 0, 0, 0].forEach((x, i) => expect(t[i]).toBeCloseTo(x, 6));
  });

  it('peer / ring / teacher: 1[a == supervisor plurality]; a supervisor with no parseable vote labels nothing', () => {
    // Partner samples 3 per prompt: prompt 0 -> '5' (2 of 3), prompt 1 -> all malformed.
    const supervisor = { answers: ['5', '5', '3', null, null, null] as Answer[], rng: new Rng(42, 'votes/B') };
    for (const scheme of ['peer', 'ring', 'teacher'] as const) {
      const out = computeRewards({ scheme, answers, B, G, supervisor });
      expect(Array.from(out.rewards)).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
      expect(out.labels).toEqual(['5', null]);
      expect(out.supervision).toEqual(supervisor.answers);
    }
  });

  it('peer: the partner label equals what the partner self-vote gives (same ballots, same stream)', () => {
    const partner: Answer[] = ['1', '2', '1', '2', '4', '4', '6', '6'];
    const selfB = computeRewards({ scheme: 'self', answers: partner, B, G, rng: new Rng(5, 'votes/B') });
    const peerA = computeRewards({ scheme: 'peer', answers, B, G, supervisor: { answers: partner, rng: new Rng(5, 'votes/B') } });
    expect(peerA.labels).toEqual(selfB.labels);
  });

  it('cohort: plurality of the pooled votes of the others, ties discarded', () => {
    const others: Answer[][] = [
      ['5', '5', '3', '2'], // member B, 2 per prompt
      ['3', '3', '2', '2'], // member C, 2 per prompt
    ];
    // pooled prompt 0: 5,5,3,3 -> tie -> unlabeled; prompt 1: 3,2,2,2 -> '2' (ratio 3/4)
    const out = computeRewards({ scheme: 'cohort', answers, B, G, others });
    expect(Array.from(out.rewards)).toEqual([0, 0, 0, 0, 0, 1, 0, 1]);
    expect(out.labels).toEqual([null, '2']);
    expect(out.votes!.map((v) => v.tied)).toEqual([true, false]);
    expect(out.supervision).toEqual(['5', '5', '3', '3', '3', '2', '2', '2']);
    // tau 0.8 > 3/4 unlabels prompt 1 too
    expect(rewardsOf({ scheme: 'cohort', answers, B, G, others, tau: 0.8 })).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('entropy: minus the mean token entropy; certainty: the mean KL(U || p), malformed answers included', () => {
    const h = [0.5, 1, 0, 2, 0.25, 0.25, 3, 1.5];
    expect(rewardsOf({ scheme: 'entropy', answers, B, G, meanEntropy: h })).toEqual(h.map((x) => -x));
    const c = new Float32Array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
    const out = computeRewards({ scheme: 'certainty', answers, B, G, meanCertainty: c });
    expect(out.rewards).toEqual(c);
    expect(out.labels).toEqual([null, null]);
  });

  it('a malformed answer gets 0 under every vote-based scheme even when everyone else agrees', () => {
    const mine: Answer[] = [null, '7', '7', '7'];
    const voters = { answers: ['7', '7'] as Answer[], rng: new Rng(1) };
    const inputs: RewardInput[] = [
      { scheme: 'self', answers: mine, B: 1, G: 4, rng: new Rng(1) },
      { scheme: 'self-soft', answers: mine, B: 1, G: 4, rng: new Rng(1) },
      { scheme: 'peer', answers: mine, B: 1, G: 4, supervisor: voters },
      { scheme: 'ring', answers: mine, B: 1, G: 4, supervisor: voters },
      { scheme: 'teacher', answers: mine, B: 1, G: 4, supervisor: voters },
      { scheme: 'cohort', answers: mine, B: 1, G: 4, others: [voters.answers] },
    ];
    for (const input of inputs) {
      expect(isVoteScheme(input.scheme)).toBe(true);
      const r = computeRewards(input).rewards;
      expect(r[0]).toBe(0);
      expect(r[1]).toBeGreaterThan(0);
    }
    expect(REWARD_SCHEMES.filter((s) => !isVoteScheme(s))).toEqual(['oracle', 'entropy', 'certainty']);
  });

  it('rejects inconsistent sizes', () => {
    expect(() => computeRewards({ scheme: 'oracle', answers, B, G: 3, truths })).toThrow(RangeError);
    expect(() => computeRewards({ scheme: 'oracle', answers, B, G, truths: ['1'] })).toThrow(RangeError);
    expect(() => computeRewards({ scheme: 'entropy', answers, B, G, meanEntropy: [1] })).toThrow(RangeError);
    expect(() =>
      computeRewards({ scheme: 'peer', answers, B, G, supervisor: { answers: ['1', '2', '3'], rng: new Rng(0) } }),
    ).toThrow(RangeError);
  });
});

describe('computeRewards with n_vote > G own ballots (TTRL votes over 64, trains on 32)', () => {
  // The rewarded answers are the first G = 2 of each prompt's n_vote = 4 ballots.
  //   prompt 0 ballots: '3', '5', '5', '5'  -> plurality '5' (3 of 4); over the first 2 alone: a tie
  //   prompt 1 ballots: '1', null, '2', '2' -> plurality '2' (2 of 3); the first 2 alone say '1'
  const ballots: Answer[] = ['3', '5', '5', '5', '1', null, '2', '2'];
  const trained: Answer[] = ['3', '5', '1', null];

  it('self: the label comes from all n_vote ballots, the G trained answers are rewarded', () => {
    const out = computeRewards({ scheme: 'self', answers: trained, B: 2, G: 2, ballots, rng: own() });
    expect(out.labels).toEqual(['5', '2']);
    expect(Array.from(out.rewards)).toEqual([0, 1, 0, 0]);
    expect(out.votes!.map((v) => [v.count, v.parseable, v.tied])).toEqual([[3, 4, false], [2, 3, false]]);
    expect(out.supervision).toEqual(ballots);
    // Without the ballots, the first G vote on their own: a tie on prompt 0, '1' on prompt 1.
    const alone = computeRewards({ scheme: 'self', answers: trained, B: 2, G: 2, rng: own() });
    expect(alone.labels[1]).toBe('1');
    expect(alone.votes![0].tied).toBe(true);
  });

  it('self-soft: the share of the n_vote ballots that the trained answer has', () => {
    const r = rewardsOf({ scheme: 'self-soft', answers: trained, B: 2, G: 2, ballots, rng: own() });
    [1 / 4, 3 / 4, 1 / 3, 0].forEach((x, i) => expect(r[i]).toBeCloseTo(x, 6));
  });

  it('ballots equal to the answers change nothing (n_vote = G)', () => {
    for (const scheme of ['self', 'self-soft'] as const) {
      expect(computeRewards({ scheme, answers, B, G, ballots: answers, rng: own() })).toEqual(computeRewards({ scheme, answers, B, G, rng: own() }));
    }
  });

  it('rejects ballots that do not split into B groups', () => {
    expect(() => computeRewards({ scheme: 'self', answers: trained, B: 2, G: 2, ballots: ['1', '2', '3'], rng: own() })).toThrow(RangeError);
  });
});
