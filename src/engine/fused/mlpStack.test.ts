/**
 * The fused MLP step against the core's method, on one WebGPU device (Dawn in Node, Chromium's
 * SwiftShader when there is no GPU): for the same weights and the same rollouts the fused path's
 * loss, per-model gradient norm, gradients and updated weights are the tfjs path's; its sampler
 * draws what rollout.ts draws from the same seeded uniforms, and from the softmax's distribution.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSwiftShaderDir, initNodeBackend, releaseNodeWebGPU } from '../node-backend';
import { Rng } from '../../core/random';
import { Adam } from '../../core/adam';
import { createPolicy, ModelStack, stackOf } from '../../core/models/index';
import type { PolicyConfig } from '../../core/models/policy';
import { getTask, makeSplit, promptTokens, sequenceLength } from '../../core/tasks/index';
import { VOCAB_SIZE } from '../../core/tasks/tokenizer';
import { sampleStack, type RolloutBatch } from '../../core/rollout';
import { grpoTermsStack } from '../../core/grpo/loss';
import { grpoUpdateStackOnDevice, readStackUpdateStats, type GrpoUpdateOptions } from '../../core/grpo/update';
import { completionMask } from '../../core/experiment/arm';
import { FusedMlpStack } from './mlpStack';

const task = getTask('digitsum');
const DIFFICULTY = 3;
const maxLen = sequenceLength(task, DIFFICULTY);
const CONFIG: PolicyConfig = { family: 'mlp', vocabSize: VOCAB_SIZE, maxLen, dModel: 16, layers: 2, window: 4 };
const OPTS: GrpoUpdateOptions = {
  temperature: 1, clipEps: 0.2, beta: 0, normalisation: 'grpo', maxCompletionLength: 0, maxGradNorm: 1, updatesPerBatch: 1,
};

function stackOfThree(config: PolicyConfig = CONFIG): ModelStack {
  const singles = [1, 2, 3].map((s) => createPolicy(config, new Rng(s, 'fused-mlp')));
  const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
  singles.forEach((p) => p.dispose());
  return stack;
}

function prompts(n: number): number[][] {
  const split = makeSplit(task, DIFFICULTY, new Rng(4), { warmStart: 0, rl: n, heldOut: 0 });
  return split.rl.map((p) => promptTokens(task, DIFFICULTY, p.prompt));
}

const rolloutOpts = (K: number, G: number, seed: number) => ({
  groupSize: G, temperature: 1, maxNewTokens: maxLen - prompts(1)[0].length, rngs: Array.from({ length: K }, (_, k) => new Rng(seed, `sample-${k}`)),
});

/** Largest |a - b| over the largest |b|: the error relative to the tensor's scale. */
function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < b.length; i++) {
    num = Math.max(num, Math.abs(a[i] - b[i]));
    den = Math.max(den, Math.abs(b[i]));
  }
  return den === 0 ? num : num / den;
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-30);

/** Advantages of a group-relative kind: mean 0 within each prompt's group, some rows 0. */
function advantagesFor(K: number, N: number, seed: number): Float32Array[] {
  const rng = new Rng(seed, 'adv');
  return Array.from({ length: K }, () => Float32Array.from({ length: N }, (_, i) => (i % 5 === 0 ? 0 : rng.normal())));
}

/** The tfjs path's gradients of the summed GRPO loss, variable by variable (no update). */
function tfjsGradients(stack: ModelStack, batches: RolloutBatch[], advantages: Float32Array[]): Promise<Float32Array[]> {
  const { tokens, mask, adv, from } = batchTensors(batches, advantages);
  const { grads, value } = tf.variableGrads(() => tf.sum(grpoTermsStack((t, f) => stack.logits(t, f), { tokens, completionMask: mask, advantages: adv, from }, OPTS).loss) as tf.Scalar, stack.variables);
  const out = Promise.all(stack.variables.map(async (v) => (await grads[v.name].data()) as Float32Array));
  void out.then(() => tf.dispose([value, tokens, mask, adv, ...Object.values(grads)]));
  return out;
}

