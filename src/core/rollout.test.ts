import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { Rng } from './random';
import { sampleRollouts } from './rollout';
import { constantPolicy, bigramPolicy, useBackend } from './testing/fixed-policy';
import { digitsumTask } from './tasks/digitsum';
import { EOS_ID, VOCAB_SIZE, encode, encodePrompt } from './tasks/tokenizer';

const V = VOCAB_SIZE;
const id = (ch: string) => encode(ch)[0];

/** Logits that put almost all mass on the given tokens (others at -30). */
function peaked(weights: Record<string, number>): number[] {
  const row = new Array(V).fill(-30);
  for (const [ch, w] of Object.entries(weights)) row[ch === '$' ? EOS_ID : id(ch)] = w;
  return row;
}

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`sampleRollouts on ${backend}`, () => {
    beforeAll(() => useBackend(backend));
    const prompt = encodePrompt('1+2+3+4=');

    it('returns every array with the documented shape', async () => {
      const policy = constantPolicy(peaked({ '5': 0, '$': 0 }));
      const b = await sampleRollouts(policy, [prompt, prompt, prompt], digitsumTask, 4, {
        groupSize: 4,
        temperature: 1,
        maxNewTokens: 6,
        rng: new Rng(1, 'test'),
      });
      expect(b.numPrompts).toBe(3);
      expect(b.sequences.length).toBe(12 * (prompt.length + 6));
      expect(b.completionTokens.length).toBe(12 * 6);
      for (const arr of [b.logProbs, b.entropies, b.certainties]) expect(arr.length).toBe(72);
      expect(b.lengths.length).toBe(12);
      expect(b.answers.length).toBe(12);
      policy.dispose();
    });

    it('stops a row at EOS, pads after it, and flags rows that hit the cap', async () => {
      // Bigram: after '=' emit '>', after '>' emit '7', after '7' emit EOS => ">7$" (answer 7).
      const table = Array.from({ length: V }, () => peaked({ '9': 0 }));
      table[id('=')] = peaked({ '>': 0 });
      table[id('>')] = peaked({ '7': 0 });
      table[id('7')] = peaked({ '$': 0 });
      const policy = bigramPolicy(table);
      const b = await sampleRollouts(policy, [prompt], digitsumTask, 4, {
        groupSize: 2, temperature: 1, maxNewTokens: 5, rng: new Rng(2),
      });
      expect(Array.from(b.lengths)).toEqual([3, 3]);
      expect(Array.from(b.finished)).toEqual([1, 1]);
      expect(b.answers).toEqual(['7', '7']);
      expect(b.completions).toEqual(['>7', '>7']);
      expect(Array.from(b.completionTokens.subarray(0, 5))).toEqual([id('>'), id('7'), EOS_ID, 0, 0]);
      // Past the end nothing is counted: zero log-prob and entropy.
      expect(b.logProbs[3]).toBe(0);
      expect(b.entropies[4]).toBe(0);
      // A policy that never emits EOS hits the cap: length L, unfinished, no answer.
      const babbler = constantPolicy(peaked({ '9': 0 }));
      const c = await sampleRollouts(babbler, [prompt], digitsumTask, 4, {
        groupSize: 2, temperature: 1, maxNewTokens: 5, rng: new Rng(2),
      });
      expect(Array.from(c.lengths)).toEqual([5, 5]);
      expect(Array.from(c.finished)).toEqual([0, 0]);
      expect(c.answers).toEqual([null, null]);
      policy.dispose();
      babbler.dispose();
    });

    it('is deterministic for a seed and differs across seeds', async () => {
      const policy = constantPolicy(peaked({ '1': 0, '2': 0, '3': 0, '>': 0, '$': 0 }));
      const run = (seed: number) =>
        sampleRollouts(policy, [prompt, prompt], digitsumTask, 4, {
          groupSize: 8, temperature: 1, maxNewTokens: 8, rng: new Rng(seed, 'sample'),
        });
      const [a, b, c] = [await run(7), await run(7), await run(8)];
      expect(Array.from(a.completionTokens)).toEqual(Array.from(b.completionTokens));
      expect(Array.from(a.logProbs)).toEqual(Array.from(b.logProbs));
      expect(Array.from(a.completionTokens)).not.toEqual(Array.from(c.completionTokens));
      policy.dispose();
    });

    it('draws tokens with the softmax(logits / T) frequencies (Gumbel-max)', async () => {
      // p = softmax([log 0.5, log 0.3, log 0.2]) at T = 1; at T = 2 p is proportional to sqrt(p).
      const logits = peaked({ '1': Math.log(0.5), '2': Math.log(0.3), '3': Math.log(0.2) });
      const policy = constantPolicy(logits);
      for (const T of [1, 2]) {
        const raw = [0.5, 0.3, 0.2].map((p) => p ** (1 / T));
        const z = raw.reduce((s, x) => s + x, 0);
        const expected = raw.map((x) => x / z);
        const n = 2000;
        const b = await sampleRollouts(policy, [prompt], digitsumTask, 4, {
          groupSize: n, temperature: T, maxNewTokens: 1, rng: new Rng(11, `freq/${T}`),
        });
        const first = Array.from(b.completionTokens);
        ['1', '2', '3'].forEach((ch, k) => {
          const freq = first.filter((t) => t === id(ch)).length / n;
          // 4.5 standard errors: a false failure has probability < 1e-5 per check.
          const se = Math.sqrt((expected[k] * (1 - expected[k])) / n);
          expect(Math.abs(freq - expected[k])).toBeLessThan(4.5 * se);
        });
      }
      policy.dispose();
    });

    it('returns log-probs and entropies equal to a direct computation from the logits', async () => {
      const logits = peaked({ '1': 0.3, '2': -0.4, '>': 1.1, '$': 0.2 });
      const policy = constantPolicy(logits);
      const T = 1.5;
      const b = await sampleRollouts(policy, [prompt], digitsumTask, 4, {
        groupSize: 16, temperature: T, maxNewTokens: 4, rng: new Rng(3),
      });
      const scaled = logits.map((x) => x / T);
      const m = Math.max(...scaled);
      const lse = m + Math.log(scaled.reduce((s, x) => s + Math.exp(x - m), 0));
      const logp = scaled.map((x) => x - lse);
      const entropy = -logp.reduce((s, lp) => s + Math.exp(lp) * lp, 0);
      for (let i = 0; i < 16; i++) {
        for (let t = 0; t < b.lengths[i]; t++) {
          const tok = b.completionTokens[i * 4 + t];
          expect(b.logProbs[i * 4 + t]).toBeCloseTo(logp[tok], 4);
          expect(b.entropies[i * 4 + t]).toBeCloseTo(entropy, 4);
        }
      }
      policy.dispose();
    });

    it('leaves no tensor behind', async () => {
      const policy = constantPolicy(peaked({ '1': 0, '$': 0 }));
      const go = () => sampleRollouts(policy, [prompt], digitsumTask, 4, {
        groupSize: 4, temperature: 1, maxNewTokens: 4, rng: new Rng(5),
      });
      await go();
      const before = tf.memory().numTensors;
      for (let i = 0; i < 5; i++) await go();
      expect(tf.memory().numTensors).toBe(before);
      policy.dispose();
    });
  });
}
