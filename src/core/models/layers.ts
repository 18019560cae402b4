/**
 * Small building blocks shared by the model families.
 *
 * Everything here uses only ops whose gradients exist on cpu, wasm, webgl and webgpu
 * (PLATFORM.md): no gather, no stridedSlice, no bandPart, no tf.layers. Shapes use
 * N = batch, T = time, D = width, V = vocabulary.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';

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
  const { shape, init } = spec;
  if (init.kind === 'normal') return initNormal(rng, shape, init.std, name);
  return init.kind === 'zeros' ? zeros(shape, name) : ones(shape, name);
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

/** GELU, tanh approximation (Hendrycks & Gimpel 2016), as in GPT-2. */
export function gelu(x: tf.Tensor): tf.Tensor {
  const cube = tf.mul(tf.mul(x, x), x); // not tf.pow: its gradient also takes log(x) for the exponent
  const inner = tf.mul(tf.add(x, tf.mul(cube, 0.044715)), GELU_C);
  return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
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
  // bits come back labelled float32 (1 reads as 1.4e-45), so oneHot(.., 'float32') is wrong there.
  const hot = tf.cast(tf.oneHot(tf.reshape(tokens, [-1]), v), 'float32') as tf.Tensor2D; // [N*T, V]
  return tf.reshape(tf.matMul(hot, table as tf.Tensor2D), [n, t, d]);
}

// ---- causal mask -----------------------------------------------------------------------------

// One cache per backend instance: a backend re-created after a lost device starts a fresh cache.
const maskCache = new WeakMap<tf.KernelBackend, Map<number, tf.Tensor2D>>();

/**
 * Additive causal mask [T, T]: 0 where key j <= query i, -1e9 above the diagonal. Built once per
 * (backend, T) and kept: a constant needs no gradient, and bandPart's gradient fails (PLATFORM.md).
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
