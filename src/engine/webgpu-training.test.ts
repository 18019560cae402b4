/**
 * The same model code trains on WebGPU: each family, on Dawn (the `webgpu` npm package) with
 * Chromium's SwiftShader when there is no GPU, matches the wasm backend step for step.
 * (In the browser, e2e/lab.spec.ts trains on WebGPU and e2e/lab.nowebgpu.spec.ts on WebGL.)
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { findSwiftShaderDir, initNodeBackend, releaseNodeWebGPU } from './node-backend';
import { Rng } from '../core/random';
import { createPolicy, ModelStack, stackOf } from '../core/models/index';
import type { Family } from '../core/models/policy';
import { getTask, makeSplit, sequenceLength } from '../core/tasks/index';
import { VOCAB_SIZE } from '../core/tasks/tokenizer';
import { warmStart } from '../core/warmstart';
import { grpoUpdate } from '../core/grpo/update';

/**
 * One GRPO update of a two-layer transformer (more variables than a WebGPU shader binds buffers)
 * on a fixed batch, its gradients left unapplied: the update's stats (loss, gradient norm over
 * every variable, weight sum).
 */
async function transformerUpdate(): Promise<{ loss: number; gradNorm: number; weightSum: number; variables: number }> {
  const maxLen = 10;
  const policy = createPolicy({ family: 'transformer', vocabSize: VOCAB_SIZE, maxLen, dModel: 16, layers: 2, heads: 2 }, new Rng(5, 'grpo-gpu'));
  const rng = new Rng(6);
  const N = 4;
  const tokens = tf.tensor2d(Array.from({ length: N * maxLen }, () => rng.int(VOCAB_SIZE)), [N, maxLen], 'int32');
  const completionMask = tf.tensor2d(Array.from({ length: N * (maxLen - 1) }, (_, i) => (i % (maxLen - 1) >= 4 ? 1 : 0)), [N, maxLen - 1]);
  const advantages = tf.tensor1d([1, -1, 0.5, -0.5]);
  try {
    const stats = await grpoUpdate(policy, { applyGradients: () => {} }, { tokens, completionMask, advantages }, {
      temperature: 1, clipEps: 0.2, beta: 0, normalisation: 'grpo', maxCompletionLength: maxLen, maxGradNorm: 0, updatesPerBatch: 1,
    });
    return { loss: stats.loss, gradNorm: stats.gradNorm, weightSum: stats.weightSums[0], variables: policy.variables.length };
  } finally {
    tf.dispose([tokens, completionMask, advantages]);
    policy.dispose();
  }
}

async function losses(family: Family): Promise<number[]> {
  const task = getTask('digitsum');
  const split = makeSplit(task, 3, new Rng(1), { warmStart: 64, rl: 0, heldOut: 0 });
  const policy = createPolicy(
    { family, vocabSize: VOCAB_SIZE, maxLen: sequenceLength(task, 3), dModel: 16, layers: 1, heads: 2, window: 4 },
    new Rng(2, family),
  );
  const out: number[] = [];
  await warmStart(policy, split.warmStart, {
    steps: 6, batchSize: 16, learningRate: 1e-2, scratchpad: 'always', rng: new Rng(3), reportEvery: 1,
    onProgress: (p) => { out.push(p.loss); },
  });
  policy.dispose();
  return out;
}

// Needs Chromium's SwiftShader (apt-get install chromium) or a GPU with a Vulkan driver.
describe.skipIf(!findSwiftShaderDir() && !process.env.VK_ICD_FILENAMES)('model families on WebGPU (Dawn)', () => {
  afterAll(() => releaseNodeWebGPU('wasm'));

  for (const family of ['transformer', 'gru', 'mlp'] as Family[]) {
    it(`${family}: trains on webgpu with the losses it has on wasm`, async () => {
      await initNodeBackend('wasm', { fallback: false });
      const onWasm = await losses(family);
      const report = await initNodeBackend('webgpu', { fallback: false });
      expect(report.backend).toBe('webgpu');
      expect(tf.getBackend()).toBe('webgpu');
      const onGpu = await losses(family);
      expect(onGpu).toHaveLength(6);
      expect(onGpu[5]).toBeLessThan(onGpu[0]);
      onGpu.forEach((l, i) => expect(l).toBeCloseTo(onWasm[i], 3));
    }, 180_000);
  }

  it("a transformer's GRPO update gives on webgpu the loss, gradient norm and weight sum it gives on wasm (its variables outnumber a shader's buffers)", async () => {
    await initNodeBackend('wasm', { fallback: false });
    const onWasm = await transformerUpdate();
    expect(onWasm.variables).toBeGreaterThan(8);
    await initNodeBackend('webgpu', { fallback: false });
    const onGpu = await transformerUpdate();
    // One AddN of every variable's term needs a buffer each: past WebGPU's 8, the pipeline is invalid and its command buffer dropped.
    expect(onGpu.gradNorm).toBeGreaterThan(0);
    for (const k of ['loss', 'gradNorm', 'weightSum'] as const) expect(Math.abs(onGpu[k] - onWasm[k]), k).toBeLessThanOrEqual(1e-3 * Math.max(1, Math.abs(onWasm[k])));
  }, 180_000);

  it('a stack (one batched op per layer on the GPU) computes and decodes what its models compute alone', async () => {
    await initNodeBackend('webgpu', { fallback: false });
    const config = { family: 'transformer' as const, vocabSize: VOCAB_SIZE, maxLen: 12, dModel: 16, layers: 1, heads: 2 };
    const singles = [1, 2, 3].map((s) => createPolicy(config, new Rng(s, 'gpu-stack')));
    const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
    const K = 3, N = 4, T = 8;
    const rng = new Rng(9);
    const ids = Array.from({ length: K * N * T }, () => rng.int(VOCAB_SIZE));
    const tokens = tf.tensor3d(ids, [K, N, T], 'int32');
    const together = await stack.logits(tokens).data();
    const first = stack.prefill(tf.slice(tokens, [0, 0, 0], [K, N, 5]) as tf.Tensor3D); // logits at position 4
    const decoded = await first.logits.data();
    for (let k = 0; k < K; k++) {
      const alone = await singles[k].logits(tf.tensor2d(ids.slice(k * N * T, (k + 1) * N * T), [N, T], 'int32')).data();
      alone.forEach((v, i) => expect(together[k * alone.length + i]).toBeCloseTo(v, 4));
      for (let n = 0; n < N; n++) {
        for (let j = 0; j < VOCAB_SIZE; j++) expect(decoded[(k * N + n) * VOCAB_SIZE + j]).toBeCloseTo(alone[(n * T + 4) * VOCAB_SIZE + j], 4);
      }
    }
    stack.dispose();
    singles.forEach((p) => p.dispose());
  }, 180_000);
});
