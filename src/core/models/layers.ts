/**
 * Small building blocks shared by the model families.
 *
 * Everything here uses only ops whose gradients exist on cpu, wasm, webgl and webgpu
 * (docs/TFJS-AND-BROWSER.md): no gather, no stridedSlice, no bandPart, no tf.layers. Shapes use
 * N = batch, T = time, D = width, V = vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import { hasStackMatMul, stackMatMul } from './stackMatMul';

/** A family's parameters, keyed by local name (e.g. 'blocks.0.attn.wq'). */
export type Params = Record<string, tf.Tensor>;

/** How one parameter is initialised. */
export type Init = { kind: 'normal'; std: number } | { kind: 'zeros' } | { kind: 'ones' };

/**
 * A parameter's description: each family lists its parameters (name, shape, init) in a fixed
 * order, and the Policy turns the list into tf.Variables. Shapes alone give the param count.
 */
export interface ParamSpec {
  name: string;
  shape: number[];
  init: Init;
}

export const normal = (std: number): Init => ({ kind: 'normal', std });
export const ZEROS: Init = { kind: 'zeros' };
export const ONES: Init = { kind: 'ones' };

export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

// ---- seeded initialisation -------------------------------------------------------------------

/** A named variable of normals N(0, std^2) drawn from `rng` (seeded: same stream, same values). */
export function initNormal(rng: Rng, shape: number[], std: number, name: string): tf.Variable {
  return variableFrom(rng.normals(sizeOf(shape), std), shape, name);
}

export function zeros(shape: number[], name: string): tf.Variable {
  return variableFrom(new Float32Array(sizeOf(shape)), shape, name);
}

export function ones(shape: number[], name: string): tf.Variable {
  return variableFrom(new Float32Array(sizeOf(shape)).fill(1), shape, name);
}

/** The variable for a spec. `rng` is used only by a 'normal' init. */
export function initParam(spec: ParamSpec, rng: Rng, name: string): tf.Variable {
  return variableFrom(initialValues(spec, rng), spec.shape, name);
}

/** A spec's initial values (a fresh array). `rng` is used only by a 'normal' init. */
export function initialValues(spec: ParamSpec, rng: Rng): Float32Array {
  const { shape, init } = spec;
  if (init.kind === 'normal') return rng.normals(sizeOf(shape), init.std);
  return new Float32Array(sizeOf(shape)).fill(init.kind === 'ones' ? 1 : 0);
}

/** A trainable float32 variable holding a copy of `values`. */
export function variableFrom(values: Float32Array, shape: number[], name: string): tf.Variable {
  // tf.tensor keeps a reference to the array on the cpu backend, so copy: the caller may reuse it.
  const t = tf.tensor(Float32Array.from(values), shape, 'float32');
  const v = tf.variable(t, true, name);
  t.dispose(); // the variable holds its own reference to the data
  return v;
}

// ---- layers ----------------------------------------------------------------------------------

/** CPU backends: where some tfjs kernels take slow paths that a formulation can avoid (docs/BENCHMARKS.md). */
const CPU_BACKENDS = new Set(['wasm', 'cpu']);

/** Is tfjs on a CPU backend (wasm, cpu), where a kernel costs its arithmetic and no dispatch? */
export function onCpuBackend(): boolean {
  return CPU_BACKENDS.has(tf.getBackend());
}

/** x [..., Din] @ w [Din, Dout] + b [Dout] -> [..., Dout]. Flattens leading axes to one matMul. */
export function linear(x: tf.Tensor, w: tf.Tensor, b?: tf.Tensor): tf.Tensor {
  const din = x.shape[x.rank - 1];
  const lead = x.shape.slice(0, -1);
  let y: tf.Tensor = tf.matMul(tf.reshape(x, [-1, din]) as tf.Tensor2D, w as tf.Tensor2D);
  if (b) y = tf.add(y, b);
  return tf.reshape(y, [...lead, w.shape[1] as number]);
}

/** Layer norm over the last axis (Ba et al. 2016), via moments + rsqrt. x [..., D]. */
export function layerNorm(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  const xhat = tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, eps)));
  return tf.add(tf.mul(xhat, gain), bias);
}

const GELU_C = Math.sqrt(2 / Math.PI);

