/**
 * Our BatchMatMul for the wasm backend: tfjs-backend-wasm 4.22's own kernel takes a scalar
 * "slow" path for every product that is batched or transposed (only a plain 2-D product goes to
 * XNNPACK), and the transformer's attention is all batched products of tiny matrices
 * ([K*N*H, T, hd] @ [K*N*H, hd, T] and back, both transposes in the backward pass). This kernel
 * runs those in WebAssembly SIMD (batchMatMul.wat, assembled by scripts/build-wasm-kernels.mjs)
 * on tfjs's heap in place, and hands every other product to tfjs's kernel unchanged.
 *
 * Its sums are tfjs's, element by element and in the same order (see the .wat's header), so its
 * results equal tfjs's bit for bit (batchMatMul.test.ts checks that on random shapes, both
 * transposes, broadcast batches, long shared dimensions and special values).
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { batchMatMulPlain, batchMatMulShared } from './wasmBinaries.generated';
import { onHeap, type EmscriptenModule, type HeapModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

/** bmm(a, b, out, pack, batch, M, K, N, aBatch, aRow, aCol, bBatch, bRow, bCol): byte addresses and strides. */
export const BMM: HeapModule = { plain: batchMatMulPlain, shared: batchMatMulShared, name: 'bmm' };

const size = (shape: readonly number[]) => shape.reduce((p, d) => p * d, 1);

/** The BatchMatMul kernel: ours where tfjs-wasm would take its slow path, tfjs's otherwise. */
export function batchMatMul({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const a = inputs.a as TensorInfo;
  const b = inputs.b as TensorInfo;
  const transposeA = !!attrs!.transposeA;
  const transposeB = !!attrs!.transposeB;
  const wasmBackend = backend as BackendWasm;
  const fallback = () => original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo;
  if (a.dtype !== 'float32' || b.dtype !== 'float32') return fallback(); // tfjs's error message
  const ar = a.shape.length;
  const br = b.shape.length;
  if (ar < 2 || br < 2) return fallback();
  const m = transposeA ? a.shape[ar - 1] : a.shape[ar - 2];
  const k = transposeA ? a.shape[ar - 2] : a.shape[ar - 1];
  const kb = transposeB ? b.shape[br - 1] : b.shape[br - 2];
  const n = transposeB ? b.shape[br - 2] : b.shape[br - 1];
  const batchA = size(a.shape.slice(0, -2));
  const batchB = size(b.shape.slice(0, -2));
  // XNNPACK's plain product, shape errors and batches tfjs cannot pair stay with tfjs's kernel.
  if (k !== kb || (!transposeA && !transposeB && batchA === 1 && batchB === 1)) return fallback();
  // tfjs-wasm's slow path loops over A's batches only, so it broadcasts a single B and nothing else.
  if (batchA !== batchB && batchB !== 1) return fallback();
  const bmm = onHeap(wasmBackend, BMM);
  if (!bmm) return fallback();
  const outer = tf.broadcast_util.assertAndGetBroadcastShape(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const out = wasmBackend.makeOutput([...outer, m, n], 'float32');
  const batch = Math.max(batchA, batchB);
  if (batch * m * n === 0) return out;
  const n4 = Math.ceil(n / 4) * 4;
  // B's rows are read 4 columns at a time: pack them when they are not contiguous or not whole vectors.
  const packBytes = (transposeB || n !== n4) && k > 0 ? k * n4 * 4 : 0;
  const wasm = wasmBackend.wasm as unknown as EmscriptenModule;
  const pack = packBytes > 0 ? wasm._malloc(packBytes) : 0;
  try {
    const offset = (t: TensorInfo) => wasmBackend.dataIdMap.get(t.dataId)!.memoryOffset;
    const F = 4; // bytes per float32
    bmm(
      offset(a), offset(b), offset(out), pack, batch, m, k, n,
      batchA === 1 ? 0 : m * k * F, transposeA ? F : k * F, transposeA ? m * F : F,
      batchB === 1 ? 0 : k * n * F, transposeB ? F : n * F, transposeB ? k * F : F,
    );
  } finally {
    if (pack) wasm._free(pack);
  }
  return out;
}
