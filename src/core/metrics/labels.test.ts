import { describe, expect, it } from 'vitest';
import {
  agreementRate,
  labeledFraction,
  meanMajorityRatio,
  pseudoLabelAccuracy,
  rewardAccuracy,
  rewardGap,
  supervisionContainsTruth,
  tieRate,
} from './labels';

describe('pseudo-label metrics', () => {
  it('pseudoLabelAccuracy counts labeled prompts only; NaN when none is labeled', () => {
    expect(pseudoLabelAccuracy(['3', null, '5', '1'], ['3', '2', '4', '1'])).toBeCloseTo(2 / 3, 12);
    expect(pseudoLabelAccuracy([null, null], ['1', '2'])).toBeNaN();
    expect(() => pseudoLabelAccuracy(['1'], ['1', '2'])).toThrow(RangeError);
  });

  it('labeledFraction, meanMajorityRatio, tieRate', () => {
    expect(labeledFraction(['3', null, '5', null])).toBe(0.5);
    expect(labeledFraction([])).toBeNaN();
    expect(meanMajorityRatio([{ majorityRatio: 0.5 }, { majorityRatio: 1 }, { majorityRatio: 0 }])).toBeCloseTo(0.5, 12);
    expect(tieRate([{ tied: true }, { tied: false }, { tied: false }, { tied: true }])).toBe(0.5);
  });

  it('agreementRate: both labeled and equal / both labeled', () => {
    // prompt 0 both '1' (agree), 1 differ, 2 A unlabeled (skipped), 3 both '7' (agree)
    expect(agreementRate(['1', '2', null, '7'], ['1', '3', '4', '7'])).toBeCloseTo(2 / 3, 12);
    expect(agreementRate([null, '1'], ['2', null])).toBeNaN();
  });

  it('supervisionContainsTruth: truth among the supervising votes of each prompt', () => {
    // 3 votes per prompt; truth '2' present in prompt 0, '9' absent from prompt 1
    expect(supervisionContainsTruth(['1', '2', null, '4', '4', '5'], ['2', '9'])).toBe(0.5);
    expect(supervisionContainsTruth([], [])).toBeNaN();
  });
});

describe('reward metrics', () => {
  it('rewardAccuracy: fraction of rollouts whose binarised reward equals the oracle', () => {
    expect(rewardAccuracy([1, 1, 0, 0], [1, 0, 0, 1])).toBe(0.5);
    // self-soft frequencies: 0.75 -> 1, 0.5 -> 0 (not above 0.5), 0.25 -> 0
    expect(rewardAccuracy(new Float32Array([0.75, 0.5, 0.25]), [1, 0, 1])).toBeCloseTo(2 / 3, 12);
    expect(rewardAccuracy([], [])).toBeNaN();
  });

  it('rewardGap: mean label-free minus mean oracle reward', () => {
    expect(rewardGap([1, 1, 1, 0], [1, 0, 0, 0])).toBe(0.5);
    expect(rewardGap([0, 0], [1, 0])).toBe(-0.5);
  });
});
