import { describe, expect, it } from 'vitest';
import { medianStepMs, rlLeftMs, runProgress } from './runProgress';

const base = { phase: 'rl' as const, paused: false, warm: null, step: 10, steps: 80, arrivals: [] as number[], halt: null };

describe("time left from this machine's steps", () => {
  it('is the median gap between step arrivals times the steps to come', () => {
    // gaps 500, 700, 600 -> median 600; 70 steps left -> 42 s
    expect(medianStepMs([0, 500, 1200, 1800])).toBe(600);
    expect(rlLeftMs([0, 500, 1200, 1800], 10, 80)).toBe(42_000);
  });
  it('an even number of gaps averages the middle two; one slow evaluation step does not swing it', () => {
    expect(medianStepMs([0, 400, 800, 3800, 4200])).toBe(400);
  });
  it('is unknown until two gaps were seen', () => {
    expect(medianStepMs([0, 500])).toBeNull();
    expect(rlLeftMs([0, 500], 2, 80)).toBeNull();
  });
});

describe('run progress', () => {
  it('RL steps: the fraction done and the time left', () => {
    expect(runProgress({ ...base, arrivals: [0, 300, 600] }, false)).toEqual({ stage: 'RL steps', fraction: 10 / 80, leftMs: 70 * 300 });
  });
  it('paused: no time left is promised', () => {
    expect(runProgress({ ...base, paused: true, arrivals: [0, 300, 600] }, false)?.leftMs).toBeNull();
  });
  it('the backend check and the base evaluation are indeterminate', () => {
    expect(runProgress({ ...base, phase: 'preparing', step: null }, true)).toEqual({ stage: 'Checking which backend is fastest here', fraction: null, leftMs: null });
    expect(runProgress({ ...base, step: null }, false)?.fraction).toBeNull();
  });
  it('the warm start reports its own fraction and estimate', () => {
    const warm = { memberId: 'A', memberIndex: 0, memberCount: 2, step: 5, steps: 10, loss: 1, fraction: 0.25, etaMs: 3000, startedAt: 0 };
    expect(runProgress({ ...base, phase: 'warmstart', warm }, false)).toEqual({ stage: 'Warm start', fraction: 0.25, leftMs: 3000 });
  });
  it('nothing to show before a run or after a halt', () => {
    expect(runProgress({ ...base, phase: 'idle' }, false)).toBeNull();
    expect(runProgress({ ...base, halt: { type: 'nonfinite', step: 3, memberId: 'A', armId: 'self', quantity: 'loss', value: 'NaN', message: '' } as never }, false)).toBeNull();
  });
});
