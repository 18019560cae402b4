import { describe, expect, it } from 'vitest';
import { type HistoryPoint, collapseStep, lengthStats } from './dynamics';

/** Steps 0..n-1 with the given rewards; eval accuracy where given (undefined = no eval that step). */
function history(rewards: number[], evals: (number | undefined)[]): HistoryPoint[] {
  return rewards.map((reward, step) => ({ step, reward, evalPassAt1: evals[step] }));
}

describe('collapseStep', () => {
  it('finds the first step where accuracy drops > delta below its best while the reward keeps rising', () => {
    // Reward climbs steadily; accuracy peaks at 0.5 (step 2) then falls: 0.45 (not > 0.1 below), 0.35 (step 6).
    const h = history([0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0], [0.4, undefined, 0.5, undefined, 0.45, undefined, 0.35, 0.2]);
    expect(collapseStep(h, 0.1, 1)).toBe(6);
    expect(collapseStep(h, 0.1, 3)).toBe(6); // MA(6) = 0.8 > MA(2) = 0.4
    expect(collapseStep(h, 0.2, 1)).toBe(7); // 0.2 < 0.5 - 0.2
    expect(collapseStep(h, 0.4, 1)).toBeNull();
  });

  it('is null when accuracy falls but the reward falls too (not reward hacking)', () => {
    const h = history([0.9, 0.8, 0.7, 0.6], [0.6, 0.5, 0.3, 0.2]);
    expect(collapseStep(h, 0.1, 1)).toBeNull();
  });

  it('smooths the reward: a one-step spike after a dip does not count as rising', () => {
    // Accuracy peaks at step 2 (0.6, reward 0.5) and falls to 0.3 at step 4, where the raw reward
    // spikes to 0.7 after a dip to 0.2. Raw (window 1): 0.7 > 0.5 -> collapse at 4. Smoothed over 3:
    // MA(4) = (0.5 + 0.2 + 0.7) / 3 = 0.467 < MA(2) = 0.5 -> no collapse.
    const h = history([0.5, 0.5, 0.5, 0.2, 0.7], [undefined, undefined, 0.6, undefined, 0.3]);
    expect(collapseStep(h, 0.1, 1)).toBe(4);
    expect(collapseStep(h, 0.1, 3)).toBeNull();
  });

  it('ignores NaN evaluations and handles an empty history', () => {
    expect(collapseStep([], 0.1)).toBeNull();
    const h = history([0, 1, 2], [0.5, NaN, 0.1]);
    expect(collapseStep(h, 0.1, 1)).toBe(2);
  });
});

describe('lengthStats', () => {
  it('mean length and the fraction hitting the cap', () => {
    // cap 8: [3 finished], [8 unfinished], [5 finished], [8 finished but used the whole budget]
    const s = lengthStats([3, 8, 5, 8], [true, false, true, true], 8);
    expect(s.meanLength).toBe(6);
    expect(s.capFraction).toBe(0.5);
    expect(lengthStats([], [], 4).meanLength).toBeNaN();
  });
});
