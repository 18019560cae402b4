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

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

/** bmm(a, b, out, pack, batch, M, K, N, aBatch, aRow, aCol, bBatch, bRow, bCol): byte addresses and strides. */
type Bmm = (...args: number[]) => void;

/**
 * The WebAssembly API, typed here: the Node layer's lib (ES2022 + @types/node) declares no
 * WebAssembly.Memory, Module or Instance, while the worker and page layers do.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
interface WasmApi {
  Memory: abstract new (...args: never[]) => WasmMemory;
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The parts of tfjs-backend-wasm's emscripten module we use (not in its typings). */
interface WasmModule {
  wasmMemory?: WasmMemory; // the threaded build: a shared memory made in JS
  asm?: { memory?: WasmMemory }; // the single-threaded builds: the module's own memory
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Our module on a memory: its bmm, or null where it could not be instantiated (tfjs's kernel runs). */
const instances = new WeakMap<WasmMemory, Bmm | null>();

/** Our module instantiated on `memory`, tfjs-backend-wasm's heap (exported for the tests). */
export function instantiateBmm(memory: WasmMemory): Bmm {
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  // Synchronous compile: the module is about 1 KB, well inside every browser's limit for it.
  const module = new WA.Module(decode(shared ? batchMatMulShared : batchMatMulPlain));
  return new WA.Instance(module, { env: { memory } }).exports.bmm as Bmm;
}

/** Our kernel on this backend's heap (instantiated once per memory), or null when that is not possible. */
function kernelFor(backend: BackendWasm): Bmm | null {
  const wasm = backend.wasm as unknown as WasmModule;
  const memory = wasm.wasmMemory ?? wasm.asm?.memory;
  if (!(memory instanceof WA.Memory)) return null;
  let bmm = instances.get(memory);
  if (bmm === undefined) {
    try {
      bmm = instantiateBmm(memory);
    } catch (e) {
      // Same results either way, only slower: say so once and keep tfjs's kernel.
      console.warn(`our wasm BatchMatMul could not start, tfjs's runs instead: ${e instanceof Error ? e.message : String(e)}`);
      bmm = null;
    }
    instances.set(memory, bmm);
  }
  return bmm;
}

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
  const bmm = kernelFor(wasmBackend);
  if (!bmm) return fallback();
  const outer = tf.broadcast_util.assertAndGetBroadcastShape(a.shape.slice(0, -2), b.shape.slice(0, -2));
  const out = wasmBackend.makeOutput([...outer, m, n], 'float32');
  const batch = Math.max(batchA, batchB);
  if (batch * m * n === 0) return out;
  const n4 = Math.ceil(n / 4) * 4;
  // B's rows are read 4 columns at a time: pack them when they are not contiguous or not whole vectors.
  const packBytes = (transposeB || n !== n4) && k > 0 ? k * n4 * 4 : 0;
  const wasm = wasmBackend.wasm as unknown as WasmModule;
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
