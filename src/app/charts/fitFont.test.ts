import { describe, expect, it } from 'vitest';
import { fitFontPx } from './UPlotChart';

describe('axis label type that fits', () => {
  it('keeps the size when the label fits along the plot', () => {
    // 10 px per 1 px of type: 120 px at 12 px, within 130.
    expect(fitFontPx(10, 12, 130)).toBe(12);
  });
  it('shrinks to the largest whole size that fits', () => {
    // 16 px type would need 202 px of a 187 px plot: 14 px needs 176.75.
    expect(fitFontPx(202 / 16, 16, 187)).toBe(14);
  });
  it('never below the smallest legible size', () => {
    expect(fitFontPx(20, 12, 50)).toBe(9);
  });
});
