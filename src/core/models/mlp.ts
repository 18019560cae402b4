/**
 * An MLP over a fixed window of previous tokens (Bengio et al. 2003's neural probabilistic LM):
 *
 *   ctx_t  = [e(tok_{t-W+1}), ..., e(tok_t)]          W embeddings side by side, PAD before the start
 *   h      = GELU(Linear(ctx_t)), `layers` times      width dModel
 *   logits = head(h)
 *
 * computed with the embedding folded into the first layer (windowOneHot below).
 *
 * It has no notion of absolute position and sees nothing older than W tokens: the cheapest
 * family, and one whose mistakes differ from the transformer's and the GRU's.
 *
 * Shapes: K stacked models, N batch, T time, D = dModel, W = window, V vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { DecodeStep, PolicyConfig } from './policy';
import { PAD_ID } from '../tasks/tokenizer';
import { gelu } from './fusedGelu'; // layers.ts's gelu, bit for bit, in fewer kernels where the backend has them
import { linearK, matMulK, normal, ZEROS } from './layers';
import type { ParamSpec, Params } from './layers';

export const DEFAULT_WINDOW = 6;

/** The parameter list, in the Policy's variable order. */
export function mlpParams(config: PolicyConfig): ParamSpec[] {
  const { vocabSize: V, dModel: D, layers: L } = config;
  const W = config.window ?? DEFAULT_WINDOW;
  // Embedding N(0, 1) and weights N(0, 1/fan_in): pre-activations start ~N(0, 1).
  const specs: ParamSpec[] = [{ name: 'wte', shape: [V, D], init: normal(1) }];
  for (let i = 0; i < L; i++) {
    const fanIn = i === 0 ? W * D : D;
    specs.push(
      { name: `hidden.${i}.w`, shape: [fanIn, D], init: normal(1 / Math.sqrt(fanIn)) },
      { name: `hidden.${i}.b`, shape: [D], init: ZEROS },
    );
  }
  const fanIn = L === 0 ? W * D : D;
  specs.push(
    { name: 'head.w', shape: [fanIn, V], init: normal(1 / Math.sqrt(fanIn)) },
    { name: 'head.b', shape: [V], init: ZEROS },
  );
  return specs;
}

/**
 * The forward pass of K stacked models: tokens int32 [K, N, T] -> logits [K, N, T - from, V] at
 * positions from..T-1 (params carry a leading model axis, layers.ts). Each position needs only its
 * own window, so positions before `from` cost nothing.
 */
export function mlpForward(params: Params, tokens: tf.Tensor3D, config: PolicyConfig, from = 0): tf.Tensor4D {
  const [K, N, T] = tokens.shape;
  const W = config.window ?? DEFAULT_WINDOW;
  // Left-pad the tokens with W-1 PADs so every position has a full window. Window slot k at
  // position t holds token t-(W-1)+k, i.e. padded position t+k: a slice of length T - from
  // starting at from + k (slices of int tokens, no gather). Slot W-1 is the current token.
  const padded = tf.pad(tokens, [[0, 0], [0, 0], [W - 1, 0]], PAD_ID); // [K, N, T+W-1]
  const slots = Array.from({ length: W }, (_, k) => tf.slice(padded, [0, 0, from + k], [K, N, T - from]));
  return mlpHead(params, windowOneHot(tf.stack(slots, 3), config), config) as tf.Tensor4D; // [K, N, T - from, V]
}

/**
 * The window as features: tokens [K, ..., W] -> one-hot [K, ..., W*V], slot by slot, oldest first.
 *
 * The first layer sees the W embeddings side by side, [e(tok_1), ..., e(tok_W)] @ W1. Since
 * e(tok) = onehot(tok) @ wte, that equals [onehot(tok_1), ..., onehot(tok_W)] @ Wf with
 * Wf = [wte @ W1_1; ...; wte @ W1_W] (W1_k: the D rows of W1 that meet slot k): the same function,
 * with an inner dimension of W*V instead of W*D (3.5x fewer multiply-adds here) and no slices of
 * large activations in the forward or backward pass (docs/BENCHMARKS.md).
 */
