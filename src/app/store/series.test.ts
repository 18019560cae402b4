import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from './fixtures';
import { type PairSeries, appendStep, countPoints, emptySeries, lastStepRewards, lastValue, latestKappa } from './series';

describe('appendStep', () => {
  it('appends one x and one value per column', () => {
    const s = emptySeries();
    appendStep(s, stepEvent(1, [armMetrics('self', 'self', { A: { reward: 0.6 }, B: { reward: 0.7 } })]));
    appendStep(s, stepEvent(2, [armMetrics('self', 'self', { A: { reward: 0.8 }, B: { reward: 0.9 } })]));
    expect(s.x).toEqual([1, 2]);
    expect(s.arms).toHaveLength(1);
    expect(s.arms[0].memberIds).toEqual(['A', 'B']);
    expect(s.arms[0].members.A.reward).toEqual([0.6, 0.8]);
    expect(s.arms[0].members.B.reward).toEqual([0.7, 0.9]);
    expect(s.arms[0].pairs[0].agreement).toEqual([0.5, 0.5]);
  });

  it('records eval-only metrics as gaps on other steps', () => {
    const s = emptySeries();
    appendStep(s, stepEvent(1, [armMetrics('peer', 'peer', { A: {}, B: {} })]));
    appendStep(s, stepEvent(2, [armMetrics('peer', 'peer', { A: { evalPassAt1: 0.4 }, B: { evalPassAt1: 0.3 } }, { ensembleMajAtG: 0.55 })]));
    expect(s.arms[0].members.A.evalPassAt1).toEqual([null, 0.4]);
    expect(s.arms[0].ensembleMajAtG).toEqual([null, 0.55]);
    expect(s.arms[0].pairs[0].evalKappa).toEqual([null, null]);
  });

  it('turns null and NaN into gaps', () => {
    const s = emptySeries();
    appendStep(s, stepEvent(1, [armMetrics('x', 'entropy', { A: { pseudoLabelAccuracy: null, loss: Number.NaN } })]));
    expect(s.arms[0].members.A.pseudoLabelAccuracy).toEqual([null]);
    expect(s.arms[0].members.A.loss).toEqual([null]);
  });

  it('keeps columns aligned when an arm appears late or skips a step', () => {
    const s = emptySeries();
    appendStep(s, stepEvent(1, [armMetrics('a', 'self', { A: {} })]));
    appendStep(s, stepEvent(2, [armMetrics('a', 'self', { A: {} }), armMetrics('b', 'oracle', { A: { reward: 1 } })]));
    appendStep(s, stepEvent(3, [armMetrics('b', 'oracle', { A: { reward: 1 } })]));
    const [a, b] = s.arms;
    expect(a.members.A.reward).toEqual([0.5, 0.5, null]);
    expect(b.members.A.reward).toEqual([null, 1, 1]);
  });

  it('ignores a repeated or out-of-order step', () => {
    const s = emptySeries();
    expect(appendStep(s, stepEvent(2, [armMetrics('a', 'self', { A: {} })]))).toBe(true);
    expect(appendStep(s, stepEvent(2, [armMetrics('a', 'self', { A: {} })]))).toBe(false);
    expect(appendStep(s, stepEvent(1, [armMetrics('a', 'self', { A: {} })]))).toBe(false);
    expect(s.x).toEqual([2]);
  });
});

describe('column helpers', () => {
  it('finds the last value and counts points', () => {
    expect(lastValue([0.1, null, 0.3, null])).toBe(0.3);
    expect(lastValue([null])).toBeNull();
    expect(lastValue(undefined)).toBeNull();
    expect(countPoints([[1, null, 0], [null]])).toBe(2);
  });

  it('prefers the held-out kappa over the batch kappa', () => {
    const pair: PairSeries = { a: 'A', b: 'B', agreement: [], kappa: [0.1, 0.2], bothWrongSame: [], evalKappa: [null, null], evalBothWrongSame: [] };
    expect(latestKappa(pair)).toEqual({ kappa: 0.2, source: 'batch' });
    pair.evalKappa = [0.45, null];
    expect(latestKappa(pair)).toEqual({ kappa: 0.45, source: 'held-out' });
    expect(latestKappa({ ...pair, kappa: [], evalKappa: [] })).toEqual({ kappa: null, source: null });
  });
});

describe('lastStepRewards', () => {
  it('is null before any step', () => {
    expect(lastStepRewards(emptySeries())).toBeNull();
  });

  it('gives the last step per arm and member, with gaps as null', () => {
    const s = emptySeries();
    appendStep(s, stepEvent(1, [armMetrics('self', 'self', { A: { reward: 0.6 }, B: {} })]));
    appendStep(s, stepEvent(2, [armMetrics('self', 'self', { A: { reward: 0.75, oracleReward: 0.25, loss: Number.NaN } })]));
    expect(lastStepRewards(s)).toEqual({
      step: 2,
      arms: { self: { A: { reward: 0.75, oracleReward: 0.25, loss: null }, B: { reward: null, oracleReward: null, loss: null } } },
    });
  });
});
