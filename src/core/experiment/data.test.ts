import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { getPreset } from './presets';
import { experimentSplit, stepPromptIndices } from './data';

describe('an experiment\'s problems (shared by the runner and the exports)', () => {
  const spec = getPreset('quick')!.spec;

  it('splits the problems into disjoint pools of the spec\'s sizes, the same for the same seed', () => {
    const split = experimentSplit(spec);
    expect([split.warmStart.length, split.rl.length, split.heldOut.length]).toEqual([spec.data.labeledPool, spec.data.rlPool, spec.data.heldOut]);
    const prompts = [...split.warmStart, ...split.rl, ...split.heldOut].map((p) => p.prompt);
    expect(new Set(prompts).size).toBe(prompts.length);
    expect(experimentSplit(spec)).toEqual(split);
    expect(experimentSplit({ ...spec, seed: spec.seed + 1 }).heldOut).not.toEqual(split.heldOut);
  });

  it('draws each step\'s prompts from (seed, step) alone, with replacement, inside the pool', () => {
    const root = new Rng(3);
    const a = stepPromptIndices(root, 5, 64, 10);
    expect(a).toHaveLength(64);
    expect(a.every((i) => Number.isInteger(i) && i >= 0 && i < 10)).toBe(true);
    expect(new Set(a).size).toBeLessThan(64); // with replacement
    expect(stepPromptIndices(new Rng(3), 5, 64, 10)).toEqual(a);
    expect(stepPromptIndices(new Rng(3), 6, 64, 10)).not.toEqual(a);
    // The stream is the runner's `prompts/<step>` one.
    const r = new Rng(3).child('prompts/5');
    expect(a[0]).toBe(r.int(10));
  });
});
