/**
 * Our Sum for the wasm backend where tfjs-backend-wasm 4.22's copies first: a float32 sum over
 * axes that are not innermost (the bias and layer-norm gradients: Add's gradient sums dy over
 * the broadcast axes, e.g. [7, 1792, 128] over axis 1). tfjs's transposes x so that the reduced
 * axes come last (a copy of x) and sums each output's run in order from 0; sumAxis.wat sums the
 * same runs in the same order without the copy, so the results are tfjs's bit for bit
 * (wasmKernels.test.ts). Anything else (innermost axes, axes not one ascending block, other
 * dtypes) stays with tfjs's kernel.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { sumAxisPlain, sumAxisShared } from './wasmBinaries.generated';
import { onHeap, type HeapModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

export const SUM_MIDDLE: HeapModule = { plain: sumAxisPlain, shared: sumAxisShared, name: 'sumMiddle' };

export function sum({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const x = inputs.x as TensorInfo;
  const fallback = () => original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo;
  const rank = x.shape.length;
  if (x.dtype !== 'float32' || rank === 0) return fallback();
  const axes = tf.util.parseAxisParam(attrs!.axis as number | number[], x.shape);
  const first = axes[0];
  const last = axes[axes.length - 1];
  // One ascending block of axes that does not reach the last axis.
  if (axes.some((a, i) => a !== first + i) || last === rank - 1) return fallback();
  const wasm = backend as BackendWasm;
  const f = onHeap(wasm, SUM_MIDDLE);
  if (!f) return fallback();
  const size = (s: number[]) => s.reduce((p, d) => p * d, 1);
  const outer = size(x.shape.slice(0, first));
  const r = size(x.shape.slice(first, last + 1));
  const inner = size(x.shape.slice(last + 1));
  const kept = x.shape.filter((_, i) => i < first || i > last);
  const shape = attrs!.keepDims ? x.shape.map((d, i) => (i >= first && i <= last ? 1 : d)) : kept;
  const out = wasm.makeOutput(shape, 'float32');
  if (outer * inner === 0) return out;
  const at = (t: TensorInfo) => wasm.dataIdMap.get(t.dataId)!.memoryOffset;
  if (r === 0) wasm.typedArrayFromHeap(out).fill(0);
  else f(at(x), at(out), outer, r, inner);
  return out;
}
