/**
 * A tiny causal pre-LN transformer, in the style of nanoGPT's model.py (karpathy/nanoGPT).
 *
 *   x = wte[tokens] + wpe[0..T)                     token + learned position embedding
 *   repeat `layers` times:
 *     x = x + attn(ln1(x))                          multi-head causal self-attention
 *     x = x + mlp(ln2(x))                           Linear(D, 4D) -> GELU -> Linear(4D, D)
 *   logits = head(lnf(x))                           untied output projection
 *
 * Shapes: N batch, T time (<= maxLen), D = dModel, H heads, hd = D / H, V vocabulary.
 * The forward pass is a pure function of a parameter record, so the Policy can own the variables
 * and several members' parameters could later be stacked and run as one computation.
 */
import * as tf from '@tensorflow/tfjs';
import type { PolicyConfig } from './policy';
import { causalMask, embed, gelu, layerNorm, linear, normal, ONES, ZEROS } from './layers';
import type { ParamSpec, Params } from './layers';

/** The parameter list, in the Policy's variable order. Init as GPT-2 / nanoGPT. */
export function transformerParams(config: PolicyConfig): ParamSpec[] {
  const { vocabSize: V, maxLen, dModel: D, layers: L } = config;
  const H = config.heads ?? 1;
  if (D % H !== 0) throw new RangeError(`transformer: dModel ${D} is not divisible by heads ${H}`);
  const std = 0.02;
  // Projections that write into the residual stream are scaled down by sqrt(2L) (GPT-2), so the
  // residual's variance does not grow with depth.
  const residStd = std / Math.sqrt(2 * L);
  const specs: ParamSpec[] = [
    { name: 'wte', shape: [V, D], init: normal(std) },
    { name: 'wpe', shape: [maxLen, D], init: normal(std) },
  ];
  for (let i = 0; i < L; i++) {
    const b = `blocks.${i}.`;
    specs.push(
      { name: b + 'ln1.g', shape: [D], init: ONES },
      { name: b + 'ln1.b', shape: [D], init: ZEROS },
      { name: b + 'attn.wq', shape: [D, D], init: normal(std) },
      { name: b + 'attn.bq', shape: [D], init: ZEROS },
      { name: b + 'attn.wk', shape: [D, D], init: normal(std) },
      { name: b + 'attn.bk', shape: [D], init: ZEROS },
      { name: b + 'attn.wv', shape: [D, D], init: normal(std) },
      { name: b + 'attn.bv', shape: [D], init: ZEROS },
      { name: b + 'attn.wo', shape: [D, D], init: normal(residStd) },
      { name: b + 'attn.bo', shape: [D], init: ZEROS },
      { name: b + 'ln2.g', shape: [D], init: ONES },
      { name: b + 'ln2.b', shape: [D], init: ZEROS },
      { name: b + 'mlp.w1', shape: [D, 4 * D], init: normal(std) },
      { name: b + 'mlp.b1', shape: [4 * D], init: ZEROS },
      { name: b + 'mlp.w2', shape: [4 * D, D], init: normal(residStd) },
      { name: b + 'mlp.b2', shape: [D], init: ZEROS },
    );
  }
  specs.push(
    { name: 'lnf.g', shape: [D], init: ONES },
    { name: 'lnf.b', shape: [D], init: ZEROS },
    { name: 'head.w', shape: [D, V], init: normal(std) },
    { name: 'head.b', shape: [V], init: ZEROS },
  );
  return specs;
}

/** tokens int32 [N, T] -> logits [N, T, V]. Position t sees tokens 0..t only. */
export function transformerForward(
  params: Params,
  tokens: tf.Tensor2D,
  config: PolicyConfig,
): tf.Tensor3D {
  const T = tokens.shape[1];
  const D = config.dModel;
  const mask = causalMask(T); // [T, T], 0 on and below the diagonal, -1e9 above

  // wpe[0..T) by slice, not gather (gather's gradient fails on wasm).
  const pos = tf.slice(params['wpe'], [0, 0], [T, D]); // [T, D]
  let x = tf.add(embed(tokens, params['wte']), pos); // [N, T, D]

  for (let i = 0; i < config.layers; i++) {
    const p = (name: string) => params[`blocks.${i}.${name}`];
    const h = layerNorm(x, p('ln1.g'), p('ln1.b'));
    x = tf.add(x, selfAttention(h, p, config.heads ?? 1, mask));
    const m = layerNorm(x, p('ln2.g'), p('ln2.b'));
    x = tf.add(x, linear(gelu(linear(m, p('mlp.w1'), p('mlp.b1'))), p('mlp.w2'), p('mlp.b2')));
  }

  x = layerNorm(x, params['lnf.g'], params['lnf.b']);
  return linear(x, params['head.w'], params['head.b']) as tf.Tensor3D; // [N, T, V]
}

/** Multi-head causal self-attention. x [N, T, D] -> [N, T, D]. */
function selfAttention(
  x: tf.Tensor,
  p: (name: string) => tf.Tensor,
  heads: number,
  mask: tf.Tensor2D,
): tf.Tensor {
  const [N, T, D] = x.shape;
  const hd = D / heads;
  // [N, T, D] -> [N, T, H, hd] -> [N, H, T, hd]: each head attends on its own slice of D.
  const toHeads = (y: tf.Tensor) => tf.transpose(tf.reshape(y, [N, T, heads, hd]), [0, 2, 1, 3]);
  const q = toHeads(linear(x, p('attn.wq'), p('attn.bq')));
  const k = toHeads(linear(x, p('attn.wk'), p('attn.bk')));
  const v = toHeads(linear(x, p('attn.wv'), p('attn.bv')));

  // Scaled dot-product scores, then the additive mask hides the future before the softmax.
  const scores = tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hd)); // [N, H, T, T]
  const att = tf.softmax(tf.add(scores, mask)); // rows sum to 1 over keys j <= i
  const y = tf.matMul(att, v); // [N, H, T, hd]

  // Re-assemble the heads side by side: [N, H, T, hd] -> [N, T, H, hd] -> [N, T, D].
  const merged = tf.reshape(tf.transpose(y, [0, 2, 1, 3]), [N, T, D]);
  return linear(merged, p('attn.wo'), p('attn.bo'));
}
