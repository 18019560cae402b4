/**
 * The fused MLP step's GPU work, counted exactly on Dawn (SwiftShader without a GPU): a step is
 * this step's update and the next step's rollouts, recorded into one command encoder. The counts
 * do not depend on the shapes (the kernels loop; only their launch sizes grow), so a small batch of
 * the default preset's member shape (d64, 2 hidden layers, window 6, six copies) stands for it.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSwiftShaderDir, initNodeBackend, releaseNodeWebGPU } from '../node-backend';
import { installCounters } from '../../core/benchmark/counters';
import { Rng } from '../../core/random';
import { Adam } from '../../core/adam';
import { createPolicy, ModelStack, stackOf } from '../../core/models/index';
import type { PolicyConfig } from '../../core/models/policy';
import { getTask, makeSplit, promptTokens, sequenceLength } from '../../core/tasks/index';
import { VOCAB_SIZE } from '../../core/tasks/tokenizer';
import type { GrpoUpdateOptions } from '../../core/grpo/update';
import { FusedMlpStack } from './mlpStack';
import { FUSED_STEP_COUNTS, overBudget, STEP_BUDGETS, type GpuCounts } from './budgets';

const task = getTask('digitsum');
const maxLen = sequenceLength(task, 3);
const OPTS: GrpoUpdateOptions = { temperature: 1, clipEps: 0.2, beta: 0, normalisation: 'grpo', maxCompletionLength: 0, maxGradNorm: 1, updatesPerBatch: 1 };

const FUSED_MLP_STEP = FUSED_STEP_COUNTS.mlp!;

describe('step budgets', () => {
  it('name each count past its budget, and none within it', () => {
    expect(overBudget('mlp', { dispatches: 30, submits: 1, gpuReadbacks: 1 })).toEqual([]);
    expect(overBudget('mlp', { dispatches: 31, submits: 2, gpuReadbacks: 1 })).toEqual([
      'a fused mlp step made 31 dispatches, over its budget of 30',
      'a fused mlp step made 2 submits, over its budget of 1',
    ]);
    expect(overBudget('transformer', { dispatches: 60, submits: 1, gpuReadbacks: 1 })).toEqual([]);
  });
});

// Skipped only where Dawn finds no Vulkan driver (neither the webgpu package's SwiftShader nor
// VK_ICD_FILENAMES): there is no WebGPU device in Node to run the kernels on.
describe.skipIf(!findSwiftShaderDir() && !process.env.VK_ICD_FILENAMES)('the fused MLP step on WebGPU (Dawn), counted', () => {
  beforeAll(async () => {
    await initNodeBackend('webgpu', { fallback: false });
  }, 60_000);
  afterAll(() => releaseNodeWebGPU('wasm'));

  it('makes 8 dispatches, 1 submit and 1 readback a step, no tfjs kernel, within its budget', async () => {
    const config: PolicyConfig = { family: 'mlp', vocabSize: VOCAB_SIZE, maxLen, dModel: 64, layers: 2, window: 6 };
    const singles = Array.from({ length: 6 }, (_, s) => createPolicy(config, new Rng(s, 'fused-counts')));
    const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
    singles.forEach((p) => p.dispose());
    const adam = new Adam(stack.variables, { learningRate: 1e-3 });
    const device = (tf.backend() as unknown as { device: GPUDevice }).device;
    const fused = await FusedMlpStack.create(device, stack, adam);
    const problems = makeSplit(task, 3, new Rng(4), { warmStart: 0, rl: 4, heldOut: 0 }).rl.map((p) => promptTokens(task, 3, p.prompt));
    const request = (step: number) => ({
      prompts: problems.slice(step % 2, (step % 2) + 2),
      task,
      difficulty: 3,
      opts: { groupSize: 4, temperature: 1, maxNewTokens: maxLen - problems[0].length, rngs: Array.from({ length: 6 }, (_, k) => new Rng(step, `m${k}`)) },
    });
    const advantages = (N: number) => Array.from({ length: 6 }, (_, k) => Float32Array.from({ length: N }, (_, i) => ((i + k) % 3) - 1));
    try {
      const first = request(0);
      let batches = await fused.sample(first.prompts, first.task, first.difficulty, first.opts);
      const steps: GpuCounts[] = [];
      for (let step = 1; step <= 3; step++) {
        const c = installCounters();
        try {
          ({ batches } = await fused.updateThenSample(batches, advantages(batches[0].lengths.length), OPTS, request(step)));
          const n = c.snapshot();
          steps.push(n);
          expect(n).toMatchObject(FUSED_MLP_STEP);
          expect(overBudget('mlp', n)).toEqual([]);
        } finally {
          c.uninstall();
        }
      }
      expect(steps).toHaveLength(3);
      expect(STEP_BUDGETS.mlp.dispatches).toBeGreaterThanOrEqual(FUSED_MLP_STEP.dispatches);

      // The same work as two submits (the update read, then the next rollouts): the same dispatches, and
      // the extra submit and readback the budget forbids.
      const c = installCounters();
      try {
        await fused.update(batches, advantages(batches[0].lengths.length), OPTS);
        const req = request(4);
        batches = await fused.sample(req.prompts, req.task, req.difficulty, req.opts);
        const n = c.snapshot();
        expect(n).toMatchObject({ dispatches: FUSED_MLP_STEP.dispatches, submits: 2, gpuReadbacks: 2 });
        expect(overBudget('mlp', n)).toEqual(['a fused mlp step made 2 submits, over its budget of 1', 'a fused mlp step made 2 gpuReadbacks, over its budget of 1']);
      } finally {
        c.uninstall();
      }
    } finally {
      fused.dispose();
      adam.dispose();
      stack.dispose();
    }
  }, 240_000);
});