/**
 * GELU, tanh approximation (Hendrycks & Gimpel 2016), as in GPT-2:
 * 0.5 x (1 + tanh(u)) with u = sqrt(2/pi) (x + 0.044715 x^3), written as x * sigmoid(2u)
 * (the same function, since 1 + tanh(u) = 2 sigmoid(2u)): fewer ops, and tfjs-wasm's Tanh is ~25x
 * slower than its Sigmoid (measured, docs/BENCHMARKS.md).
 */
export function gelu(x: tf.Tensor): tf.Tensor {
  const cube = tf.mul(tf.mul(x, x), x); // not tf.pow: its gradient also takes log(x) for the exponent
  const twoU = tf.mul(tf.add(x, tf.mul(cube, 0.044715)), 2 * GELU_C);
  return tf.mul(x, tf.sigmoid(twoU));
}

/** tanh; on CPU backends as 2 sigmoid(2x) - 1 (the same function; tfjs-wasm's Tanh is ~25x slower). */
export function tanh(x: tf.Tensor): tf.Tensor {
  if (!CPU_BACKENDS.has(tf.getBackend())) return tf.tanh(x);
  return tf.sub(tf.mul(tf.sigmoid(tf.mul(x, 2)), 2), 1);
}

/**
 * Embedding lookup as oneHot(tokens) @ table: tokens int32 [N, T], table [V, D] -> [N, T, D].
 * Not tf.gather: its gradient needs UnsortedSegmentSum, which wasm lacks (tfjs #8082).
 * A token id outside [0, V) embeds as zeros (no error: checking would need a readback).
 */
export function embed(tokens: tf.Tensor2D, table: tf.Tensor): tf.Tensor3D {
  const [n, t] = tokens.shape;
  const [v, d] = table.shape;
  // int32 oneHot, then cast: on wasm (tfjs 4.22) oneHot's dtype argument is ignored and the int
  // bits come back labelled float32 (1 reads as 1.4e-45), so oneHot(.., 'float32') is wrong there
  // (docs/TFJS-AND-BROWSER.md).
  const hot = tf.cast(tf.oneHot(tf.reshape(tokens, [-1]), v), 'float32') as tf.Tensor2D; // [N*T, V]
  return tf.reshape(tf.matMul(hot, table as tf.Tensor2D), [n, t, d]);
}

// ---- causal mask -----------------------------------------------------------------------------

// One cache per backend instance: a backend re-created after a lost device starts a fresh cache.
const maskCache = new WeakMap<tf.KernelBackend, Map<number, tf.Tensor2D>>();

/**
 * Additive causal mask [T, T]: 0 where key j <= query i, -1e9 above the diagonal. Built once per
 * (backend, T) and kept: a constant needs no gradient, and bandPart's gradient fails (docs/TFJS-AND-BROWSER.md).
 * -1e9 rather than -Infinity so that no 0 * inf can turn into NaN anywhere in the backward pass.
 */
export function causalMask(t: number): tf.Tensor2D {
  const backend = tf.backend();
  let cache = maskCache.get(backend);
  if (!cache) maskCache.set(backend, (cache = new Map()));
  const cached = cache.get(t);
  if (cached && !cached.isDisposed) return cached;
  const values = new Float32Array(t * t);
  for (let i = 0; i < t; i++) for (let j = i + 1; j < t; j++) values[i * t + j] = -1e9;
  const mask = tf.keep(tf.tensor2d(values, [t, t]));
  cache.set(t, mask);
  return mask;
}

// ---- stacked layers: K same-shape models on a leading model axis ------------------------------
//
// A stack holds every parameter with a leading axis of K models (PyTorch's stack_module_state):
// weight [K, Din, Dout], bias [K, Dout], embedding [K, V, D]. Activations carry the same leading
// axis, so one op serves all K models and each model still sees only its own weights.


/**
 * a [M, Din] @ b [Din, Dout] whose gradients are plain matMuls of explicit transposes:
 * dA = dY @ b^T, dB = a^T @ dY. tfjs's own gradient asks matMul for transposeA / transposeB,
 * which tfjs-wasm 4.22 runs through a generic loop 10-30x slower than its XNNPACK path for these
 * shapes (measured: a^T @ dY at 896 x 384 x 64 took 68 ms, transpose + matMul 4.6 ms).
 */
