/**
 * A bigram Policy for tests: logits[n, t, :] = W[tokens[n, t], :], with one trainable V x V matrix.
 * Every expected value (log-probs, entropies, losses) is then computable by hand from W.
 */
import * as tf from '@tensorflow/tfjs';
import type { NamedWeight, Policy, PolicyConfig } from '../models/policy';

let instances = 0;

export class BigramPolicy implements Policy {
  readonly config: PolicyConfig;
  readonly variables: tf.Variable[];
  readonly W: tf.Variable;

  /** w: V x V row-major (row = current token, column = next-token logit). */
  constructor(readonly V: number, w: ArrayLike<number>) {
    this.config = { family: 'mlp', vocabSize: V, maxLen: 64, dModel: V, layers: 0, window: 1 };
    this.W = tf.variable(tf.tensor2d(Array.from(w), [V, V]), true, `bigram${instances++}/W`);
    this.variables = [this.W];
  }

  logits(tokens: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => {
      const [N, T] = tokens.shape;
      const x = tf.oneHot(tf.reshape(tokens, [N * T]), this.V).toFloat(); // [N*T, V]
      return tf.reshape(tf.matMul(x, this.W), [N, T, this.V]) as tf.Tensor3D;
    });
  }

  paramCount(): number {
    return this.V * this.V;
  }

  async exportWeights(): Promise<NamedWeight[]> {
    return [{ name: 'W', shape: [this.V, this.V], values: (await this.W.data()) as Float32Array }];
  }

  importWeights(weights: NamedWeight[]): void {
    const w = weights.find((x) => x.name === 'W');
    if (!w || w.shape[0] !== this.V || w.shape[1] !== this.V) throw new Error('bigram: bad weights');
    tf.tidy(() => this.W.assign(tf.tensor2d(w.values, [this.V, this.V])));
  }

  clone(): BigramPolicy {
    const p = new BigramPolicy(this.V, new Float32Array(this.V * this.V));
    p.W.assign(this.W);
    return p;
  }

  dispose(): void {
    this.W.dispose();
  }
}

/** log softmax of a plain array, in float64. */
export function logSoftmax(z: number[]): number[] {
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((s, x) => s + Math.exp(x - m), 0));
  return z.map((x) => x - lse);
}