function batchTensors(batches: RolloutBatch[], advantages: Float32Array[]) {
  const K = batches.length;
  const r0 = batches[0];
  const N = r0.numPrompts * r0.groupSize;
  const T = r0.promptLength + r0.maxNewTokens;
  const cat = <A extends Float32Array | Int32Array>(parts: A[], out: A) => (parts.forEach((p, k) => out.set(p, k * p.length)), out);
  return {
    tokens: tf.tensor3d(cat(batches.map((b) => b.sequences), new Int32Array(K * N * T)), [K, N, T], 'int32'),
    mask: tf.tensor3d(cat(batches.map(completionMask), new Float32Array(K * N * (T - 1))), [K, N, T - 1]),
    adv: tf.tensor2d(cat(advantages, new Float32Array(K * N)), [K, N]),
    from: r0.promptLength - 1,
  };
}

/** grpo/update.ts's update of the stack with adam.ts: the core's stats. */
async function tfjsUpdate(stack: ModelStack, adam: Adam, batches: RolloutBatch[], advantages: Float32Array[], opts = OPTS) {
  const { tokens, mask, adv, from } = batchTensors(batches, advantages);
  try {
    return await readStackUpdateStats(grpoUpdateStackOnDevice(stack, adam, { tokens, completionMask: mask, advantages: adv, from }, opts));
  } finally {
    tf.dispose([tokens, mask, adv]);
  }
}

const device = () => (tf.backend() as unknown as { device: GPUDevice }).device;

