import { describe, expect, it } from 'vitest';
import { MAX_WARM_POINTS, nextWarmCurves, nextWarmProgress, throughput, warmFraction, type WarmEvent } from './progress';

const ev = (memberIndex: number, step: number, steps: number, memberCount = 2): WarmEvent => ({
  type: 'warmstart',
  memberId: String.fromCharCode(65 + memberIndex),
  step,
  steps,
  loss: 1,
  memberIndex,
  memberCount,
});

describe('warmFraction', () => {
  it('weights members by their warm-start steps', () => {
    expect(warmFraction(ev(0, 50, 100), [100, 300])).toBe(0.125);
    expect(warmFraction(ev(1, 150, 300), [100, 300])).toBe(0.625);
    expect(warmFraction(ev(1, 300, 300), [100, 300])).toBe(1);
  });
  it('assumes equal members without the spec', () => {
    expect(warmFraction(ev(1, 50, 100))).toBe(0.75);
  });
  it('counts a member with no warm start as done', () => {
    expect(warmFraction(ev(0, 0, 0, 1))).toBe(1);
  });
});

describe('nextWarmProgress', () => {
  it('extrapolates the time left from the first event', () => {
    const p0 = nextWarmProgress(null, ev(0, 10, 100), 1000, [100, 100]);
    expect(p0.startedAt).toBe(1000);
    expect(p0.etaMs).toBeNull(); // no time has passed yet
    const p1 = nextWarmProgress(p0, ev(0, 50, 100), 11_000, [100, 100]);
    expect(p1.fraction).toBe(0.25);
    expect(p1.etaMs).toBe(30_000); // 10 s for 25% -> 30 s for the remaining 75%
    expect(p1.target).toBeUndefined();
  });
  it('keeps the target of a member that stops at one (its step count is then a limit)', () => {
    const p = nextWarmProgress(null, { ...ev(0, 10, 200), target: 0.4 }, 0, [200, 200]);
    expect(p).toMatchObject({ target: 0.4, steps: 200, fraction: 0.025 });
  });
});

describe('throughput', () => {
  it('averages over compute time', () => {
    expect(throughput([])).toEqual({ stepsPerSec: null, tokensPerSec: null });
    expect(throughput([{ stepMs: 100, tokens: 300 }, { stepMs: 300, tokens: 500 }])).toEqual({ stepsPerSec: 5, tokensPerSec: 2000 });
  });
});

describe('nextWarmCurves', () => {
  const ev = (memberId: string, step: number, validation?: number) =>
    ({ type: 'warmstart', memberId, step, steps: 100, loss: 1, memberIndex: 0, memberCount: 2, target: 0.5, ...(validation === undefined ? {} : { validation }) }) as const;

  it('adds a point per validation value, one curve per member, and leaves the list alone otherwise', () => {
    let curves = nextWarmCurves([], ev('A', 10, 0.1));
    curves = nextWarmCurves(curves, ev('A', 20, 0.3));
    curves = nextWarmCurves(curves, ev('B', 10, 0.2));
    expect(curves).toEqual([
      { memberId: 'A', steps: 100, target: 0.5, points: [{ step: 10, value: 0.1 }, { step: 20, value: 0.3 }] },
      { memberId: 'B', steps: 100, target: 0.5, points: [{ step: 10, value: 0.2 }] },
    ]);
    expect(nextWarmCurves(curves, ev('A', 30))).toBe(curves);
    expect(nextWarmCurves(curves, ev('A', 30, Number.NaN))).toBe(curves);
  });

  it(`keeps at most ${MAX_WARM_POINTS} points a member, the latest always`, () => {
    let curves: ReturnType<typeof nextWarmCurves> = [];
    for (let s = 1; s <= 1000; s++) curves = nextWarmCurves(curves, ev('A', s, s / 1000));
    expect(curves[0].points.length).toBeLessThanOrEqual(MAX_WARM_POINTS);
    expect(curves[0].points.at(-1)).toEqual({ step: 1000, value: 1 });
    expect(curves[0].points.map((p) => p.step)).toEqual([...curves[0].points.map((p) => p.step)].sort((a, b) => a - b));
  });
});
