/**
 * Replacements for six tfjs-backend-wasm 4.22 kernels: four copy more than they need, two are slow.
 *
 * Slice, SplitV, Unpack: copy their whole input to slice it.
 *
 * The wasm `Slice` kernel starts with `backend.readSync(x.dataId)`, which copies the entire input
 * tensor out of the wasm heap (`HEAPU8.slice`) and then keeps a sub-range; `SplitV` and `Unpack`
 * call that same function once per output. A CPU profile of the training worker in Chromium 156
 * found `readSync` at 48% of the worker's time, most of it under `Slice` (docs/BENCHMARKS-NOTEBOOK.md,
 * "Why the browser was 2x slower than Node"): the copy is about ten times dearer in a browser
 * worker than in Node. These kernels read the input through a view of the heap
 * (`typedArrayFromHeap`, no copy) and copy only the requested elements, row run by row run.
 *
 * A slice is a copy, so the results are equal bit for bit to tfjs's (wasmKernels.test.ts checks
 * that on random slices, splits and unstacks of rank 1 to 6); strings keep tfjs's own kernel.
 *
 * Identity: copies its input. tfjs's engine runs it for every tensor a kernel saves for its
 * gradient (`saveTensorsForBackwardMode` clones each one) and for tf.clone, so under a gradient
 * tape a wasm RL step copied about a thousand activations it never changes (929 Identity calls,
 * about a tenth of a `peers-teach` step: docs/BENCHMARKS.md). No wasm kernel writes into its
 * inputs, and a variable's assign replaces its data rather than writing into it, so the clone
 * can share the input's data with one more reference, as tfjs-backend-wasm's own Reshape and
 * the WebGL and WebGPU backends' Identity already do; the data is freed with its last reference.
 * BatchMatMul: tfjs-backend-wasm runs every batched or transposed product in scalar code;
 * ./kernels/batchMatMul.ts runs those in WebAssembly SIMD with the same sums, bit for bit.
 *
 * Concat: makes a typed-array view per row and input to copy it; ./kernels/concat.ts copies each
 * input's rows in one call into WebAssembly (the KV cache's rows are 8-104 floats). A copy: equal
 * bit for bit.
 *
 * Pack: tfjs's expands its inputs and runs its own concat function, not the registered Concat;
 * ours runs our Concat (./kernels/concat.ts). A copy: equal bit for bit.
 *
 * Sum: over axes that are not innermost, tfjs's transposes (copies) its input first; ours
 * (./kernels/sum.ts) sums the same runs in the same order in place: equal bit for bit.
 *
 * Cast: copies its input even to the dtype it already has, and every Multiply's gradient casts
 * both inputs to float32 (257 casts a `peers-teach` step, 18 ms: bench:ops --profile-kernels). A
 * cast to the same dtype now shares the data, as Identity does; other casts stay tfjs's.
 *
 * Kernels of our own besides, not replacements: the fused GELU's LabGeluPre and LabGeluGrad
 * (./kernels/gelu.ts, used by src/core/models/fusedGelu.ts) and LabLayerNorm (./kernels/layerNorm.ts,
 * used by src/core/models/fusedLayerNorm.ts where no gradient is recorded).
 *
 * tfjs looks kernels up by (name, backend) at every call, so registering these once is enough.
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import '@tensorflow/tfjs-backend-wasm'; // registers the wasm backend and its kernels
import { batchMatMul } from './kernels/batchMatMul';
import { concat, pack } from './kernels/concat';
import { GELU_KERNELS } from './kernels/gelu';
import { LAYER_NORM_KERNEL } from './kernels/layerNorm';
import { sum } from './kernels/sum';
import { STACK_MATMUL_KERNELS } from './kernels/mlpStackMatMul';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

/** Copy x[begin : begin + size] (any rank) into a new wasm tensor, reading x in place. */
export function sliceInPlace(backend: BackendWasm, x: TensorInfo, begin: number[], size: number[]): TensorInfo {
  const out = backend.makeOutput(size, x.dtype);
  const count = size.reduce((a, b) => a * b, 1);
  if (count === 0) return out;
  // Views are taken after makeOutput: its malloc may grow the heap and detach older views.
  const src = backend.typedArrayFromHeap(x);
  const dst = backend.typedArrayFromHeap(out);
  copySlice(src, x.shape, dst, begin, size);
  return out;
}

/**
 * Copy the slice of `src` (row-major, `shape`) starting at `begin` with extent `size` into `dst`.
 * Trailing axes the slice covers whole are merged into one run, so a slice along the leading
 * axis is a single copy and a slice of the last axis is one copy per row.
 */
export function copySlice(src: tf.TypedArray, shape: readonly number[], dst: tf.TypedArray, begin: readonly number[], size: readonly number[]): void {
  const rank = shape.length;
  if (rank === 0) {
    dst.set(src.subarray(0, 1), 0);
    return;
  }
  const strides = new Array<number>(rank);
  strides[rank - 1] = 1;
  for (let i = rank - 2; i >= 0; i--) strides[i] = strides[i + 1] * shape[i + 1];
  // The run: the innermost axis and every axis inside which the slice takes whole rows.
  let inner = rank - 1;
  while (inner > 0 && size[inner] === shape[inner] && begin[inner] === 0) inner--;
  const run = size[inner] * strides[inner];
  const outerCount = size.slice(0, inner).reduce((a, b) => a * b, 1);
  const index = new Array<number>(inner).fill(0); // odometer over axes 0..inner-1 of the slice
  let outOffset = 0;
  for (let n = 0; n < outerCount; n++) {
    let offset = begin[inner] * strides[inner];
    for (let a = 0; a < inner; a++) offset += (begin[a] + index[a]) * strides[a];
    dst.set(src.subarray(offset, offset + run), outOffset);
    outOffset += run;
    for (let a = inner - 1; a >= 0; a--) {
      if (++index[a] < size[a]) break;
      index[a] = 0;
    }
  }
}

