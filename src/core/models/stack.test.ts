import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { createPolicy, stackOf, ModelStack } from './index';
import type { Family, PolicyConfig } from './index';
import { sampleRollouts, sampleStack } from '../rollout';
import { digitsumTask } from '../tasks/digitsum';
import { VOCAB_SIZE, encodePrompt } from '../tasks/tokenizer';

const CONFIGS: Record<Family, PolicyConfig> = {
  transformer: { family: 'transformer', vocabSize: VOCAB_SIZE, maxLen: 16, dModel: 16, layers: 2, heads: 2 },
  gru: { family: 'gru', vocabSize: VOCAB_SIZE, maxLen: 16, dModel: 16, layers: 2 },
  mlp: { family: 'mlp', vocabSize: VOCAB_SIZE, maxLen: 16, dModel: 16, layers: 2, window: 3 },
};

/** Three differently initialised models of one config, alone and as one stack. */
function models(config: PolicyConfig) {
  const singles = [1, 2, 3].map((s) => createPolicy(config, new Rng(s, 'stack-test')));
  const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
  return { singles, stack };
}

function randomTokens(seed: number, K: number, N: number, T: number): number[] {
  const rng = new Rng(seed, 'tokens');
  return Array.from({ length: K * N * T }, () => rng.int(VOCAB_SIZE));
}

for (const backend of ['cpu', 'wasm']) {
  describe(`ModelStack on ${backend}`, () => {
    beforeAll(async () => {
      await tf.setBackend(backend);
      await tf.ready();
    });

    for (const family of Object.keys(CONFIGS) as Family[]) {
      it(`${family}: model k of a stack computes exactly what model k computes alone`, async () => {
        const { singles, stack } = models(CONFIGS[family]);
        const K = 3, N = 4, T = 10;
        const ids = randomTokens(7, K, N, T);
        const stacked = await tf.tidy(() => stack.logits(tf.tensor3d(ids, [K, N, T], 'int32'))).data();
        for (let k = 0; k < K; k++) {
          const alone = await tf.tidy(() => singles[k].logits(tf.tensor2d(ids.slice(k * N * T, (k + 1) * N * T), [N, T], 'int32'))).data();
          const part = stacked.slice(k * alone.length, (k + 1) * alone.length);
          expect(Array.from(part)).toEqual(Array.from(alone));
        }
        tf.dispose([...singles.map((p) => p.variables).flat()]);
        stack.dispose();
      });

      it(`${family}: incremental decoding gives the full pass's logits at every position`, async () => {
        const { singles, stack } = models(CONFIGS[family]);
        const K = 3, N = 4, T = 10, P = 5;
        const ids = randomTokens(8, K, N, T);
        const tokens = tf.tensor3d(ids, [K, N, T], 'int32');
        const fullT = stack.logits(tokens);
        const full = (await fullT.array()) as number[][][][];
        fullT.dispose();
        const prompt = tf.slice(tokens, [0, 0, 0], [K, N, P]) as tf.Tensor3D;
        const warm = stack.prefill(prompt); // builds the cached causal mask for P
        tf.dispose([warm.logits, ...warm.state]);
        const n0 = tf.memory().numTensors;
        let step = stack.prefill(prompt);
        for (let pos = P - 1; pos < T; pos++) {
          const got = (await step.logits.array()) as number[][][];
          for (let k = 0; k < K; k++) for (let n = 0; n < N; n++) {
            got[k][n].forEach((v, j) => expect(v).toBeCloseTo(full[k][n][pos][j], 4));
          }
          if (pos + 1 < T) {
            const token = tf.tidy(() => tf.reshape(tf.slice(tokens, [0, 0, pos + 1], [K, N, 1]), [K, N])) as tf.Tensor2D;
            const next = stack.decode(step.state, token, pos + 1);
            tf.dispose([step.logits, ...step.state, token]);
            step = next;
          }
        }
        tf.dispose([step.logits, ...step.state]);
        expect(tf.memory().numTensors).toBe(n0);
        tf.dispose([tokens, prompt]);
        singles.forEach((p) => p.dispose());
        stack.dispose();
      });
    }

    it('sampleStack: each model samples what it samples alone with its own stream', async () => {
      const { singles, stack } = models(CONFIGS.mlp);
      const prompts = ['1+2+3=', '4+5+6='].map((p) => encodePrompt(p));
      const opts = { groupSize: 3, temperature: 1, maxNewTokens: 6 };
      const rngs = [11, 12, 13].map((s) => new Rng(s, 'sample'));
      const together = await sampleStack(stack, prompts, digitsumTask, 3, { ...opts, rngs });
      for (let k = 0; k < 3; k++) {
        const alone = await sampleRollouts(singles[k], prompts, digitsumTask, 3, { ...opts, rng: new Rng(11 + k, 'sample') });
        expect(Array.from(together[k].completionTokens)).toEqual(Array.from(alone.completionTokens));
        expect(Array.from(together[k].logProbs)).toEqual(Array.from(alone.logProbs));
        expect(together[k].answers).toEqual(alone.answers);
      }
      singles.forEach((p) => p.dispose());
      stack.dispose();
    });

    it('importModel replaces one model and leaves the others', async () => {
      const { singles, stack } = models(CONFIGS.gru);
      const w0 = await singles[0].exportWeights();
      stack.importModel(2, w0);
      const all = await stack.exportAll();
      expect(all[2].map((w) => Array.from(w.values))).toEqual(w0.map((w) => Array.from(w.values)));
      const w1 = await singles[1].exportWeights();
      expect(all[1].map((w) => Array.from(w.values))).toEqual(w1.map((w) => Array.from(w.values)));
      expect(() => stack.importModel(3, w0)).toThrow(/no model 3/);
      expect(() => stack.importModel(0, w0.slice(1))).toThrow(/missing weight/);
      singles.forEach((p) => p.dispose());
      stack.dispose();
    });
  });
}
