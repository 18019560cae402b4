/**
 * A tiny causal pre-LN transformer, in the style of nanoGPT's model.py (karpathy/nanoGPT).
 *
 *   x = wte[tokens] + wpe[0..T)                     token + learned position embedding
 *   repeat `layers` times:
 *     x = x + attn(ln1(x))                          multi-head causal self-attention
 *     x = x + mlp(ln2(x))                           Linear(D, 4D) -> GELU -> Linear(4D, D)
 *   logits = head(lnf(x))                           untied output projection
 *
 * Shapes: K stacked models, N batch, T time (<= maxLen), D = dModel, H heads, hd = D / H,
 * V vocabulary. The forward pass is a pure function of a parameter record whose tensors carry a
 * leading model axis, so K same-shape members run as one computation.
 */
import * as tf from '@tensorflow/tfjs';
import type { DecodeStep, PolicyConfig } from './policy';
import { causalMask, embedK, linearK, normal, ONES, ZEROS } from './layers';
import { layerNormK } from './fusedLayerNorm'; // layers.ts's, bit for bit, in one kernel where no gradient is recorded
import { gelu } from './fusedGelu'; // layers.ts's gelu, bit for bit, in fewer kernels where the backend has them
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

/**
 * K stacked models: tokens int32 [K, N, T] -> logits [K, N, T - from, V] at positions from..T-1.
 * Position t sees tokens 0..t only.
 */
export function transformerForward(params: Params, tokens: tf.Tensor3D, config: PolicyConfig, from = 0): tf.Tensor4D {
  const [K, N, T] = tokens.shape;
  const x = embedAt(params, tokens, 0, config);
  const mask = causalMask(T); // [T, T], 0 on and below the diagonal, -1e9 above
  const { y } = blocks(params, x, config, (q, k, v) => attend(q, k, v, mask), () => {});
  const kept = from > 0 ? tf.slice(y, [0, 0, from, 0], [K, N, T - from, config.dModel]) : y;
  return transformerHead(params, kept) as tf.Tensor4D; // [K, N, T - from, V]
}

/** Token + position embedding of tokens [K, N, T] that sit at positions start..start+T-1. */
function embedAt(params: Params, tokens: tf.Tensor3D, start: number, config: PolicyConfig): tf.Tensor {
  const [K, , T] = tokens.shape;
  const D = config.dModel;
  // wpe[start..start+T) by slice, not gather (gather's gradient fails on wasm).
  const pos = tf.slice(params['wpe'], [0, start, 0], [K, T, D]); // [K, T, D]
  const posK = K === 1 ? tf.reshape(pos, [T, D]) : tf.reshape(pos, [K, 1, T, D]);
  return tf.add(embedK(tokens, params['wte']), posK); // [K, N, T, D]
}

type Attend = (q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, layer: number) => tf.Tensor;

/**
 * The residual blocks over x [K, N, T, D]. `attend` gets each layer's heads q, k, v as
 * [K*N, H, T, hd]; `onKeys` sees each layer's k and v (the KV cache keeps them).
 */
function blocks(
  params: Params,
  input: tf.Tensor,
  config: PolicyConfig,
  attendFn: Attend,
  onKeys: (layer: number, k: tf.Tensor, v: tf.Tensor) => void,
): { y: tf.Tensor } {
  let x = input;
  const [K, N, T, D] = x.shape;
  const H = config.heads ?? 1;
  const hd = D / H;
  // [K, N, T, D] -> [K*N, T, H, hd] -> [K*N, H, T, hd]: each head attends on its own slice of D.
  const toHeads = (y: tf.Tensor) => tf.transpose(tf.reshape(y, [K * N, T, H, hd]), [0, 2, 1, 3]);
  for (let i = 0; i < config.layers; i++) {
    const p = (name: string) => params[`blocks.${i}.${name}`];
    const h = layerNormK(x, p('ln1.g'), p('ln1.b'));
    const q = toHeads(linearK(h, p('attn.wq'), p('attn.bq')));
    const k = toHeads(linearK(h, p('attn.wk'), p('attn.bk')));
    const v = toHeads(linearK(h, p('attn.wv'), p('attn.bv')));
    onKeys(i, k, v);
    const y = attendFn(q, k, v, i); // [K*N, H, T, hd]
    // Re-assemble the heads side by side: [K*N, H, T, hd] -> [K*N, T, H, hd] -> [K, N, T, D].
    const merged = tf.reshape(tf.transpose(y, [0, 2, 1, 3]), [K, N, T, D]);
    x = tf.add(x, linearK(merged, p('attn.wo'), p('attn.bo')));
    const m = layerNormK(x, p('ln2.g'), p('ln2.b'));
    x = tf.add(x, linearK(gelu(linearK(m, p('mlp.w1'), p('mlp.b1'))), p('mlp.w2'), p('mlp.b2')));
  }
  return { y: x };
}

/** Scaled dot-product attention; `mask` (additive, [Tq, Tk]) hides the future, null = see all keys. */
function attend(q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, mask: tf.Tensor | null): tf.Tensor {
  const hd = q.shape[q.rank - 1];
  const scores = tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hd)); // [K*N, H, Tq, Tk]
  const att = tf.softmax(mask ? tf.add(scores, mask) : scores); // rows sum to 1 over visible keys
  return tf.matMul(att, v); // [K*N, H, Tq, hd]
}

function transformerHead(params: Params, x: tf.Tensor): tf.Tensor {
  const y = layerNormK(x, params['lnf.g'], params['lnf.b']);
  return linearK(y, params['head.w'], params['head.b']);
}

/**
 * Incremental decoding with a KV cache: the state holds every layer's keys and values
 * [K*N, H, t, hd] so far; a new token computes its own q, k, v only and attends over the cache
 * (the cache holds only the past, so no mask is needed).
 */
export function transformerPrefill(params: Params, prompt: tf.Tensor3D, config: PolicyConfig): DecodeStep {
  const [K, N, P] = prompt.shape;
  const cache: tf.Tensor[] = [];
  const mask = causalMask(P);
  const { y } = blocks(params, embedAt(params, prompt, 0, config), config, (q, k, v) => attend(q, k, v, mask), (_, k, v) => {
    cache.push(k, v);
  });
  const last = tf.slice(y, [0, 0, P - 1, 0], [K, N, 1, config.dModel]);
  return { logits: tf.reshape(transformerHead(params, last), [K, N, config.vocabSize]) as tf.Tensor3D, state: cache };
}

export function transformerDecode(params: Params, state: tf.Tensor[], token: tf.Tensor2D, pos: number, config: PolicyConfig): DecodeStep {
  const [K, N] = token.shape;
  const next: tf.Tensor[] = [];
  const x = embedAt(params, tf.reshape(token, [K, N, 1]) as tf.Tensor3D, pos, config); // [K, N, 1, D]
  const { y } = blocks(
    params,
    x,
    config,
    (q, _k, _v, i) => attend(q, next[2 * i], next[2 * i + 1], null),
    (i, k, v) => {
      next.push(tf.concat([state[2 * i], k], 2), tf.concat([state[2 * i + 1], v], 2));
    },
  );
  return { logits: tf.reshape(transformerHead(params, y), [K, N, config.vocabSize]) as tf.Tensor3D, state: next };
}
