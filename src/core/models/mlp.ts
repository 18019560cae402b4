/**
 * An MLP over a fixed window of previous tokens (Bengio et al. 2003's neural probabilistic LM):
 *
 *   ctx_t  = [e(tok_{t-W+1}), ..., e(tok_t)]          W embeddings side by side, PAD before the start
 *   h      = GELU(Linear(ctx_t)), `layers` times      width dModel
 *   logits = head(h)
 *
 * It has no notion of absolute position and sees nothing older than W tokens: the cheapest
 * family, and one whose mistakes differ from the transformer's and the GRU's.
 *
 * Shapes: N batch, T time, D = dModel, W = window, V vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { PolicyConfig } from './policy';
import { PAD_ID } from '../tasks/tokenizer';
import { embed, gelu, linear, normal, ZEROS } from './layers';
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

/** tokens int32 [N, T] -> logits [N, T, V]. */
export function mlpForward(params: Params, tokens: tf.Tensor2D, config: PolicyConfig): tf.Tensor3D {
  const [N, T] = tokens.shape;
  const D = config.dModel;
  const W = config.window ?? DEFAULT_WINDOW;

  // Left-pad the tokens with W-1 PADs so every position has a full window, then embed once.
  const padded = tf.pad(tokens, [[0, 0], [W - 1, 0]], PAD_ID) as tf.Tensor2D; // [N, T+W-1]
  const e = embed(padded, params['wte']); // [N, T+W-1, D]
  // Window slot k at position t holds token t-(W-1)+k, i.e. padded position t+k: a slice of
  // length T starting at k. Slot W-1 is the current token. (slice + concat, no gather.)
  const slots = Array.from({ length: W }, (_, k) => tf.slice(e, [0, k, 0], [N, T, D]));
  let x: tf.Tensor = tf.concat(slots, 2); // [N, T, W*D], oldest token first

  for (let i = 0; i < config.layers; i++) {
    x = gelu(linear(x, params[`hidden.${i}.w`], params[`hidden.${i}.b`])); // [N, T, D]
  }
  return linear(x, params['head.w'], params['head.b']) as tf.Tensor3D; // [N, T, V]
}
