import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { checkMemory, defaultLimits, estimateMemory } from './budget';
import { getPreset } from './presets';
import { createRun, RunTooLargeError } from './runner';
import { parseSpec } from './spec';
import type { ExperimentSpec } from './spec';
import { useBackend } from '../testing/fixed-policy';
import { installCounters } from '../benchmark/counters';

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

describe('memory estimate against tf.memory()', () => {
  beforeAll(() => useBackend('wasm'));

  // Two RL steps and an evaluation of quick's shape (6 trained copies), each family, 4 prompts a
  // step: the estimate must bound the measured peak from above without crying wolf (within 4x).
  const shapes: Record<string, Partial<ExperimentSpec['members'][number]>> = {
    mlp: {},
    transformer: { family: 'transformer', dModel: 32, layers: 2, heads: 4 },
  };
  for (const [family, shape] of Object.entries(shapes)) {
    it(`bounds the measured peak of an RL step from above: ${family}`, async () => {
      const spec = edited(quick, (s) => {
        Object.assign(s, { steps: 2, evalEvery: 2 });
        s.grpo.promptsPerStep = 4;
        s.members.forEach((m) => Object.assign(m, { warmStartSteps: 1, warmStartTarget: 0 }, shape));
      });
      const run = createRun(spec);
      const counts = installCounters({ gpu: null });
      const before = tf.memory().numBytes;
      let peak = 0;
      for await (const ev of run.events()) {
        // The warm start trains one member at a time at its own batch size: not part of the bound.
        if (ev.type === 'base') counts.resetPeak();
        if (ev.type === 'done') peak = counts.snapshot().peakBytes - before;
      }
      counts.uninstall();
      run.dispose();
      const e = estimateMemory(spec).totalBytes;
      expect(peak).toBeGreaterThan(0);
      expect(e).toBeGreaterThanOrEqual(peak);
      expect(e).toBeLessThan(4 * peak);
    }, 120_000);
  }
});
