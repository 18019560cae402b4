import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { constantNote, constantValue, fmtValue, lengthAxisMax, niceCeil, yRange } from './axes';

describe('yRange', () => {
  it('fixes rates to [0, 1] whatever the data', () => {
    expect(yRange('rate', 0.41, 0.43)).toEqual([0, 1]);
    expect(yRange('rate', null, null)).toEqual([0, 1]);
  });

  it('draws lengths from 0 to the completion cap, or to the data if it is longer', () => {
    expect(yRange('length', 5.9, 6.1, 9)).toEqual([0, 9]);
    expect(yRange('length', 5, 12, 9)).toEqual([0, 12]);
    expect(yRange('length', null, null, 9)).toEqual([0, 9]);
  });

  it('starts non-negative quantities at 0 and ends on a round number', () => {
    expect(yRange('nonneg', 0.8, 1.37)).toEqual([0, 2]);
    expect(yRange('nonneg', 0.01, 0.02)).toEqual([0, 0.025]);
    expect(yRange('nonneg', null, null)).toEqual([0, 1]);
  });

  it('never magnifies a nearly flat auto range: a minimum span around it', () => {
    const [lo, hi] = yRange('auto', -1.2000001, -1.2);
    expect(hi - lo).toBeCloseTo(0.12, 6);
    expect((lo + hi) / 2).toBeCloseTo(-1.2, 6);
    const [a, b] = yRange('auto', -2, 1);
    expect(a).toBeCloseTo(-2.15, 9);
    expect(b).toBeCloseTo(1.15, 9);
  });
});

describe('niceCeil', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceCeil(1.37)).toBe(2);
    expect(niceCeil(2.1)).toBe(2.5);
    expect(niceCeil(0.3)).toBeCloseTo(0.5, 12);
    expect(niceCeil(7)).toBe(10);
    expect(niceCeil(1)).toBe(1);
    expect(niceCeil(0)).toBe(1);
  });
});

describe('lengthAxisMax', () => {
  it("is the runner's cap: maxNewTokens, or the task's longest completion + 2", () => {
    const spec = getPreset('quick')!.spec;
    // Sums of three digits: "a,b>s" at most 5 characters (two running sums), + 2.
    expect(spec.task).toMatchObject({ id: 'digitsum', difficulty: 3 });
    expect(lengthAxisMax(spec)).toBe(7);
    expect(lengthAxisMax({ ...spec, grpo: { ...spec.grpo, maxNewTokens: 12 } })).toBe(12);
  });
});

describe('constant detection', () => {
  it('finds one shared value across lines, ignoring gaps', () => {
    expect(constantValue([[6, 6, null], [6, 6.000000001]])).toBeCloseTo(6, 6);
    expect(constantValue([[6, 6.01]])).toBeNull();
    expect(constantValue([[6]])).toBeNull();
  });

  it('says "constant at 6.00" for one flat value, lists each flat line, and is silent otherwise', () => {
    expect(constantNote([{ label: 'self · A', col: [6, 6, 6] }, { label: 'self · B', col: [6, null, 6] }])).toBe('constant at 6.00');
    expect(constantNote([{ label: 'A', col: [6, 6] }, { label: 'B', col: [5, 5] }])).toBe('every line is constant: A at 6.00, B at 5.00');
    expect(constantNote([{ label: 'A', col: [6, 6] }, { label: 'B', col: [5, 5.5] }])).toBeNull();
    expect(constantNote([{ label: 'A', col: [6, 7] }])).toBeNull();
    expect(constantNote([{ label: 'A', col: [null, null] }])).toBeNull();
  });

  it('prints small values with significant digits, not as 0.00', () => {
    expect(fmtValue(0.001234)).toBe('0.00123');
    expect(fmtValue(0)).toBe('0.00');
    expect(fmtValue(null)).toBe('—');
    expect(fmtValue(-0.125)).toBe('-0.13');
  });
});
