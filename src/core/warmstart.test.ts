import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { Rng } from './random';
import { createPolicy } from './models/index';
import { getTask, makeSplit, sequenceLength } from './tasks/index';
import { VOCAB_SIZE, decode } from './tasks/tokenizer';
import { encodeSupervised, referenceProbability, supervisedLoss, warmStart } from './warmstart';
import { sampleRollouts } from './rollout';
import { useBackend } from './testing/fixed-policy';
import { digitsumProblem } from './tasks/digitsum';
import { grpoUpdate } from './grpo/update';
import { Adam } from './adam';

describe('encodeSupervised', () => {
  it('puts the loss on completion tokens only', () => {
    const data = encodeSupervised([digitsumProblem('8397')], 20, 'always', new Rng(1));
    // ^ 8 + 3 + 9 + 7 = | 8 , 1 , 0 > 7 $  : 9 prompt tokens, 8 completion tokens
    expect(decode(data.tokens.subarray(0, 20))).toBe('8+3+9+7=8,1,0>7$');
    const mask = Array.from(data.lossMask.subarray(0, 20)).join('');
    // Position t predicts token t+1: positions 8..15 predict the 8 completion tokens.
    expect(mask).toBe('00000000111111110000');
  });

  it('drops the scratchpad with "never" and mixes with "mixed"', () => {
    const never = encodeSupervised([digitsumProblem('8397')], 20, 'never', new Rng(1));
    expect(decode(never.tokens.subarray(0, 20))).toBe('8+3+9+7=>7$');
    const problems = Array.from({ length: 200 }, () => digitsumProblem('8397'));
    const mixed = encodeSupervised(problems, 20, 'mixed', new Rng(2));
    let withPad = 0;
    for (let i = 0; i < 200; i++) if (decode(mixed.tokens.subarray(i * 20, (i + 1) * 20)).includes(',')) withPad++;
    expect(withPad).toBeGreaterThan(70);
    expect(withPad).toBeLessThan(130);
  });
});

