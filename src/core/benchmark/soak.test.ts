import { describe, expect, it } from 'vitest';
import { getPreset } from '../experiment/presets';
import { SOAK_EVAL_EVERY, soakSpec } from './soak';

describe('soakSpec', () => {
  const quick = getPreset('quick')!.spec;

  it('is the preset for the given steps, evaluating every 100, and leaves the preset as it was', () => {
    const before = JSON.stringify(quick);
    const spec = soakSpec(quick, 300);
    expect(spec.steps).toBe(300);
    expect(spec.evalEvery).toBe(SOAK_EVAL_EVERY);
    expect(SOAK_EVAL_EVERY).toBe(100);
    expect({ ...spec, steps: quick.steps, evalEvery: quick.evalEvery }).toEqual(quick);
    expect(JSON.stringify(quick)).toBe(before);
  });

  it('refuses steps the schema refuses', () => {
    expect(() => soakSpec(quick, 0)).toThrow();
    expect(() => soakSpec(quick, 5001)).toThrow();
  });
});
