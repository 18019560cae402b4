import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenLogProbs } from './logprobs';
import type { GrpoBatch } from './loss';
import { type GrpoUpdateOptions, addNBound, grpoUpdate, grpoUpdateOnDevice, readUpdateStats } from './update';
import { BigramPolicy } from '../testing/bigram-policy';

const V = 4;
const W = [0.5, -1, 2, 0, 1, 0.3, -0.2, 0.7, -0.4, 1.1, 0, 0.9, 0.2, 0.2, -1.3, 0.6];
let batch: GrpoBatch;

const opts = (o: Partial<GrpoUpdateOptions> = {}): GrpoUpdateOptions => ({
  temperature: 1,
  clipEps: 0.2,
  beta: 0,
  normalisation: 'grpo',
  maxCompletionLength: 4,
  maxGradNorm: 0,
  updatesPerBatch: 1,
  ...o,
});

/** Sum of log pi over the batch's completion tokens. */
async function completionLogProb(p: BigramPolicy): Promise<number> {
  const s = tf.tidy(() => tf.sum(tf.mul(tokenLogProbs(p, batch.tokens), batch.completionMask)));
  const v = (await s.data())[0];
  s.dispose();
  return v;
}

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
  batch = {
    tokens: tf.tensor2d(
      [
        [0, 1, 2, 3],
        [0, 2, 3, 1],
      ],
      [2, 4],
      'int32',
    ),
    completionMask: tf.tensor2d([
      [0, 1, 1],
      [0, 1, 0],
    ]),
    advantages: tf.tensor1d([1, 1]),
  };
});

afterAll(() => tf.dispose([batch.tokens, batch.completionMask, batch.advantages]));

describe('grpoUpdate', () => {
  it('with positive advantages raises the chosen tokens log-prob and lowers the loss (pi_old fixed)', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.adam(0.05);
    const before = await completionLogProb(p);
    const oldLogProbs = tokenLogProbs(p, batch.tokens);
    const losses: number[] = [];
    for (let k = 0; k < 4; k++) losses.push((await grpoUpdate(p, opt, { ...batch, oldLogProbs }, opts())).loss);
    expect(losses[0]).toBeCloseTo(-1, 5); // rho = 1 at the start: -mean(A)
    for (let k = 1; k < 4; k++) expect(losses[k]).toBeLessThan(losses[k - 1]);
    expect(await completionLogProb(p)).toBeGreaterThan(before);
    oldLogProbs.dispose();
    opt.dispose();
    p.dispose();
  });

  it('updatesPerBatch > 1 holds pi_old at the rollout policy: first loss -1, then falling, clipping engages', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.adam(0.2);
    const s = await grpoUpdate(p, opt, batch, opts({ updatesPerBatch: 6 }));
    expect(s.losses).toHaveLength(6);
    expect(s.losses[0]).toBeCloseTo(-1, 5);
    expect(s.losses[5]).toBeLessThan(s.losses[0]);
    // The objective saturates at rho = 1 + eps: the loss cannot go below -1.2.
    expect(Math.min(...s.losses)).toBeGreaterThanOrEqual(-1.2 - 1e-5);
    expect(s.clipFraction).toBeGreaterThan(0);
    expect(s.kl).toBeNull();
    opt.dispose();
    p.dispose();
  });

  it('clips the global gradient norm (SGD step length = lr * maxGradNorm)', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.sgd(1);
    const s = await grpoUpdate(p, opt, batch, opts({ maxGradNorm: 1e-3 }));
    expect(s.gradNorm).toBeGreaterThan(1e-2);
    const after = await p.W.data();
    const step = Math.sqrt(W.reduce((acc, w, i) => acc + (after[i] - w) ** 2, 0));
    expect(step).toBeCloseTo(1e-3, 5);
    opt.dispose();
    p.dispose();
  });

  it('reports the KL to the reference when beta > 0', async () => {
    const p = new BigramPolicy(V, W);
    const ref = p.clone();
    const opt = tf.train.adam(0.1);
    const s1 = await grpoUpdate(p, opt, batch, opts({ beta: 0.04 }), ref);
    expect(s1.kl).toBeCloseTo(0, 6); // identical before the first step
    const s2 = await grpoUpdate(p, opt, batch, opts({ beta: 0.04 }), ref);
    expect(s2.kl!).toBeGreaterThan(0);
    opt.dispose();
    ref.dispose();
    p.dispose();
  });

  it('keeps the tensor count flat: equal after 5 and after 20 updates', async () => {
    const p = new BigramPolicy(V, W);
    const ref = p.clone();
    const opt = tf.train.adam(0.01);
    const o = opts({ beta: 0.04, maxGradNorm: 1, updatesPerBatch: 2, normalisation: 'dr_grpo' });
    const counts: number[] = [];
    for (let k = 1; k <= 20; k++) {
      await grpoUpdate(p, opt, batch, o, ref);
      if (k === 5 || k === 20) counts.push(tf.memory().numTensors);
    }
    expect(counts[1]).toBe(counts[0]);
    // The on-device variant leaves only its stats tensor, which readUpdateStats disposes.
    const dev = grpoUpdateOnDevice(p, opt, batch, o, ref);
    expect(dev.stats.shape).toEqual([2, 7]);
    expect(tf.memory().numTensors).toBe(counts[0] + 1);
    await readUpdateStats(dev);
    expect(tf.memory().numTensors).toBe(counts[0]);
    opt.dispose();
    ref.dispose();
    p.dispose();
  });

  it('rejects bad options', async () => {
    const p = new BigramPolicy(V, W);
    const opt = tf.train.adam(0.01);
    expect(() => grpoUpdateOnDevice(p, opt, batch, opts({ updatesPerBatch: 0 }))).toThrow(RangeError);
    expect(() => grpoUpdateOnDevice(p, opt, batch, opts({ beta: 0.1 }))).toThrow(/refPolicy/);
    opt.dispose();
    p.dispose();
  });
});

describe('addNBound', () => {
  it('sums in AddNs of at most `limit` inputs (a WebGPU shader binds 7 inputs), to the same total', async () => {
    const xs = Array.from({ length: 39 }, (_, i) => tf.tensor1d([i, 2 * i]));
    const widths: number[] = [];
    const engine = tf.engine() as unknown as { runKernel: (name: string, inputs: Record<string, unknown>, attrs?: unknown) => unknown };
    const run = engine.runKernel.bind(engine);
    engine.runKernel = (name, inputs, attrs) => {
      if (name === 'AddN') widths.push(Object.keys(inputs).length);
      return run(name, inputs, attrs);
    };
    try {
      const bound = addNBound(xs, 7);
      expect(Array.from(await bound.data())).toEqual([741, 1482]);
      bound.dispose();
      expect(Math.max(...widths)).toBe(7);
      widths.length = 0;
      const one = addNBound(xs);
      expect(Array.from(await one.data())).toEqual([741, 1482]);
      one.dispose();
      expect(widths).toEqual([39]);
    } finally {
      engine.runKernel = run;
      xs.forEach((x) => x.dispose());
    }
  });
});