const matMulPlainGrad = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
  const [a, b, save] = args as [tf.Tensor2D, tf.Tensor2D, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [sa, sb] = saved as [tf.Tensor2D, tf.Tensor2D];
      return [tf.matMul(dy as tf.Tensor2D, tf.transpose(sb)), tf.matMul(tf.transpose(sa), dy as tf.Tensor2D)];
    },
  };
}) as (a: tf.Tensor2D, b: tf.Tensor2D) => tf.Tensor2D;

/** a [M, Din] @ b [Din, Dout], with the fast gradient on CPU backends. */
export function matMul2D(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  return CPU_BACKENDS.has(tf.getBackend()) ? matMulPlainGrad(a, b) : tf.matMul(a, b);
}

/**
 * x [K, M, Din] @ w [K, Din, Dout] -> [K, M, Dout]: model k multiplies by its own weight.
 * GPU backends: one batched matMul for all K (one dispatch). CPU backends: tfjs-wasm 4.22 runs a
 * batched matMul through a generic loop about 10x slower than its 2-D XNNPACK path (npm run
 * bench:ops, docs/BENCHMARKS.md), so the stack is split on the model axis (contiguous blocks,
 * which the lab's wasm Slice reads in place) and each model takes the plain 2-D matMul. Only the
 * matMul goes model by model; every other op of the stack stays one kernel for all K.
 */
export function matMulK(x: tf.Tensor3D, w: tf.Tensor3D): tf.Tensor3D {
  const [K, M, din] = x.shape;
  const dout = w.shape[2];
  if (K === 1) return tf.reshape(matMul2D(tf.reshape(x, [M, din]) as tf.Tensor2D, tf.reshape(w, [din, dout]) as tf.Tensor2D), [1, M, dout]);
  if (!CPU_BACKENDS.has(tf.getBackend())) return tf.matMul(x, w);
  // wasm: the same per-model products and gradients as below, in one kernel (stackMatMul.ts).
  if (hasStackMatMul()) return stackMatMul(x, w);
  // Unstack and stack (wasm's in-place Unpack; Pack) rather than split, reshape and concat: the
  // same copies with a third of the engine's kernel calls (each costs its tape bookkeeping).
  const ws = tf.unstack(w) as tf.Tensor2D[];
  return tf.stack(tf.unstack(x).map((xk, k) => matMul2D(xk as tf.Tensor2D, ws[k]))) as tf.Tensor3D;
}

/** Reshape a per-model vector parameter [K, D] so it broadcasts over x [K, ..., D]. */
function perModel(p: tf.Tensor, rank: number): tf.Tensor {
  const [K, D] = p.shape;
  if (K === 1) return tf.reshape(p, [D]); // plain broadcasting: the single-model ops exactly
  return tf.reshape(p, [K, ...new Array<number>(rank - 2).fill(1), D]);
}

/** x [K, ..., Din] @ w [K, Din, Dout] + b [K, Dout] -> [K, ..., Dout]. */
export function linearK(x: tf.Tensor, w: tf.Tensor, b?: tf.Tensor): tf.Tensor {
  const K = x.shape[0];
  const din = x.shape[x.rank - 1];
  const mid = x.shape.slice(1, -1);
  const dout = w.shape[2] as number;
  let y: tf.Tensor = matMulK(tf.reshape(x, [K, -1, din]) as tf.Tensor3D, w as tf.Tensor3D); // [K, M, Dout]
  if (b) y = tf.add(y, perModel(b, 3));
  return tf.reshape(y, [K, ...mid, dout]);
}

/** Layer norm over the last axis with per-model gain and bias [K, D]. x [K, ..., D]. */
export function layerNormK(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor, eps = 1e-5): tf.Tensor {
  return layerNorm(x, perModel(gain, x.rank), perModel(bias, x.rank), eps);
}

/** Embedding per model: tokens int32 [K, ...], table [K, V, D] -> [K, ..., D] (oneHot @ table, no gather). */
export function embedK(tokens: tf.Tensor, table: tf.Tensor): tf.Tensor {
  const K = tokens.shape[0];
  const [, v, d] = table.shape as [number, number, number];
  // int32 oneHot, then cast (see embed: wasm ignores oneHot's dtype argument).
  const hot = tf.cast(tf.oneHot(tf.reshape(tokens, [-1]), v), 'float32'); // [K*M, V]
  const y = matMulK(tf.reshape(hot, [K, -1, v]) as tf.Tensor3D, table as tf.Tensor3D); // [K, M, D]
  return tf.reshape(y, [...tokens.shape, d]);
}
