/**
 * LabStackMatMul for the wasm backend (src/core/models/stackMatMul.ts says what it replaces): K
 * plain 2-D products, model by model, each run by tfjs-wasm's own BatchMatMul (XNNPACK) on views
 * of the stack's rows, so the results are the split's bit for bit, with one kernel call for all K
 * instead of about 2K + 2 (and 4K + 4 in the gradient).
 *
 * A view is a tensor registered at an address inside the stack's data (makeOutput with a memory
 * offset), released without freeing (the stack owns the memory). A transposed operand (the
 * gradient's x^T and w^T) is copied transposed into a temporary first, as layers.ts's
 * matMulPlainGrad does with tf.transpose: a copy, so the same numbers reach the same product.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { STACK_MATMUL } from '../../core/models/stackMatMul';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };
interface WasmTensors {
  tfjs: { disposeData(id: number): void };
}

const F = 4; // bytes per float32

/** src [R, C] row-major -> dst [C, R], in 16 x 16 blocks (a copy: every value moves unchanged). */
export function transposeInto(src: Float32Array, dst: Float32Array, R: number, C: number): void {
  const B = 16;
  for (let r0 = 0; r0 < R; r0 += B) {
    const r1 = Math.min(r0 + B, R);
    for (let c0 = 0; c0 < C; c0 += B) {
      const c1 = Math.min(c0 + B, C);
      for (let r = r0; r < r1; r++) {
        const row = r * C;
        for (let c = c0; c < c1; c++) dst[c * R + r] = src[row + c];
      }
    }
  }
}

/** Model k's [rows, cols] block of a [K, rows, cols] stack, as a tensor over the stack's own memory. */
function view(be: BackendWasm, t: TensorInfo, k: number, rows: number, cols: number): TensorInfo {
  const base = be.dataIdMap.get(t.dataId)!.memoryOffset;
  return be.makeOutput([1, rows, cols], 'float32', base + k * rows * cols * F);
}

/** Unregister a view without freeing its memory (disposeData would free the stack's). */
function release(be: BackendWasm, v: TensorInfo): void {
  const data = be.dataIdMap.get(v.dataId);
  if (!data) return;
  (be.wasm as unknown as WasmTensors).tfjs.disposeData(data.id);
  be.dataIdMap.delete(v.dataId);
}

/** Model k's [rows, cols] block, transposed into a new tensor [1, cols, rows]. */
function transposed(be: BackendWasm, t: TensorInfo, k: number, rows: number, cols: number): TensorInfo {
  const out = be.makeOutput([1, cols, rows], 'float32');
  // Views after makeOutput: its malloc may grow the heap and detach older ones.
  const src = (be.typedArrayFromHeap(t) as Float32Array).subarray(k * rows * cols, (k + 1) * rows * cols);
  transposeInto(src, be.typedArrayFromHeap(out) as Float32Array, rows, cols);
  return out;
}

export function stackMatMulKernel({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const be = backend as BackendWasm;
  const a = inputs.a as TensorInfo;
  const b = inputs.b as TensorInfo;
  const tA = !!attrs?.transposeA;
  const tB = !!attrs?.transposeB;
  if (a.dtype !== 'float32' || b.dtype !== 'float32' || a.shape.length !== 3 || b.shape.length !== 3) {
    throw new TypeError(`${STACK_MATMUL}: float32 [K, M, D] inputs, got ${a.dtype} [${a.shape}] and ${b.dtype} [${b.shape}]`);
  }
  const [K, a1, a2] = a.shape;
  const [Kb, b1, b2] = b.shape;
  const m = tA ? a2 : a1;
  const inner = tA ? a1 : a2;
  const n = tB ? b1 : b2;
  if (K !== Kb || inner !== (tB ? b2 : b1)) throw new RangeError(`${STACK_MATMUL}: cannot multiply [${a.shape}] by [${b.shape}] (transposeA ${tA}, transposeB ${tB})`);
  const out = be.makeOutput([K, m, n], 'float32');
  if (K * m * n === 0) return out;
  // tfjs's BatchMatMul as registered now (ours hands a plain 2-D product to tfjs's, i.e. XNNPACK).
  const matMul = tf.getKernel('BatchMatMul', 'wasm')!.kernelFunc;
  for (let k = 0; k < K; k++) {
    const ak = tA ? transposed(be, a, k, a1, a2) : view(be, a, k, a1, a2);
    const bk = tB ? transposed(be, b, k, b1, b2) : view(be, b, k, b1, b2);
    try {
      const yk = matMul({ inputs: { a: ak, b: bk }, backend: be, attrs: { transposeA: false, transposeB: false } }) as TensorInfo;
      (be.typedArrayFromHeap(out) as Float32Array).set(be.typedArrayFromHeap(yk) as Float32Array, k * m * n);
      be.disposeData(yk.dataId);
    } finally {
      if (tA) be.disposeData(ak.dataId);
      else release(be, ak);
      if (tB) be.disposeData(bk.dataId);
      else release(be, bk);
    }
  }
  return out;
}

/** The kernel, for the wasm backend. */
export const STACK_MATMUL_KERNELS: tf.KernelConfig[] = [{ kernelName: STACK_MATMUL, backendName: 'wasm', kernelFunc: stackMatMulKernel as unknown as tf.KernelFunc }];