describe('warm start and evaluation on wasm', () => {
  beforeAll(() => useBackend('wasm'));
  // That a warm start lifts each family's pass@1 well above chance is a science check
  // (warmstart.science.test.ts, `npm run science -- --tests`): half a minute of training.
  const task = getTask('reverse');
  const d = 3;
  const split = makeSplit(task, d, new Rng(1, 'split'), { warmStart: 600, rl: 0, heldOut: 40 });
  const maxLen = sequenceLength(task, d) + 1;

  it('stops early when the progress callback says so', async () => {
    const policy = createPolicy({ family: 'mlp', vocabSize: VOCAB_SIZE, maxLen, dModel: 16, layers: 1 }, new Rng(4));
    const r = await warmStart(policy, split.warmStart, {
      steps: 100, batchSize: 8, learningRate: 1e-2, scratchpad: 'always', rng: new Rng(5), reportEvery: 10,
      onProgress: (p) => p.step >= 30,
    });
    expect(r.stoppedEarly).toBe(true);
    expect(r.steps).toBe(30);
    policy.dispose();
  });

  it('referenceProbability is the mean of exp(-per-sequence completion loss)', async () => {
    const policy = createPolicy({ family: 'gru', vocabSize: VOCAB_SIZE, maxLen, dModel: 16, layers: 1 }, new Rng(8));
    const problems = split.heldOut.slice(0, 5);
    const all = encodeSupervised(problems, maxLen, 'always', new Rng(9));
    let expected = 0;
    for (let i = 0; i < problems.length; i++) {
      // One sequence at a time: the mean loss times the completion length is -log p(reference).
      const one = encodeSupervised([problems[i]], maxLen, 'always', new Rng(9));
      const n = one.lossMask.reduce((a, b) => a + b, 0);
      const t = tf.tensor2d(one.tokens, [1, maxLen], 'int32');
      const m = tf.tensor2d(one.lossMask, [1, maxLen]);
      const loss = supervisedLoss(policy, t, m);
      expected += Math.exp(-(await loss.data())[0] * n) / problems.length;
      tf.dispose([t, m, loss]);
    }
    const t = tf.tensor2d(all.tokens, [problems.length, maxLen], 'int32');
    const m = tf.tensor2d(all.lossMask, [problems.length, maxLen]);
    const p = referenceProbability(policy, t, m);
    expect((await p.data())[0]).toBeCloseTo(expected, 6);
    tf.dispose([p, t, m]);
    policy.dispose();
  });

  it('stops at the first step that reaches the validation target, and says when it cannot', async () => {
    const make = () => createPolicy({ family: 'mlp', vocabSize: VOCAB_SIZE, maxLen, dModel: 64, layers: 1, window: 8 }, new Rng(10));
    const validation = split.heldOut;
    const opts = { steps: 400, batchSize: 32, learningRate: 1e-2, scratchpad: 'always' as const, rng: new Rng(11) };
    const a = make();
    const r = await warmStart(a, split.warmStart, { ...opts, target: { validation, value: 0.3 } });
    expect(r.reachedTarget).toBe(true);
    expect(r.stoppedEarly).toBe(true);
    expect(r.steps).toBeLessThan(400);
    expect(r.validation).toHaveLength(r.steps);
    expect(r.validation.at(-1)!.value).toBeGreaterThanOrEqual(0.3);
    expect(r.validation.slice(0, -1).every((v) => v.value < 0.3)).toBe(true);
    // The same training without a target, stopped by hand at that step, gives the same weights.
    const b = make();
    await warmStart(b, split.warmStart, { ...opts, steps: r.steps });
    const same = tf.tidy(() => a.variables.every((v, i) => tf.max(tf.abs(tf.sub(v, b.variables[i]))).dataSync()[0] === 0));
    expect(same).toBe(true);
    // An unreachable target trains every step and reports that it fell short.
    const c = make();
    const short = await warmStart(c, split.warmStart, { ...opts, steps: 5, target: { validation, value: 0.99 } });
    expect(short).toMatchObject({ steps: 5, reachedTarget: false, stoppedEarly: false });
    [a, b, c].forEach((p) => p.dispose());
  }, 120_000);

  it('keeps the tensor count flat over 50 sample+train iterations', async () => {
    // The leak check: the count after 50 iterations equals the count after 5.
    const digitsum = getTask('digitsum');
    const ml = sequenceLength(digitsum, 3) + 2;
    const policy = createPolicy({ family: 'transformer', vocabSize: VOCAB_SIZE, maxLen: ml, dModel: 16, layers: 1, heads: 2 }, new Rng(6));
    const adam = new Adam(policy.variables, { learningRate: 1e-3 });
    const prompts = [[1, 4, 13, 5, 13, 6, 14]];
    const L = ml - 7;
    const iterate = async (i: number) => {
      const r = await sampleRollouts(policy, prompts, digitsum, 3, { groupSize: 4, temperature: 1, maxNewTokens: L, rng: new Rng(7, `i${i}`) });
      const T = r.promptLength + L;
      const mask = new Float32Array(4 * (T - 1));
      for (let k = 0; k < 4; k++) for (let t = 0; t < r.lengths[k]; t++) mask[k * (T - 1) + r.promptLength - 1 + t] = 1;
      const tokens = tf.tensor2d(r.sequences, [4, T], 'int32');
      const cm = tf.tensor2d(mask, [4, T - 1]);
      const adv = tf.tensor1d([1, -1, 0.5, -0.5]);
      await grpoUpdate(policy, adam, { tokens, completionMask: cm, advantages: adv }, {
        temperature: 1, clipEps: 0.2, beta: 0, normalisation: 'grpo', maxCompletionLength: L, maxGradNorm: 1, updatesPerBatch: 1,
      });
      tf.dispose([tokens, cm, adv]);
    };
    let at5 = 0;
    for (let i = 1; i <= 50; i++) {
      await iterate(i);
      if (i === 5) at5 = tf.memory().numTensors;
    }
    expect(tf.memory().numTensors).toBe(at5);
    adam.dispose();
    policy.dispose();
  }, 120_000);
});
