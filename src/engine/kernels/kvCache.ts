/**
 * The KV cache's two kernels for the wasm backend (src/core/models/transformerKvCache.ts says
 * where they run and who owns the cache's data).
 *
 * LabKVNew {x [B, H, n, hd]}, {length}: a new cache [B, H, length, hd], x at positions 0..n-1 and
 * zeros after (the prefill's; tfjs's PadV2 did the same at 0.8 ms a call).
 *
 * LabKVWrite {cache [B, H, T, hd], x [B, H, n, hd]}, {pos}: copies x into positions pos..pos+n-1
 * of the cache's own data (copyRows.wat: one memory.copy per row, B*H rows) and returns a tensor
 * sharing that data (one more reference, as our wasm Identity does). It is the only kernel of the
 * lab that writes into an input, which is why the model uses it only on a cache it owns.
 *
 * LabCacheMatMul {a [B, H, m, k], cache [B, H, T, hd]}, {length, transposeB}: a times the cache's
 * first `length` positions (transposeB: a [.., 1, hd] @ prefix^T, the scores; else a [.., 1,
 * length] @ prefix, att v). It runs batchMatMul.wat's product with the cache's batch stride
 * (T * hd floats) instead of a concatenated copy's (length * hd): the same products summed in
 * the same order, so equal bit for bit to BatchMatMul on the concatenated cache
 * (kvCache.test.ts).
 *
 * Where our modules cannot start: LabKVWrite copies rows through heap views, and LabCacheMatMul
 * copies the prefix out and runs the registered BatchMatMul on it (the same results).
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { CACHE_MATMUL, KV_NEW, KV_WRITE } from '../../core/models/transformerKvCache';
import { BMM } from './batchMatMul';
import { COPY_ROWS } from './concat';
import { onHeap, type EmscriptenModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

const F = 4; // bytes per float32

/** Copy `rows` rows of `bytes` bytes between byte addresses with strides, through heap views. */
function copyRowsJs(backend: BackendWasm, src: number, dst: number, rows: number, bytes: number, srcStride: number, dstStride: number): void {
  const heap = new Uint8Array((backend.wasm as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer);
  for (let r = 0; r < rows; r++) heap.copyWithin(dst + r * dstStride, src + r * srcStride, src + r * srcStride + bytes);
}

/** cache [B, H, T, hd] and x [B, H, *, *] (`last`: x's last axis, where it must be hd), both float32. */
function check(cache: TensorInfo, x: TensorInfo, name: string, last: string): void {
  const c = cache.shape;
  if (cache.dtype !== 'float32' || x.dtype !== 'float32' || c.length !== 4 || x.shape.length !== 4 || c[0] !== x.shape[0] || c[1] !== x.shape[1] || (last === 'hd' && c[3] !== x.shape[3])) {
    throw new Error(`${name}: expected float32 [B, H, T, hd] and [B, H, n, ${last}], got ${cache.dtype} [${c}] and ${x.dtype} [${x.shape}]`);
  }
}

export function kvWrite({ inputs, backend, attrs }: KernelArgs, share = true): TensorInfo {
  const cache = inputs.cache as TensorInfo;
  const x = inputs.x as TensorInfo;
  const pos = attrs!.pos as number;
  check(cache, x, KV_WRITE, 'hd');
  const [B, H, T, hd] = cache.shape;
  const n = x.shape[2];
  if (!Number.isInteger(pos) || pos < 0 || pos + n > T) throw new RangeError(`${KV_WRITE}: positions ${pos}..${pos + n - 1} are outside the cache's ${T}`);
  const wasm = backend as BackendWasm;
  const offset = (t: TensorInfo) => wasm.dataIdMap.get(t.dataId)!.memoryOffset;
  if (B * H * n * hd > 0) {
    const args = [offset(x), offset(cache) + pos * hd * F, B * H, n * hd * F, n * hd * F, T * hd * F] as const;
    const copyRows = onHeap(wasm, COPY_ROWS);
    if (copyRows) copyRows(...args);
    else copyRowsJs(wasm, ...args);
  }
  if (!share) return cache; // LabKVNew's own new output
  wasm.incRef(cache.dataId);
  return { dataId: cache.dataId, shape: [...cache.shape], dtype: cache.dtype };
}

export function kvNew({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const x = inputs.x as TensorInfo;
  const length = attrs!.length as number;
  if (x.dtype !== 'float32' || x.shape.length !== 4) throw new Error(`${KV_NEW}: expected float32 [B, H, n, hd], got ${x.dtype} [${x.shape}]`);
  const [B, H, n, hd] = x.shape as [number, number, number, number];
  if (!Number.isInteger(length) || length < n) throw new RangeError(`${KV_NEW}: length ${length} is shorter than the ${n} positions given`);
  const wasm = backend as BackendWasm;
  const cache = wasm.makeOutput([B, H, length, hd], 'float32');
  // Zeros first (malloc'd memory holds old data), then x's rows over them.
  wasm.typedArrayFromHeap(cache).fill(0);
  return kvWrite({ inputs: { cache, x }, backend, attrs: { pos: 0 } }, false);
}

export function cacheMatMul({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const a = inputs.a as TensorInfo;
  const cache = inputs.cache as TensorInfo;
  const length = attrs!.length as number;
  const transposeB = !!attrs!.transposeB;
  check(cache, a, CACHE_MATMUL, 'k');
  const [B, H, T, hd] = cache.shape;
  const m = a.shape[2];
  const k = transposeB ? hd : length;
  const n = transposeB ? length : hd;
  if (!Number.isInteger(length) || length < 1 || length > T) throw new RangeError(`${CACHE_MATMUL}: length ${length} is outside 1..${T}`);
  if (a.shape[3] !== k) throw new Error(`${CACHE_MATMUL}: a [${a.shape}] cannot multiply ${transposeB ? 'the transposed ' : ''}prefix [${B}, ${H}, ${length}, ${hd}]`);
  const wasm = backend as BackendWasm;
  const offset = (t: TensorInfo) => wasm.dataIdMap.get(t.dataId)!.memoryOffset;
  const bmm = onHeap(wasm, BMM);
  if (!bmm) {
    // The prefix as its own tensor, then the registered BatchMatMul: what the concat path computes.
    const prefix = wasm.makeOutput([B, H, length, hd], 'float32');
    copyRowsJs(wasm, offset(cache), offset(prefix), B * H, length * hd * F, T * hd * F, length * hd * F);
    const product = tf.getKernel('BatchMatMul', 'wasm')!.kernelFunc({ inputs: { a, b: prefix }, backend: wasm, attrs: { transposeA: false, transposeB } }) as TensorInfo;
    wasm.disposeData(prefix.dataId);
    return product;
  }
  const out = wasm.makeOutput([B, H, m, n], 'float32');
  const batch = B * H;
  if (batch * m * n === 0) return out;
  // As batchMatMul.ts: B's rows are read 4 columns at a time, packed when not contiguous or not whole vectors.
  const n4 = Math.ceil(n / 4) * 4;
  const packBytes = transposeB || n !== n4 ? k * n4 * F : 0;
  const heap = wasm.wasm as unknown as EmscriptenModule;
  const pack = packBytes > 0 ? heap._malloc(packBytes) : 0;
  try {
    bmm(
      offset(a), offset(cache), offset(out), pack, batch, m, k, n,
      m * k * F, k * F, F, // A: batch, row i, shared index
      T * hd * F, transposeB ? F : hd * F, transposeB ? hd * F : F, // the cache: batch, shared index, column
    );
  } finally {
    if (pack) heap._free(pack);
  }
  return out;
}

export const KV_CACHE_KERNELS: tf.KernelConfig[] = [
  { kernelName: KV_NEW, backendName: 'wasm', kernelFunc: kvNew as unknown as tf.KernelFunc },
  { kernelName: KV_WRITE, backendName: 'wasm', kernelFunc: ((args: KernelArgs) => kvWrite(args)) as unknown as tf.KernelFunc },
  { kernelName: CACHE_MATMUL, backendName: 'wasm', kernelFunc: cacheMatMul as unknown as tf.KernelFunc },
];