function windowOneHot(window: tf.Tensor, config: PolicyConfig): tf.Tensor {
  const V = config.vocabSize;
  const hot = tf.cast(tf.oneHot(tf.reshape(window, [-1]), V), 'float32'); // int32 oneHot, then cast (layers.ts embed)
  return tf.reshape(hot, [...window.shape.slice(0, -1), window.shape[window.rank - 1] * V]);
}

/** Wf [K, W*V, Dout]: each window slot's embedding folded into the first layer's weight [K, W*D, Dout]. */
function foldedFirstWeight(params: Params, first: tf.Tensor, config: PolicyConfig): tf.Tensor3D {
  const [K, , Dout] = first.shape;
  const W = config.window ?? DEFAULT_WINDOW;
  const D = config.dModel;
  const V = config.vocabSize;
  // [K, W*D, Dout] -> [K, D, W*Dout]: slot k's block of rows, side by side.
  const bySlot = tf.reshape(tf.transpose(tf.reshape(first, [K, W, D, Dout]), [0, 2, 1, 3]), [K, D, W * Dout]);
  const folded = matMulK(params['wte'] as tf.Tensor3D, bySlot as tf.Tensor3D); // [K, V, W*Dout]
  return tf.reshape(tf.transpose(tf.reshape(folded, [K, V, W, Dout]), [0, 2, 1, 3]), [K, W * V, Dout]) as tf.Tensor3D;
}

/** The hidden layers and the head over the window one-hot [K, ..., W*V] -> logits [K, ..., V]. */
function mlpHead(params: Params, windowHot: tf.Tensor, config: PolicyConfig): tf.Tensor {
  const L = config.layers;
  const firstName = L > 0 ? 'hidden.0' : 'head';
  let x = linearK(windowHot, foldedFirstWeight(params, params[`${firstName}.w`], config), params[`${firstName}.b`]);
  if (L === 0) return x;
  x = gelu(x); // [K, ..., D]
  for (let i = 1; i < L; i++) {
    x = gelu(linearK(x, params[`hidden.${i}.w`], params[`hidden.${i}.b`])); // [K, ..., D]
  }
  return linearK(x, params['head.w'], params['head.b']);
}

/**
 * Incremental decoding. The MLP sees only the last W tokens, so the state is that window
 * [K, N, W] (oldest first) and each new token costs one position, not the whole sequence.
 */
export function mlpPrefill(params: Params, prompt: tf.Tensor3D, config: PolicyConfig): DecodeStep {
  const [K, N, P] = prompt.shape;
  const W = config.window ?? DEFAULT_WINDOW;
  const padded = tf.pad(prompt, [[0, 0], [0, 0], [W - 1, 0]], PAD_ID); // [K, N, P+W-1]
  const window = tf.slice(padded, [0, 0, P - 1], [K, N, W]) as tf.Tensor3D;
  return { logits: mlpWindowLogits(params, window, config), state: [window] };
}

export function mlpDecode(params: Params, state: tf.Tensor[], token: tf.Tensor2D, _pos: number, config: PolicyConfig): DecodeStep {
  const [K, N] = token.shape;
  const W = config.window ?? DEFAULT_WINDOW;
  const [window] = state;
  const shifted = tf.concat([tf.slice(window, [0, 0, 1], [K, N, W - 1]), tf.reshape(token, [K, N, 1])], 2) as tf.Tensor3D;
  return { logits: mlpWindowLogits(params, shifted, config), state: [shifted] };
}

/** Logits [K, N, V] of the next token after a window of tokens [K, N, W]. */
function mlpWindowLogits(params: Params, window: tf.Tensor3D, config: PolicyConfig): tf.Tensor3D {
  return mlpHead(params, windowOneHot(window, config), config) as tf.Tensor3D;
}
