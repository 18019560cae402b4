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
 * Shapes: K stacked models, N batch, T time, H = dModel (also the embedding width), V vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { DecodeStep, PolicyConfig } from './policy';
import { embedK, linearK, normal, tanh, ZEROS } from './layers';
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

/** K stacked models: tokens int32 [K, N, T] -> logits [K, N, T - from, V] at positions from..T-1. */
export function gruForward(params: Params, tokens: tf.Tensor3D, config: PolicyConfig, from = 0): tf.Tensor4D {
  const [K, N, T] = tokens.shape;
  const H = config.dModel;
  let x: tf.Tensor = embedK(tokens, params['wte']); // [K, N, T, H]

  for (let i = 0; i < config.layers; i++) {
    const p = layer(params, i);
    // The input half of every gate for all T steps in one matMul; only h @ wh is sequential.
    const xg = linearK(x, p('wi'), p('bi')); // [K, N, T, 3H]
    const steps = tf.split(xg, T, 2); // T x [K, N, 1, 3H]
    let h: tf.Tensor = tf.zeros([K, N, H]);
    const hs: tf.Tensor[] = [];
    for (let t = 0; t < T; t++) {
      h = gruCell(tf.reshape(steps[t], [K, N, 3 * H]), h, p);
      hs.push(h);
    }
    x = tf.stack(hs, 2); // [K, N, T, H]: the next layer's input
  }

  if (from > 0) x = tf.slice(x, [0, 0, from, 0], [K, N, T - from, H]);
  return linearK(x, params['head.w'], params['head.b']) as tf.Tensor4D; // [K, N, T - from, V]
}

const layer = (params: Params, i: number) => (name: string) => params[`gru.${i}.${name}`];

/** One GRU step: the input part of the gates xg [K, N, 3H] and the state h [K, N, H] -> h'. */
function gruCell(xg: tf.Tensor, h: tf.Tensor, p: (name: string) => tf.Tensor): tf.Tensor {
  const [xr, xz, xn] = tf.split(xg, 3, 2); // 3 x [K, N, H]
  const [hr, hz, hn] = tf.split(linearK(h, p('wh'), p('bh')), 3, 2); // 3 x [K, N, H]
  const r = tf.sigmoid(tf.add(xr, hr));
  const z = tf.sigmoid(tf.add(xz, hz));
  const n = tanh(tf.add(xn, tf.mul(r, hn)));
  return tf.add(n, tf.mul(z, tf.sub(h, n))); // = (1 - z) * n + z * h
}

/** Incremental decoding: the state is each layer's hidden state [K, N, H] after the last token. */
export function gruPrefill(params: Params, prompt: tf.Tensor3D, config: PolicyConfig): DecodeStep {
  const [K, N, P] = prompt.shape;
  const H = config.dModel;
  let x: tf.Tensor = embedK(prompt, params['wte']); // [K, N, P, H]
  const state: tf.Tensor[] = [];
  for (let i = 0; i < config.layers; i++) {
    const p = layer(params, i);
    const steps = tf.split(linearK(x, p('wi'), p('bi')), P, 2); // P x [K, N, 1, 3H]
    let h: tf.Tensor = tf.zeros([K, N, H]);
    const hs: tf.Tensor[] = [];
    for (let t = 0; t < P; t++) {
      h = gruCell(tf.reshape(steps[t], [K, N, 3 * H]), h, p);
      hs.push(h);
    }
    state.push(h);
    x = tf.stack(hs, 2);
  }
  return { logits: linearK(state[state.length - 1], params['head.w'], params['head.b']) as tf.Tensor3D, state };
}

export function gruDecode(params: Params, state: tf.Tensor[], token: tf.Tensor2D, _pos: number, config: PolicyConfig): DecodeStep {
  let x: tf.Tensor = embedK(token, params['wte']); // [K, N, H]
  const next: tf.Tensor[] = [];
  for (let i = 0; i < config.layers; i++) {
    const p = layer(params, i);
    x = gruCell(linearK(x, p('wi'), p('bi')), state[i], p);
    next.push(x);
  }
  return { logits: linearK(x, params['head.w'], params['head.b']) as tf.Tensor3D, state: next };
}
