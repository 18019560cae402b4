import { describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { checkMemory, defaultLimits, estimateMemory } from './budget';
import { getPreset } from './presets';
import { createRun, RunTooLargeError } from './runner';
import { parseSpec } from './spec';
import type { ExperimentSpec } from './spec';

const quick = getPreset('quick')!.spec;

function edited(spec: ExperimentSpec, edit: (s: ExperimentSpec) => void): ExperimentSpec {
  const copy = structuredClone(spec);
  edit(copy);
  const parsed = parseSpec(copy);
  if (!parsed.ok) throw new Error('test spec invalid');
  return parsed.spec;
}

describe('memory estimate', () => {
  it('counts every member once and every arm copy again', () => {
    const e = estimateMemory(quick);
    const copies = quick.arms.reduce((s, a) => s + a.members.length, 0);
    expect(e.models).toBe(quick.members.length + copies);
    expect(e.totalBytes).toBe(e.weightBytes + e.activationBytes);
  });

  it('grows with prompts per step, group size and width', () => {
    const base = estimateMemory(quick).totalBytes;
    expect(estimateMemory(edited(quick, (s) => (s.grpo.promptsPerStep *= 4))).totalBytes).toBeGreaterThan(base);
    expect(estimateMemory(edited(quick, (s) => (s.grpo.groupSize *= 2))).totalBytes).toBeGreaterThan(base);
    expect(estimateMemory(edited(quick, (s) => s.members.forEach((m) => (m.dModel *= 2)))).totalBytes).toBeGreaterThan(base);
  });

  it('lets every shipped preset run on every backend', () => {
    for (const id of ['quick', 'collapse', 'peers-teach', 'families', 'length', 'diversity', 'ring', 'intrinsic']) {
      for (const backend of ['webgpu', 'webgl', 'wasm', 'cpu']) expect(checkMemory(getPreset(id)!.spec, defaultLimits(backend)), `${id} on ${backend}`).toBeNull();
    }
  });

  it('refuses the largest spec the schema allows, saying what to reduce', () => {
    const huge = edited(quick, (s) => {
      s.grpo.promptsPerStep = 128;
      s.grpo.groupSize = 32;
      s.members.forEach((m) => Object.assign(m, { family: 'transformer', dModel: 256, layers: 4, heads: 8 }));
    });
    const message = checkMemory(huge, defaultLimits('wasm'));
    expect(message).toMatch(/needs about .* GiB on wasm .* more than the 2\.0 GiB/);
    expect(message).toMatch(/lower prompts per step or group size/);
    expect(checkMemory(huge, defaultLimits('webgpu', 1024))).not.toBeNull();
  });
});

describe('the runner refuses a run over its limits', () => {
  it('throws RunTooLargeError from events() before any tensor exists', async () => {
    const before = tf.memory().numTensors;
    const run = createRun(quick, { memoryLimits: { backend: 'wasm', totalBytes: 1024 * 1024, maxTensorBytes: 1024 * 1024 } });
    await expect(run.events().next()).rejects.toThrow(RunTooLargeError);
    await expect(createRun(quick, { memoryLimits: { backend: 'wasm', totalBytes: 1024 * 1024, maxTensorBytes: 1024 * 1024 } }).events().next()).rejects.toThrow(/needs about .* MiB on wasm/);
    expect(tf.memory().numTensors).toBe(before);
  });
});

// The estimate against the measured peak of real RL steps: src/engine/budgetPeak.test.ts, which
// chooses the wasm kernel set (tfjs's or ours) that the peak depends on.
