import { describe, expect, it } from 'vitest';
import { bothWrongSameAnswer, cohenKappa, passRateCorrelation } from './overlap';

/** Boolean vectors realising a 2x2 table: n11 both right, n10 only A, n01 only B, n00 both wrong. */
function table(n11: number, n10: number, n01: number, n00: number): [boolean[], boolean[]] {
  const a: boolean[] = [];
  const b: boolean[] = [];
  const push = (n: number, x: boolean, y: boolean) => {
    for (let i = 0; i < n; i++) {
      a.push(x);
      b.push(y);
    }
  };
  push(n11, true, true);
  push(n10, true, false);
  push(n01, false, true);
  push(n00, false, false);
  return [a, b];
}

describe('cohenKappa', () => {
  it('is 1 for perfect agreement and -1 for perfect disagreement at 50/50', () => {
    expect(cohenKappa(...table(5, 0, 0, 5))).toBe(1);
    expect(cohenKappa(...table(0, 5, 5, 0))).toBe(-1);
  });

  it('is 0 for independent raters', () => {
    // pA = pB = 0.5 and each cell 25: p_o = 0.5 = p_e
    expect(cohenKappa(...table(25, 25, 25, 25))).toBeCloseTo(0, 12);
    // pA = 0.8, pB = 0.5, cells proportional to the margins: 40, 40, 10, 10
    expect(cohenKappa(...table(40, 40, 10, 10))).toBeCloseTo(0, 12);
  });

  it('matches the textbook example (Wikipedia "Cohen\'s kappa": 20, 5, 10, 15 -> 0.4)', () => {
    // p_o = 35/50 = 0.7; pA = 25/50, pB = 30/50; p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5
    expect(cohenKappa(...table(20, 5, 10, 15))).toBeCloseTo(0.4, 12);
  });

  it('is NaN when p_e = 1 (both always right, or both always wrong) and for empty input', () => {
    expect(cohenKappa([true, true], [true, true])).toBeNaN();
    expect(cohenKappa([false, false], [false, false])).toBeNaN();
    expect(cohenKappa([], [])).toBeNaN();
    // One constant rater and one varying: p_e < 1, kappa = 0
    expect(cohenKappa([true, true, true, true], [true, false, true, false])).toBeCloseTo(0, 12);
  });
});

describe('bothWrongSameAnswer', () => {
  it('counts prompts where both models give the same wrong parseable answer', () => {
    const truths = ['1', '2', '3', '4', '5'];
    const A = ['1', '9', '8', null, '6'];
    const B = ['1', '9', '7', null, '6'];
    // prompt 0 both right; 1 both '9' wrong -> counts; 2 different wrong; 3 both malformed -> not; 4 both '6' -> counts
    expect(bothWrongSameAnswer(A, B, truths)).toBe(0.4);
    expect(() => bothWrongSameAnswer(['1'], ['1', '2'], ['1'])).toThrow(RangeError);
  });
});

describe('passRateCorrelation', () => {
  it('is the Pearson correlation of per-problem sample accuracies', () => {
    expect(passRateCorrelation([0, 0.5, 1], [0, 0.5, 1])).toBeCloseTo(1, 12);
    expect(passRateCorrelation([0, 0.5, 1], [1, 0.5, 0])).toBeCloseTo(-1, 12);
    // a = [0, 1, 0, 1], b = [0, 1, 1, 1]: cov 0.25 * 4 ... = 1/sqrt(3)
    expect(passRateCorrelation([0, 1, 0, 1], [0, 1, 1, 1])).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(passRateCorrelation([0.5, 0.5], [0, 1])).toBeNaN();
    expect(() => passRateCorrelation([1], [1, 2])).toThrow(RangeError);
  });
});
