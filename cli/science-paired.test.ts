import { describe, expect, it } from 'vitest';
import { describePaired, paired, tQuantile975 } from './science-paired';

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
});
