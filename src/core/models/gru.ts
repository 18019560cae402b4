/**
 * A GRU language model (Cho et al. 2014), in PyTorch's nn.GRU formulation:
 *
 *   r  = sigmoid(x Wr + br + h Ur + cr)              reset gate
 *   z  = sigmoid(x Wz + bz + h Uz + cz)              update gate
 *   n  = tanh(x Wn + bn + r * (h Un + cn))           candidate state
 *   h' = (1 - z) * n + z * h
 *
 * embedding -> `layers` GRU layers (state starts at zero) -> output projection. The recurrence is
 * unrolled over T with plain matMul / sigmoid / tanh (no tf.layers, no while loop), so it is
 * causal by construction and differentiable on every backend. Each layer's weights for the three
 * gates are stored side by side: wi [Din, 3H], wh [H, 3H] in the order (r, z, n).
 *
 * Shapes: N batch, T time, H = dModel (also the embedding width), V vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { PolicyConfig } from './policy';
import { embed, linear, normal, ZEROS } from './layers';
import type { ParamSpec, Params } from './layers';

/** The parameter list, in the Policy's variable order. */
export function gruParams(config: PolicyConfig): ParamSpec[] {
  const { vocabSize: V, dModel: H, layers: L } = config;
  const fanIn = normal(1 / Math.sqrt(H)); // keeps gate pre-activations ~N(0, 1) at init
  // Embedding N(0, 1) as PyTorch's nn.Embedding: there is no layer norm to rescale the input.
  const specs: ParamSpec[] = [{ name: 'wte', shape: [V, H], init: normal(1) }];
  for (let i = 0; i < L; i++) {
    const g = `gru.${i}.`;
    specs.push(
      { name: g + 'wi', shape: [H, 3 * H], init: fanIn },
      { name: g + 'bi', shape: [3 * H], init: ZEROS },
      { name: g + 'wh', shape: [H, 3 * H], init: fanIn },
      { name: g + 'bh', shape: [3 * H], init: ZEROS },
    );
  }
  specs.push(
    { name: 'head.w', shape: [H, V], init: fanIn },
    { name: 'head.b', shape: [V], init: ZEROS },
  );
  return specs;
}

/** tokens int32 [N, T] -> logits [N, T, V]. */
export function gruForward(params: Params, tokens: tf.Tensor2D, config: PolicyConfig): tf.Tensor3D {
  const [N, T] = tokens.shape;
  const H = config.dModel;
  let x: tf.Tensor = embed(tokens, params['wte']); // [N, T, H]

  for (let i = 0; i < config.layers; i++) {
    const p = (name: string) => params[`gru.${i}.${name}`];
    // The input half of every gate for all T steps in one matMul; only h @ wh is sequential.
    const xg = linear(x, p('wi'), p('bi')); // [N, T, 3H]
    const steps = tf.split(xg, T, 1); // T x [N, 1, 3H]
    let h: tf.Tensor = tf.zeros([N, H]);
    const hs: tf.Tensor[] = [];
    for (let t = 0; t < T; t++) {
      const [xr, xz, xn] = tf.split(tf.reshape(steps[t], [N, 3 * H]), 3, 1); // 3 x [N, H]
      const [hr, hz, hn] = tf.split(linear(h, p('wh'), p('bh')), 3, 1); // 3 x [N, H]
      const r = tf.sigmoid(tf.add(xr, hr));
      const z = tf.sigmoid(tf.add(xz, hz));
      const n = tf.tanh(tf.add(xn, tf.mul(r, hn)));
      h = tf.add(n, tf.mul(z, tf.sub(h, n))); // = (1 - z) * n + z * h
      hs.push(h);
    }
    x = tf.stack(hs, 1); // [N, T, H]: the next layer's input
  }

  return linear(x, params['head.w'], params['head.b']) as tf.Tensor3D; // [N, T, V]
}
