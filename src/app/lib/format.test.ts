import { describe, expect, it } from 'vitest';
import { MISSING, fmtCompletion, fmtDuration, fmtFixed, fmtParams, fmtPercent, fmtRate } from './format';

describe('format', () => {
  it('prints missing values as a dash', () => {
    expect(fmtFixed(null)).toBe(MISSING);
    expect(fmtFixed(Number.NaN)).toBe(MISSING);
    expect(fmtPercent(undefined)).toBe(MISSING);
    expect(fmtDuration(null)).toBe(MISSING);
    expect(fmtRate(null, 'steps/s')).toBe(`${MISSING} steps/s`);
  });
  it('formats numbers and percentages', () => {
    expect(fmtFixed(0.31415, 3)).toBe('0.314');
    expect(fmtPercent(0.4213)).toBe('42%');
    expect(fmtPercent(0.4213, 1)).toBe('42.1%');
  });
  it('formats rates across magnitudes', () => {
    expect(fmtRate(3.14, 'steps/s')).toBe('3.1 steps/s');
    expect(fmtRate(0.043, 'steps/s')).toBe('0.04 steps/s');
    expect(fmtRate(42.4, 'tok/s')).toBe('42 tok/s');
    expect(fmtRate(1234.5, 'tok/s')).toBe('1.23k tok/s');
    expect(fmtRate(45600, 'tok/s')).toBe('45.6k tok/s');
    expect(fmtRate(2.5e6, 'tok/s')).toBe('2.50M tok/s');
  });
  it('formats durations', () => {
    expect(fmtDuration(400)).toBe('<1 s');
    expect(fmtDuration(42_000)).toBe('42 s');
    expect(fmtDuration(185_000)).toBe('3 min 05 s');
    expect(fmtDuration(3_720_000)).toBe('1 h 02 min');
  });
  it('formats parameter counts and completions', () => {
    expect(fmtParams(980)).toBe('980');
    expect(fmtParams(104_321)).toBe('104K');
    expect(fmtParams(1_234_567)).toBe('1.2M');
    expect(fmtCompletion(null)).toBe('(hit length cap)');
    expect(fmtCompletion('')).toBe('(empty)');
    expect(fmtCompletion('<b>1</b>')).toBe('<b>1</b>');
  });
});
