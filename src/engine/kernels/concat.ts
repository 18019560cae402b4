/**
 * Our Concat for the wasm backend. tfjs-backend-wasm 4.22's copies each input's rows with one
 * `subarray` view and `set` per row and input. The transformer's KV cache appends one position per
 * decoded token ([K*N, H, t, hd] and [K*N, H, 1, hd] on axis 2): 3,584 rows of 8-104 floats at
 * `peers-teach`'s shapes, where making those views costs more than the copying. Ours copies each
 * input's rows in one call into copyRows.wat (a memory.copy per row, on tfjs's heap). A copy
 * either way, so the results are tfjs's bit for bit (wasmKernels.test.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { copyRowsPlain, copyRowsShared } from './wasmBinaries.generated';
import { onHeap, type HeapModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

/** copyRows(src, dst, rows, bytes, srcStride, dstStride): byte addresses, sizes and strides. */
export const COPY_ROWS: HeapModule = { plain: copyRowsPlain, shared: copyRowsShared, name: 'copyRows' };

export function concat({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const xs = inputs as unknown as TensorInfo[]; // tfjs passes Concat's inputs as an array
  const dtype = xs[0].dtype;
  const nonEmpty = xs.filter((t) => tf.util.sizeFromShape(t.shape) > 0);
  const wasm = backend as BackendWasm;
  const copyRows = onHeap(wasm, COPY_ROWS);
  // strings, complex numbers, a single non-empty input (tfjs returns a copy of it), no module: tfjs's kernel
  if ((dtype !== 'float32' && dtype !== 'int32' && dtype !== 'bool') || nonEmpty.length < 2 || !copyRows) {
    return original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo;
  }
  const axis = tf.util.parseAxisParam(attrs!.axis as number, xs[0].shape)[0];
  tf.backend_util.assertParamsConsistent(xs.map((t) => t.shape), axis);
  const out = wasm.makeOutput(tf.backend_util.computeOutShape(xs.map((t) => t.shape), axis), dtype);
  const bytes = tf.util.bytesPerElement(dtype);
  const rows = tf.util.sizeFromShape(nonEmpty[0].shape.slice(0, axis));
  const inner = nonEmpty.map((t) => tf.util.sizeFromShape(t.shape.slice(axis)) * bytes);
  const rowOut = inner.reduce((a, b) => a + b, 0);
  const offset = (t: TensorInfo) => wasm.dataIdMap.get(t.dataId)!.memoryOffset;
  let column = offset(out);
  nonEmpty.forEach((t, i) => {
    copyRows(offset(t), column, rows, inner[i], inner[i], rowOut);
    column += inner[i];
  });
  return out;
}

/**
 * Our Pack (tf.stack) for the wasm backend: tfjs-backend-wasm's expands each input and calls its
 * own concat function directly, so tf.stack never reached our Concat. The lab stacks the K
 * models' products after every per-model matMul (matMulK in src/core/models/layers.ts: 151 Packs
 * a `peers-teach` step, 27 ms). Here each input is viewed with the new axis (same data) and
 * copied by the Concat above; a copy either way, so tfjs's results bit for bit.
 */
export function pack({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const xs = inputs as unknown as TensorInfo[];
  const fallback = (() => original({ inputs, backend: backend as tf.KernelBackend, attrs })) as tf.KernelFunc;
  if (xs.length < 2 || xs.some((t) => !tf.util.arraysEqual(t.shape, xs[0].shape) || t.dtype !== xs[0].dtype)) return fallback({} as never) as TensorInfo;
  const rank = xs[0].shape.length + 1;
  let axis = attrs!.axis as number;
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return fallback({} as never) as TensorInfo; // tfjs's error
  const shape = [...xs[0].shape.slice(0, axis), 1, ...xs[0].shape.slice(axis)];
  const expanded = xs.map((t) => ({ dataId: t.dataId, dtype: t.dtype, shape }));
  return concat({ inputs: expanded as unknown as tf.NamedTensorInfoMap, backend, attrs: { axis } }, fallback);
}
