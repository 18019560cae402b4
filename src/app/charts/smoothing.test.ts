import { describe, expect, it } from 'vitest';
import { clampSmoothing, emaSmooth } from './smoothing';

describe('emaSmooth (TensorBoard debiased EMA)', () => {
  it('returns the data unchanged at weight 0', () => {
    expect(emaSmooth([1, 2, null, 4], 0)).toEqual([1, 2, null, 4]);
  });

  it('is debiased: the first value is kept, then the average by hand', () => {
    // w = 0.5: last = 0.5 * 2 = 1 -> /0.5 = 2; last = 0.5 + 0.5 * 4 = 2.5 -> /0.75 = 3.333...
    const s = emaSmooth([2, 4, 4], 0.5);
    expect(s[0]).toBeCloseTo(2, 12);
    expect(s[1]).toBeCloseTo(10 / 3, 12);
    // last = 1.25 + 2 = 3.25 -> /0.875
    expect(s[2]).toBeCloseTo(3.25 / 0.875, 12);
  });

  it('keeps a constant series constant (no pull towards 0)', () => {
    for (const v of emaSmooth([6, 6, 6, 6, 6], 0.9)) expect(v).toBeCloseTo(6, 12);
  });

  it('leaves gaps as gaps and does not count them', () => {
    const a = emaSmooth([2, null, 4], 0.5);
    const b = emaSmooth([2, 4], 0.5);
    expect(a[1]).toBeNull();
    expect(a[2]).toBeCloseTo(b[1] as number, 12);
  });

  it('lags a step change more the higher the weight', () => {
    const step = [0, 0, 0, 1, 1, 1];
    const low = emaSmooth(step, 0.3)[4] as number;
    const high = emaSmooth(step, 0.9)[4] as number;
    expect(low).toBeGreaterThan(high);
    expect(high).toBeGreaterThan(0);
  });

  it('clamps the weight to [0, 0.99]', () => {
    expect(clampSmoothing(-1)).toBe(0);
    expect(clampSmoothing(Number.NaN)).toBe(0);
    expect(clampSmoothing(1)).toBe(0.99);
    expect(clampSmoothing(0.6)).toBe(0.6);
    // Weight 1 would never move: it is clamped, so the series still follows its data.
    expect(emaSmooth([0, 10], 1)[1]).toBeGreaterThan(0);
  });
});