// Skipped only where Dawn finds no Vulkan driver (neither the webgpu package's SwiftShader nor
// VK_ICD_FILENAMES): there is no WebGPU device in Node to run the kernels on.
describe.skipIf(!findSwiftShaderDir() && !process.env.VK_ICD_FILENAMES)('the fused MLP step on WebGPU (Dawn) against the core', () => {
  beforeAll(async () => {
    await initNodeBackend('webgpu', { fallback: false });
  }, 60_000);
  afterAll(() => releaseNodeWebGPU('wasm'));

  it('samples the rollouts rollout.ts samples from the same seeded uniforms', async () => {
    const stack = stackOfThree();
    const adam = new Adam(stack.variables, { learningRate: 1e-3 });
    const fused = await FusedMlpStack.create(device(), stack, adam);
    try {
      const ps = prompts(6);
      const core = await sampleStack(stack, ps, task, DIFFICULTY, rolloutOpts(3, 4, 11));
      const mine = await fused.sample(ps, task, DIFFICULTY, rolloutOpts(3, 4, 11));
      let same = 0;
      let rows = 0;
      for (let k = 0; k < 3; k++) {
        const L = core[k].maxNewTokens;
        for (let n = 0; n < core[k].lengths.length; n++) {
          rows++;
          const a = core[k].completionTokens.subarray(n * L, (n + 1) * L);
          const b = mine[k].completionTokens.subarray(n * L, (n + 1) * L);
          if (a.every((x, i) => x === b[i])) {
            same++;
            const row = <A extends Float32Array>(x: A) => x.subarray(n * L, (n + 1) * L);
            for (const key of ['logProbs', 'entropies'] as const) expect(relErr(row(mine[k][key]), row(core[k][key])), key).toBeLessThan(1e-5);
            // Self-certainty is -mean(log p) - log V, a difference of terms near log V: its error is on their scale.
            expect(relErr(row(mine[k].certainties), row(core[k].certainties)) * Math.max(...row(core[k].certainties).map(Math.abs))).toBeLessThan(1e-5 * Math.log(VOCAB_SIZE));
          }
        }
        expect(mine[k].answers.length).toBe(core[k].answers.length);
      }
      // A row can part only where two noisy logits tie to float32 rounding (a few in a million draws).
      expect(same / rows).toBeGreaterThanOrEqual(0.95);
      expect(same).toBeGreaterThan(0);
    } finally {
      fused.dispose();
      adam.dispose();
      stack.dispose();
    }
  }, 120_000);

  it("draws each first token as often as the softmax says (10,000 draws of one prompt)", async () => {
    const config: PolicyConfig = { ...CONFIG, dModel: 8, layers: 1 };
    const singles = [createPolicy(config, new Rng(3, 'fused-draws'))];
    const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
    singles[0].dispose();
    const adam = new Adam(stack.variables, { learningRate: 1e-3 });
    const fused = await FusedMlpStack.create(device(), stack, adam);
    try {
      const G = 10_000;
      const [batch] = await fused.sample(prompts(1), task, DIFFICULTY, { groupSize: G, temperature: 1.3, maxNewTokens: 1, rngs: [new Rng(5, 'draws')] });
      // Every row has the same first-token distribution: exp(log-prob) of what it drew.
      const p = new Float64Array(VOCAB_SIZE);
      const counts = new Float64Array(VOCAB_SIZE);
      for (let n = 0; n < G; n++) {
        p[batch.completionTokens[n]] = Math.exp(batch.logProbs[n]);
        counts[batch.completionTokens[n]]++;
      }
      // The tfjs path's probabilities at the same temperature, for every token (drawn or not).
      const prompt = prompts(1)[0];
      const input = tf.tensor3d(Int32Array.from(prompt), [1, 1, prompt.length], 'int32');
      const logits = stack.logits(input);
      input.dispose();
      const all = await tf.tidy(() => tf.softmax(tf.div(tf.slice(logits, [0, 0, prompt.length - 1, 0], [1, 1, 1, VOCAB_SIZE]), 1.3))).data();
      logits.dispose();
      for (let v = 0; v < VOCAB_SIZE; v++) if (counts[v] > 0) expect(rel(p[v], all[v])).toBeLessThan(1e-5);
      // Pearson's chi-square over tokens with an expected count >= 5 (the rest pooled).
      let chi = 0;
      let dof = -1;
      let restE = 0;
      let restO = 0;
      for (let v = 0; v < VOCAB_SIZE; v++) {
        const e = all[v] * G;
        if (e >= 5) {
          chi += (counts[v] - e) ** 2 / e;
          dof++;
        } else {
          restE += e;
          restO += counts[v];
        }
      }
      if (restE >= 5) {
        chi += (restO - restE) ** 2 / restE;
        dof++;
      }
      expect(dof).toBeGreaterThanOrEqual(2);
      // 99.9th percentile of chi-square: dof + 3.1 sqrt(2 dof) + 4 bounds it for dof <= 20.
      expect(chi).toBeLessThan(dof + 3.1 * Math.sqrt(2 * dof) + 4);
    } finally {
      fused.dispose();
      adam.dispose();
      stack.dispose();
    }
  }, 120_000);

  it('gives the tfjs path\'s loss, gradients, gradient norms and updated weights for the same rollouts (three steps)', async () => {
    const stack = stackOfThree();
    const adam = new Adam(stack.variables, { learningRate: 3e-3 });
    const fused = await FusedMlpStack.create(device(), stack, adam);
    try {
      for (let step = 0; step < 3; step++) {
        const batches = await sampleStack(stack, prompts(4), task, DIFFICULTY, rolloutOpts(3, 4, 20 + step));
        const N = batches[0].lengths.length;
        const advantages = advantagesFor(3, N, step);
        const want = await tfjsGradients(stack, batches, advantages);
        const core = await tfjsUpdate(stack, adam, batches, advantages);
        const mine = await fused.update(batches, advantages, OPTS);
        const grads = await fused.readGradients();
        grads.forEach((g, i) => expect(relErr(g, want[i]), `gradient of ${stack.names[i]}, step ${step}`).toBeLessThan(1e-5));
        for (let k = 0; k < 3; k++) {
          expect(rel(mine[k].loss, core[k].loss), `loss, model ${k}`).toBeLessThan(1e-5);
          expect(rel(mine[k].gradNorm, core[k].gradNorm), `gradient norm, model ${k}`).toBeLessThan(1e-5);
          expect(rel(mine[k].entropy, core[k].entropy), `entropy, model ${k}`).toBeLessThan(1e-5);
          expect(mine[k].clipFraction).toBe(core[k].clipFraction);
          expect(rel(mine[k].weightSums[0], core[k].weightSums[0]), `weight sum, model ${k}`).toBeLessThan(1e-4);
        }
        const weights = await fused.readWeights();
        const tfjsWeights = await Promise.all(stack.variables.map(async (v) => (await v.data()) as Float32Array));
        weights.forEach((w, i) => expect(relErr(w, tfjsWeights[i]), `${stack.names[i]} after step ${step}`).toBeLessThan(1e-5));
      }
    } finally {
      fused.dispose();
      adam.dispose();
      stack.dispose();
    }
  }, 300_000);
});
