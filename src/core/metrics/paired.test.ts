import { describe, expect, it } from 'vitest';
import { describePaired, fmtP, holmAdjust, holmVerdicts, nearestMedianSeed, paired, tQuantile975, twoSidedP } from './paired';

describe('paired differences', () => {
  it('gives mean, standard error and the Student-t interval', () => {
    const p = paired([0.1, 0.2, 0.3, 0.2]);
    expect(p.mean).toBeCloseTo(0.2, 12);
    const sd = Math.sqrt((0.01 + 0 + 0.01 + 0) / 3);
    expect(p.se).toBeCloseTo(sd / 2, 12);
    expect(p.lo).toBeCloseTo(0.2 - 3.182 * (sd / 2), 9);
    expect(p.verdict).toBe('shown');
  });

  it('calls a difference inside its noise "not shown", and one below zero "contradicted"', () => {
    expect(paired([0.1, -0.08, 0.05, -0.02]).verdict).toBe('not shown');
    expect(paired([-0.1, -0.2, -0.15]).verdict).toBe('contradicted');
    expect(paired([0.3]).verdict).toBe('not shown');
    expect(paired([]).verdict).toBe('not shown');
  });

  it('counts ties as ties: differences that print the same at two decimals', () => {
    const p = paired([0, 0.004, -0.004, 0.2, -0.1]);
    expect([p.wins, p.ties, p.losses]).toEqual([1, 3, 1]);
    expect(describePaired(paired([0.1, 0.2, 0]))).toMatch(/^\+0\.10 \[95% CI −0\.\d\d, \+0\.\d\d\], 2 wins, 1 tie, 0 losses of 3 seeds$/);
  });

  it('uses 1.96 beyond 30 degrees of freedom', () => {
    expect(tQuantile975(7)).toBe(2.365);
    expect(tQuantile975(100)).toBe(1.96);
  });

  it('gives the two-sided p-value of the paired t-test', () => {
    // df 1 is the Cauchy distribution: P(|T| >= 1) = 1 - (2 / pi) atan(1) = 0.5.
    expect(twoSidedP(1, 1)).toBeCloseTo(0.5, 12);
    // df 2: P(|T| >= t) = 1 - t / sqrt(2 + t^2); t = 2: 1 - 2 / sqrt(6).
    expect(twoSidedP(2, 2)).toBeCloseTo(1 - 2 / Math.sqrt(6), 12);
    // The 97.5% quantiles of the interval's table sit at p = 0.05 (to their three decimals).
    expect(twoSidedP(2.365, 7)).toBeCloseTo(0.05, 4);
    expect(twoSidedP(-12.706, 1)).toBeCloseTo(0.05, 4);
    expect(twoSidedP(0, 5)).toBe(1);
    // paired(): t = mean / se. [0.1, 0.2, 0.3, 0.2]: mean 0.2, se 0.0408, t = 4.899, df 3.
    expect(paired([0.1, 0.2, 0.3, 0.2]).p).toBeCloseTo(twoSidedP(0.2 / (Math.sqrt(0.02 / 3) / 2), 3), 12);
    expect(paired([0.1, 0.2, 0.3, 0.2]).p).toBeCloseTo(0.0163, 4);
    expect(paired([0.3]).p).toBeNaN();
    expect(paired([0.1, 0.1]).p).toBe(0);
  });

  it('adjusts p-values by Holm-Bonferroni (the textbook example: 0.01, 0.04, 0.03, 0.005)', () => {
    // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> kept at 0.06 (monotone).
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((x, i) => expect(adjusted[i]).toBeCloseTo(x, 12));
    // At 5%: H4 and H1 rejected, H2 and H3 not.
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]); // 0.5 x 2 = 1; 0.9 x 1 kept at 1
    expect(holmAdjust([NaN, 0.01])).toEqual([1, 0.02]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('gives Holm verdicts: a claim shown alone need not survive its family', () => {
    // 8 seeds, mean +0.05, t about 2.6 (p about 0.035): shown on its own, not among 8 claims.
    const small = paired([0.12, 0.05, 0.02, 0.09, -0.03, 0.1, 0.06, -0.01]);
    expect(small.verdict).toBe('shown');
    expect(small.p).toBeGreaterThan(0.02);
    expect(small.p).toBeLessThan(0.05);
    const strong = paired([0.14, 0.15, 0.13, 0.16, 0.12, 0.15, 0.14, 0.13]);
    const falls = paired([-0.14, -0.15, -0.13, -0.16, -0.12, -0.15, -0.14, -0.13]);
    const family = [strong, small, falls, ...Array.from({ length: 5 }, () => paired([0.01, -0.02, 0.03, 0, -0.01, 0.02, 0, 0.01]))];
    const h = holmVerdicts(family);
    expect(h.map((x) => x.verdict).slice(0, 3)).toEqual(['shown', 'not shown', 'contradicted']);
    // Its p is the third smallest of 8 (after the two strong claims' p < 1e-6): multiplied by 6.
    expect(Math.max(strong.p, falls.p)).toBeLessThan(1e-6);
    expect(h[1].pAdjusted).toBeCloseTo(6 * small.p, 12);
    // A family of one is the claim's own test.
    expect(holmVerdicts([small])[0].verdict).toBe('shown');
  });

  it('prints p-values in two significant digits', () => {
    expect([fmtP(0.5), fmtP(0.031), fmtP(0.00123), fmtP(0.00001), fmtP(0.999), fmtP(NaN)]).toEqual(['0.50', '0.031', '0.0012', '< 0.0001', '1.0', '-']);
  });
});

describe('nearestMedianSeed', () => {
  it('picks the seed nearest the median of the block, the lower seed on a tie', () => {
    // The median of 0.25, 0.75, 0.5 and 2 is 0.625: seeds 2 (0.75) and 3 (0.5) are both 0.125 away.
    expect(nearestMedianSeed([{ seed: 1, d: 0.25 }, { seed: 2, d: 0.75 }, { seed: 3, d: 0.5 }, { seed: 4, d: 2 }])).toBe(2);
    expect(nearestMedianSeed([{ seed: 3, d: 0.25 }, { seed: 2, d: 0.75 }, { seed: 1, d: 0.5 }, { seed: 4, d: 2 }])).toBe(1);
    expect(nearestMedianSeed([{ seed: 7, d: -0.5 }, { seed: 8, d: 0.04 }, { seed: 9, d: 0.5 }])).toBe(8);
    expect(() => nearestMedianSeed([])).toThrow(/no seeds/);
  });
});
