import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { type HistoryPoint, collapseStep, collapseRule, lengthStats, memberCollapseStep } from './dynamics';

/** Steps 0..n-1 with the given rewards; eval accuracy where given (undefined = no eval that step). */
function history(rewards: number[], evals: (number | undefined)[]): HistoryPoint[] {
  return rewards.map((reward, step) => ({ step, reward, evalPassAt1: evals[step] }));
}

/** Steps 1..10k with reward step / 100, and held-out pass@1 `evals[i]` at step 10i (evals[0]: the base). */
function run(evals: number[]): { base: number; history: HistoryPoint[] } {
  const history = Array.from({ length: 10 * (evals.length - 1) }, (_, i) => {
    const step = i + 1;
    return { step, reward: step / 100, ...(step % 10 === 0 ? { evalPassAt1: evals[step / 10] } : {}) };
  });
  return { base: evals[0], history };
}

describe('collapseStep (the one definition: smoothed over 3 evaluations)', () => {
  it('finds the first smoothed point more than delta below the smoothed best while the reward is higher', () => {
    // Evaluations at steps 0 (base), 10, ..., 60: 0.40 0.46 0.44 0.42 0.30 0.22 0.20; reward = step / 100.
    // Smoothed (trailing 3): step 20 0.433, 30 0.440 (best), 40 0.387, 50 0.313 (< 0.34), 60 0.240.
    // Reward over steps 41-50: 0.455 > over steps 11-30: 0.205. Collapse at step 50.
    const r = run([0.4, 0.46, 0.44, 0.42, 0.3, 0.22, 0.2]);
    expect(memberCollapseStep(r.base, r.history, 0.1)).toBe(50);
    // The raw maximum (0.46 at step 10) with the raw 0.30 at step 40 would have said 40.
    expect(collapseStep([{ step: 0, reward: 0, evalPassAt1: 0.4 }, ...r.history], 0.1, 1)).toBe(40);
    expect(memberCollapseStep(r.base, r.history, 0.15)).toBe(60); // 0.240 < 0.44 - 0.15
    expect(memberCollapseStep(r.base, r.history, 0.25)).toBeNull();
  });

  it('does not take one lucky evaluation for the best', () => {
    // A spike (0.56) and then a flat 0.43-0.45: raw best 0.56, and 0.44 is 0.12 below it.
    const r = run([0.44, 0.56, 0.44, 0.45, 0.43, 0.44]);
    expect(collapseStep([{ step: 0, reward: 0, evalPassAt1: 0.44 }, ...r.history], 0.1, 1)).toBe(20);
    // Smoothed: 0.480, 0.483 (best), 0.440, 0.440: never 0.1 below.
    expect(memberCollapseStep(r.base, r.history, 0.1)).toBeNull();
  });

  it('is null when accuracy falls but the reward falls too (not reward hacking)', () => {
    const r = run([0.6, 0.6, 0.6, 0.3, 0.2, 0.1]);
    const falling = r.history.map((h) => ({ ...h, reward: 1 - h.step / 100 }));
    expect(memberCollapseStep(r.base, falling, 0.1)).toBeNull();
    expect(memberCollapseStep(r.base, r.history, 0.1)).toBe(40); // (0.6 + 0.3 + 0.2) / 3 = 0.367 < 0.5
  });

  it('needs three evaluations, ignores NaN ones, and handles an empty history', () => {
    expect(collapseStep([], 0.1)).toBeNull();
    expect(memberCollapseStep(0.5, [], 0.1)).toBeNull();
    expect(memberCollapseStep(0.5, run([0.5, 0.1]).history, 0.1)).toBeNull();
    const h = history([0, 1, 2, 3, 4, 5], [0.5, 0.5, 0.5, NaN, 0.1, 0.1]);
    // Evaluations 0.5 0.5 0.5 (steps 0-2), 0.1 (step 4), 0.1 (step 5): smoothed 0.5 (step 2), then
    // 0.367 at step 4, below 0.4, with the reward over steps 2-4 (3) above that over steps 1-2 (1.5).
    expect(collapseStep(h, 0.1)).toBe(4);
    expect(() => collapseStep(h, 0.1, 0)).toThrow(RangeError);
  });

  it('rarely fires when the accuracy is flat and only the evaluations are noisy', () => {
    // 2,000 runs of 9 evaluations (base + 8), true pass@1 0.45, noise sd 0.03, reward always rising:
    // the raw maximum fires in ~19% of runs, the smoothed rule in ~0.02% (a simulation with 1e5 runs).
    const rng = new Rng(21);
    let raw = 0;
    let smoothed = 0;
    for (let t = 0; t < 2000; t++) {
      const r = run(Array.from({ length: 9 }, () => 0.45 + 0.03 * rng.normal()));
      if (collapseStep([{ step: 0, reward: 0, evalPassAt1: r.base }, ...r.history], 0.1, 1) !== null) raw++;
      if (memberCollapseStep(r.base, r.history, 0.1) !== null) smoothed++;
    }
    expect(raw / 2000).toBeGreaterThan(0.12);
    expect(smoothed / 2000).toBeLessThan(0.005);
  });

  it('says the rule in words with the run\'s delta', () => {
    expect(collapseRule(0.1)).toContain('smoothed over 3 evaluations, fell more than 0.10 below its best');
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
