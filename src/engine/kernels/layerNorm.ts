/**
 * LabLayerNorm for the wasm backend (src/core/models/fusedLayerNorm.ts says where it runs):
 * x [K, ..., D], gain and bias [K, D] (model k's rows are the k-th K-th of x's rows) -> y.
 * The float32 steps of layers.ts's layerNorm on tfjs-backend-wasm, in their order:
 *   mean = (x_0 + x_1 + ... + x_{D-1}) / D          tfjs-wasm's Mean: a running sum from 0
 *   var = ((x_0 - mean)^2 + ...) / D                 moments: Sub, Square, Mean
 *   r = rsqrt(var + eps)                             tfjs's own Rsqrt kernel, called here
 *   y = ((x - mean) * r) * gain + bias
 * each rounded to float32. In WebAssembly (layerNorm.wat: the sums scalar, in order; the
 * normalising SIMD along D); where our module cannot be instantiated, the same steps in
 * JavaScript below (Math.fround after each: a double holds each product and sum of two floats
 * exactly before the rounding). JavaScript alone measured 19 ms a `peers-teach` step for 70
 * calls, about what the kernels it replaces cost; WebAssembly SIMD is the point.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { LAYER_NORM } from '../../core/models/fusedLayerNorm';
import { layerNormPlain, layerNormShared } from './wasmBinaries.generated';
import { onHeap, type HeapModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

const fr = Math.fround;

export const LN_STATS: HeapModule = { plain: layerNormPlain, shared: layerNormShared, name: 'lnStats' };
export const LN_APPLY: HeapModule = { plain: layerNormPlain, shared: layerNormShared, name: 'lnApply' };

/** Per row: its mean, and var + eps (before the rsqrt). Exported for the tests. */
export function rowStats(x: Float32Array, d: number, mean: Float32Array, varEps: Float32Array, eps: number): void {
  const rows = mean.length;
  const e = fr(eps);
  const n = fr(d);
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    let s = 0;
    for (let i = 0; i < d; i++) s = fr(s + x[o + i]);
    const m = fr(s / n);
    let q = 0;
    for (let i = 0; i < d; i++) {
      const c = fr(x[o + i] - m);
      q = fr(q + fr(c * c));
    }
    mean[r] = m;
    varEps[r] = fr(fr(q / n) + e);
  }
}

/** y = ((x - mean) * rs) * gain + bias per row; model k's gain for rows [k * per, (k + 1) * per). */
export function applyNorm(x: Float32Array, d: number, mean: Float32Array, rs: Float32Array, gain: Float32Array, bias: Float32Array, y: Float32Array): void {
  const rows = mean.length;
  const per = rows / (gain.length / d);
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    const g = Math.floor(r / per) * d;
    const [m, s] = [mean[r], rs[r]];
    for (let i = 0; i < d; i++) y[o + i] = fr(fr(fr(fr(x[o + i] - m) * s) * gain[g + i]) + bias[g + i]);
  }
}

function layerNorm({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const { x, gain, bias } = inputs as Record<string, TensorInfo>;
  const wasm = backend as BackendWasm;
  const d = x.shape[x.shape.length - 1];
  const size = tf.util.sizeFromShape(x.shape);
  const models = tf.util.sizeFromShape(gain.shape) / d;
  for (const t of [x, gain, bias]) if (t.dtype !== 'float32') throw new TypeError(`${LAYER_NORM}: float32 only, got ${t.dtype}`);
  const rows = size / d;
  if (!Number.isInteger(models) || models < 1 || rows % models !== 0 || !tf.util.arraysEqual(gain.shape, bias.shape) || gain.shape[gain.shape.length - 1] !== d) {
    throw new RangeError(`${LAYER_NORM}: x [${x.shape}] does not match gain [${gain.shape}] and bias [${bias.shape}]`);
  }
  const out = wasm.makeOutput(x.shape, 'float32');
  if (size === 0) return out;
  const eps = attrs!.eps as number;
  const mean = wasm.makeOutput([rows], 'float32');
  const varEps = wasm.makeOutput([rows], 'float32');
  const [stats, apply] = [onHeap(wasm, LN_STATS), onHeap(wasm, LN_APPLY)];
  const at = (t: TensorInfo) => wasm.dataIdMap.get(t.dataId)!.memoryOffset;
  // Views are taken after each makeOutput: a malloc may grow the heap and detach older views.
  const view = (t: TensorInfo) => wasm.typedArrayFromHeap(t) as Float32Array;
  if (stats) stats(at(x), at(mean), at(varEps), rows, d, eps);
  else rowStats(view(x), d, view(mean), view(varEps), eps);
  const rsqrt = tf.getKernel('Rsqrt', 'wasm')!.kernelFunc({ inputs: { x: varEps }, backend: wasm, attrs: {} }) as TensorInfo;
  if (apply) apply(at(x), at(mean), at(rsqrt), at(gain), at(bias), at(out), rows, d, rows / models);
  else applyNorm(view(x), d, view(mean), view(rsqrt), view(gain), view(bias), view(out));
  for (const t of [mean, varEps, rsqrt]) wasm.disposeData(t.dataId);
  return out;
}

export const LAYER_NORM_KERNEL: tf.KernelConfig = { kernelName: LAYER_NORM, backendName: 'wasm', kernelFunc: layerNorm as unknown as tf.KernelFunc };
