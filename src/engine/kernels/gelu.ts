/**
 * The fused GELU kernels for the wasm backend (src/core/models/fusedGelu.ts says what they fuse):
 * LabGeluPre (the sigmoid's argument) and LabGeluGrad (the gradient as tfjs's tape computes it),
 * both in WebAssembly SIMD on tfjs's heap (gelu.wat). Where our module cannot be instantiated,
 * the same float32 steps run in JavaScript (Math.fround after each, which rounds as float32
 * arithmetic does: a double holds every product and sum of two floats before rounding).
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import { GELU_GRAD, GELU_PRE } from '../../core/models/fusedGelu';
import { geluPlain, geluShared } from './wasmBinaries.generated';
import { onHeap, type HeapModule } from './heap';

type TensorInfo = tf.TensorInfo;
type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs?: tf.NamedAttrMap };

export const GELU_PRE_WASM: HeapModule = { plain: geluPlain, shared: geluShared, name: 'geluPre' };
export const GELU_GRAD_WASM: HeapModule = { plain: geluPlain, shared: geluShared, name: 'geluGrad' };

const fr = Math.fround;

/** JavaScript twin of gelu.wat's geluPre (exported for the tests). */
export function geluPreJs(x: Float32Array, out: Float32Array, c1: number, c2: number): void {
  const [a, b] = [fr(c1), fr(c2)];
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    out[i] = fr(fr(v + fr(fr(fr(v * v) * v) * a)) * b);
  }
}

/** JavaScript twin of gelu.wat's geluGrad (exported for the tests). */
export function geluGradJs(dy: Float32Array, x: Float32Array, s: Float32Array, out: Float32Array, c1: number, c2: number): void {
  const [a, b] = [fr(c1), fr(c2)];
  for (let i = 0; i < x.length; i++) {
    const [d, v, g] = [dy[i], x[i], s[i]];
    let acc = fr(d * g);
    const dinner = fr(fr(fr(d * v) * fr(g * fr(1 - g))) * b);
    acc = fr(acc + dinner);
    const dcube = fr(dinner * a);
    acc = fr(acc + fr(dcube * fr(v * v)));
    const t = fr(fr(dcube * v) * v);
    acc = fr(acc + t);
    out[i] = fr(acc + t);
  }
}

const offset = (b: BackendWasm, t: TensorInfo) => b.dataIdMap.get(t.dataId)!.memoryOffset;
const count = (t: TensorInfo) => tf.util.sizeFromShape(t.shape);

function checkFloat(kernel: string, ts: TensorInfo[]): void {
  for (const t of ts) if (t.dtype !== 'float32') throw new TypeError(`${kernel}: float32 inputs only, got ${t.dtype}`);
  for (const t of ts.slice(1)) {
    if (!tf.util.arraysEqual(t.shape, ts[0].shape)) throw new RangeError(`${kernel}: shapes differ, [${ts[0].shape}] and [${t.shape}]`);
  }
}

function geluPre({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const x = inputs.x as TensorInfo;
  checkFloat(GELU_PRE, [x]);
  const wasm = backend as BackendWasm;
  const out = wasm.makeOutput(x.shape, 'float32');
  const n = count(x);
  if (n === 0) return out;
  const { c1, c2 } = attrs as { c1: number; c2: number };
  const f = onHeap(wasm, GELU_PRE_WASM);
  // Views after makeOutput: its malloc may grow the heap and detach older views.
  if (f) f(offset(wasm, x), offset(wasm, out), n, c1, c2);
  else geluPreJs(wasm.typedArrayFromHeap(x) as Float32Array, wasm.typedArrayFromHeap(out) as Float32Array, c1, c2);
  return out;
}

function geluGrad({ inputs, backend, attrs }: KernelArgs): TensorInfo {
  const [dy, x, s] = [inputs.dy, inputs.x, inputs.s] as TensorInfo[];
  checkFloat(GELU_GRAD, [x, dy, s]);
  const wasm = backend as BackendWasm;
  const out = wasm.makeOutput(x.shape, 'float32');
  const n = count(x);
  if (n === 0) return out;
  const { c1, c2 } = attrs as { c1: number; c2: number };
  const f = onHeap(wasm, GELU_GRAD_WASM);
  if (f) f(offset(wasm, dy), offset(wasm, x), offset(wasm, s), offset(wasm, out), n, c1, c2);
  else {
    const view = (t: TensorInfo) => wasm.typedArrayFromHeap(t) as Float32Array;
    geluGradJs(view(dy), view(x), view(s), view(out), c1, c2);
  }
  return out;
}

/** The two kernels, for the wasm backend. */
export const GELU_KERNELS: tf.KernelConfig[] = [
  { kernelName: GELU_PRE, backendName: 'wasm', kernelFunc: geluPre as unknown as tf.KernelFunc },
  { kernelName: GELU_GRAD, backendName: 'wasm', kernelFunc: geluGrad as unknown as tf.KernelFunc },
];
