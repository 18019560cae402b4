import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrpoBatch } from './loss';
import { type GradientApplier, type GrpoUpdateOptions, grpoUpdate, perModelWeightSum } from './update';
import { firstNonFinite, nonFiniteValue } from './nonfinite';
import { BigramPolicy } from '../testing/bigram-policy';
import { installCounters } from '../benchmark/counters';

const V = 4;
const W = [0.5, -1, 2, 0, 1, 0.3, -0.2, 0.7, -0.4, 1.1, 0, 0.9, 0.2, 0.2, -1.3, 0.6];
let batch: GrpoBatch;
const opts: GrpoUpdateOptions = { temperature: 1, clipEps: 0.2, beta: 0, normalisation: 'grpo', maxCompletionLength: 4, maxGradNorm: 1, updatesPerBatch: 1 };

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
  batch = {
    tokens: tf.tensor2d([[0, 1, 2, 3], [0, 2, 3, 1]], [2, 4], 'int32'),
    completionMask: tf.tensor2d([[0, 1, 1], [0, 1, 0]]),
    advantages: tf.tensor1d([1, -1]),
  };
});

afterAll(() => tf.dispose([batch.tokens, batch.completionMask, batch.advantages]));

/** Adam, then `value` written into weight 5 of the policy: a fault after the step, as a broken optimiser would leave it. */
function poisoningAdam(p: BigramPolicy, value: number): GradientApplier & { dispose(): void } {
  const adam: tf.Optimizer = tf.train.adam(0.01);
  return {
    applyGradients(grads: tf.NamedTensorMap) {
      adam.applyGradients(grads);
      const w = [...p.W.dataSync()];
      w[5] = value;
      tf.tidy(() => p.W.assign(tf.tensor2d(w, [V, V])));
    },
    dispose: () => adam.dispose(),
  };
}

describe('firstNonFinite', () => {
  const ok = { losses: [0.5, 0.4], gradNorms: [1, 2], weightSums: [3, 3] };

  it('names how a number is not finite', () => {
    expect([NaN, Infinity, -Infinity, 0, 1e38].map(nonFiniteValue)).toEqual(['NaN', 'Infinity', '-Infinity', null, null]);
  });

  it('is null when every loss, gradient norm and weight sum is finite', () => {
    expect(firstNonFinite(ok)).toBeNull();
  });

  it('takes the quantities in causal order: loss, then gradient, then the weights written from it', () => {
    expect(firstNonFinite({ ...ok, losses: [NaN, NaN], gradNorms: [NaN, NaN], weightSums: [NaN, NaN] })).toEqual({ quantity: 'loss', value: 'NaN', update: 0 });
    expect(firstNonFinite({ ...ok, gradNorms: [Infinity, NaN], weightSums: [NaN, NaN] })).toEqual({ quantity: 'gradient', value: 'Infinity', update: 0 });
    expect(firstNonFinite({ ...ok, weightSums: [-Infinity, NaN] })).toEqual({ quantity: 'weight', value: '-Infinity', update: 0 });
  });

  it('takes the updates of a batch in order: weights broken by update 0 come before the loss of update 1', () => {
    expect(firstNonFinite({ losses: [0.5, NaN], gradNorms: [1, NaN], weightSums: [NaN, NaN] })).toEqual({ quantity: 'weight', value: 'NaN', update: 0 });
    expect(firstNonFinite({ losses: [0.5, NaN], gradNorms: [1, NaN], weightSums: [3, NaN] })).toEqual({ quantity: 'loss', value: 'NaN', update: 1 });
  });
});

describe('the update stats catch a blow-up with no readback of their own', () => {
  it('weightSum is the sum of the weights after the step', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.adam(0.01);
    const s = await grpoUpdate(p, opt, batch, opts);
    const after = [...(await p.W.data())];
    expect(s.weightSums).toHaveLength(1);
    expect(s.weightSums[0]).toBeCloseTo(after.reduce((a, b) => a + b, 0), 4);
    expect(firstNonFinite(s)).toBeNull();
    opt.dispose();
    p.dispose();
  });

  it("a weight broken by the step is found as 'weight', with its kind, while loss and gradient are finite", async () => {
    for (const [value, kind] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity']] as const) {
      const p = new BigramPolicy(V, W);
      const opt = poisoningAdam(p, value);
      const s = await grpoUpdate(p, opt, batch, opts);
      expect(Number.isFinite(s.losses[0]) && Number.isFinite(s.gradNorms[0])).toBe(true);
      expect(firstNonFinite(s)).toEqual({ quantity: 'weight', value: kind, update: 0 });
      opt.dispose();
      p.dispose();
    }
  });

  it("a weight that was already NaN makes the loss NaN: 'loss' comes first", async () => {
    const w = [...W];
    w[1] = NaN;
    const p = new BigramPolicy(V, w);
    const opt = tf.train.adam(0.01);
    expect(firstNonFinite(await grpoUpdate(p, opt, batch, opts))).toMatchObject({ quantity: 'loss', value: 'NaN' });
    opt.dispose();
    p.dispose();
  });

  it('one update and its stats, weight check included, read back once', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.adam(0.01);
    const c = installCounters({ gpu: null });
    await grpoUpdate(p, opt, batch, opts);
    const n = c.snapshot();
    c.uninstall();
    expect(n.readbacks).toBe(1);
    opt.dispose();
    p.dispose();
  });

  it('the weight check costs one Sum per variable and one AddN for a stack (K > 1)', () => {
    const vars = [tf.ones([3, 2, 4]), tf.ones([3, 5]), tf.ones([3, 2, 2, 2])];
    const c = installCounters({ gpu: null });
    const s = perModelWeightSum(vars, 3);
    c.uninstall();
    expect(s.shape).toEqual([3]);
    expect([...c.kernelNames()].sort()).toEqual([['AddN', 1], ['Sum', 3]]);
    expect(s.dataSync()[0]).toBe(8 + 5 + 8);
    // A stack of one adds a Reshape to [1]; the update's stats row takes it with one more Reshape to [K, 1].
    const firsts = vars.map((v) => tf.slice(v, 0, 1));
    const c1 = installCounters({ gpu: null });
    const one = perModelWeightSum(firsts, 1);
    c1.uninstall();
    expect(c1.snapshot().kernels).toBe(3 + 1 + 1);
    tf.dispose([...vars, ...firsts, s, one]);
  });

  it("each model's sum is its own: NaN, Infinity and -Infinity stay in their model's row", async () => {
    const v = tf.tensor3d([[[1, 2]], [[3, NaN]], [[Infinity, 1]], [[-Infinity, 1]], [[Infinity, -Infinity]]]);
    const s = perModelWeightSum([v], 5);
    expect([...(await s.data())]).toEqual([3, NaN, Infinity, -Infinity, NaN]);
    tf.dispose([v, s]);
  });
});