function slice({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const x = inputs.x as TensorInfo;
  if (x.dtype === 'string') return original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo;
  const [begin, size] = tf.slice_util.parseSliceParams(x, attrs!.begin as number[], attrs!.size as number[]);
  return sliceInPlace(backend as BackendWasm, x, begin, size);
}

function splitV({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo[] {
  const x = inputs.x as TensorInfo;
  if (x.dtype === 'string') return original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo[];
  const axis = tf.util.parseAxisParam(attrs!.axis as number, x.shape)[0];
  const splitSizes = tf.backend_util.prepareSplitSize(x as tf.Tensor, attrs!.numOrSizeSplits as number[] | number, axis);
  const begin = new Array<number>(x.shape.length).fill(0);
  return splitSizes.map((s) => {
    const size = [...x.shape];
    size[axis] = s;
    const part = sliceInPlace(backend as BackendWasm, x, begin, size);
    begin[axis] += s;
    return part;
  });
}

function unpack({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo[] {
  const value = inputs.value as TensorInfo;
  if (value.dtype === 'string') return original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo[];
  const rank = value.shape.length;
  let axis = attrs!.axis as number;
  if (axis < 0) axis += rank;
  const outShape = value.shape.filter((_, i) => i !== axis);
  const begin = new Array<number>(rank).fill(0);
  const size = [...value.shape];
  size[axis] = 1;
  return Array.from({ length: value.shape[axis] }, (_, i) => {
    begin[axis] = i;
    const { dataId, dtype } = sliceInPlace(backend as BackendWasm, value, begin, size);
    return { dataId, dtype, shape: outShape };
  });
}

/** A clone that shares its input's data (one more reference), as wasm's Reshape does. */
function identity({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const x = inputs.x as TensorInfo;
  if (x.dtype === 'string') return original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo;
  (backend as BackendWasm).incRef(x.dataId);
  return { dataId: x.dataId, shape: [...x.shape], dtype: x.dtype };
}

/** A cast to the dtype the input already has: a clone, so it shares the data as identity does. */
function cast({ inputs, backend, attrs }: KernelArgs, original: tf.KernelFunc): TensorInfo {
  const x = inputs.x as TensorInfo;
  const same = attrs!.dtype === x.dtype && (x.dtype === 'float32' || x.dtype === 'int32' || x.dtype === 'bool');
  return same ? identity({ inputs, backend, attrs }, original) : (original({ inputs, backend: backend as tf.KernelBackend, attrs }) as TensorInfo);
}

/** Our own kernels (names tfjs does not have). */
const OWN_KERNELS: tf.KernelConfig[] = [...GELU_KERNELS, LAYER_NORM_KERNEL, ...STACK_MATMUL_KERNELS];

const REPLACEMENTS: Record<string, (args: KernelArgs, original: tf.KernelFunc) => TensorInfo | TensorInfo[]> = {
  BatchMatMul: batchMatMul,
  Cast: cast,
  Concat: concat,
  Identity: identity,
  Pack: pack,
  Slice: slice,
  SplitV: splitV,
  Sum: sum,
  Unpack: unpack,
};

/** tfjs's own kernels, kept when ours are installed (the tests compare against them), and ours. */
const originals = new Map<string, tf.KernelConfig>();
const installed = new Map<string, tf.KernelConfig>();

/** Register our replacements (REPLACEMENTS above) and our own kernels (OWN_KERNELS) on the wasm backend (idempotent). */
export function installWasmKernels(): void {
  if (originals.size > 0) return;
  for (const [name, replacement] of Object.entries(REPLACEMENTS)) {
    const config = tf.getKernel(name, 'wasm');
    if (!config) throw new Error(`tfjs-backend-wasm has no ${name} kernel to replace`);
    originals.set(name, config);
    const original = config.kernelFunc;
    tf.unregisterKernel(name, 'wasm');
    installed.set(name, { ...config, kernelFunc: ((args: KernelArgs) => replacement(args, original)) as tf.KernelFunc });
    tf.registerKernel(installed.get(name)!);
  }
  for (const config of OWN_KERNELS) tf.registerKernel(config);
}

/** Every kernel name of ours: the replacements and our own kernels. */
export function ourWasmKernelNames(): string[] {
  return [...Object.keys(REPLACEMENTS), ...OWN_KERNELS.map((k) => k.kernelName)];
}

/**
 * Tests and bench:ops only: register ours (ours = true) or tfjs's own kernels (false) under
 * `names` (default: all of ours). Without ours, our own kernels (LabGeluPre, LabGeluGrad,
 * LabLayerNorm) are not registered at all, so the fused ops run as layers.ts's ops.
 */
export function useOurWasmKernels(ours: boolean, names: string[] = ourWasmKernelNames()): void {
  installWasmKernels();
  for (const name of names) {
    const own = OWN_KERNELS.find((k) => k.kernelName === name);
    const config = own ?? (ours ? installed.get(name) : originals.get(name));
    if (!config) throw new Error(`no wasm kernel of ours is called ${name}`);
    if (tf.getKernel(name, 'wasm')) tf.unregisterKernel(name, 'wasm');
    if (!own || ours) tf.registerKernel(config);
  }
}

/** Tests only: run `fn` with tfjs's own wasm kernels registered again and none of ours, then ours. */
export function withTfjsWasmKernels<T>(fn: () => T): T {
  useOurWasmKernels(false);
  try {
    return fn();
  } finally {
    useOurWasmKernels(true);
  }
}
