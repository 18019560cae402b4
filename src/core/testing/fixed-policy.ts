/**
 * Test doubles: policies whose next-token distribution is known in closed form, so sampler and
 * loss tests can compare against hand-computed probabilities.
 */
import * as tf from '@tensorflow/tfjs';
import type { NamedWeight, Policy, PolicyConfig } from '../models/policy';

/**
 * A policy whose logits at every position are `table[lastToken]`: a bigram model with a fixed
 * table [V, V]. With a one-row-repeated table it is a fixed distribution at every step.
 */
export function bigramPolicy(table: number[][], maxLen: number): Policy {
  const V = table.length;
  const weights = tf.variable(tf.tensor2d(table), true);
  const config: PolicyConfig = { family: 'mlp', vocabSize: V, maxLen, dModel: V, layers: 1 };
  const policy: Policy = {
    config,
    variables: [weights],
    logits(tokens: tf.Tensor2D): tf.Tensor3D {
      return tf.tidy(() => {
        const [N, T] = tokens.shape;
        const oneHot = tf.reshape(tf.oneHot(tf.reshape(tokens, [N * T]), V), [N * T, V]);
        return tf.reshape(tf.matMul(oneHot, weights), [N, T, V]) as tf.Tensor3D;
      });
    },
    paramCount: () => V * V,
    async exportWeights(): Promise<NamedWeight[]> {
      return [{ name: 'table', shape: [V, V], values: (await weights.data()) as Float32Array }];
    },
    importWeights(w: NamedWeight[]) {
      weights.assign(tf.tensor2d(w[0].values, [V, V]));
    },
    clone: () => bigramPolicy(table, maxLen),
    dispose: () => weights.dispose(),
  };
  return policy;
}

/** Every row the same: the distribution softmax(logits) at every step, whatever came before. */
export function constantPolicy(logits: number[], maxLen: number): Policy {
  return bigramPolicy(
    logits.map(() => logits),
    maxLen,
  );
}

/** Node tests: pick a tfjs backend once per file. */
export async function useBackend(name: 'cpu' | 'wasm'): Promise<void> {
  if (name === 'wasm') await import('@tensorflow/tfjs-backend-wasm');
  const ok = await tf.setBackend(name);
  if (!ok) throw new Error(`tfjs backend ${name} failed to initialise`);
  await tf.ready();
}
