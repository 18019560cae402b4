/**
 * The GELU of layers.ts with fewer kernels, where the backend has the lab's fused kernels (the
 * wasm backend: src/engine/kernels/gelu.ts registers them); elsewhere (webgpu, webgl, cpu) it is
 * layers.ts's gelu itself.
 *
 * layers.ts writes y = x * sigmoid(((x * x) * x * c1 + x) * c2) as seven tfjs kernels forward
 * and about twenty in its gradient, each a pass over [K, N, T, 4D] (the transformer's MLP: the
 * largest elementwise tensors of a `peers-teach` step, docs/BENCHMARKS.md). Fused: the sigmoid's
 * argument is one kernel (LabGeluPre), the sigmoid and the product stay tfjs's, and the
 * gradient is one kernel (LabGeluGrad) that computes what tfjs's tape computes through the seven
 * ops, in the same order, each step rounded to float32: equal bit for bit (src/engine/kernels/gelu.test.ts).
 */
import * as tf from '@tensorflow/tfjs';
import { gelu as geluOps } from './layers';

/** Kernel names (registered for the wasm backend by src/engine/wasmKernels.ts). */
export const GELU_PRE = 'LabGeluPre';
export const GELU_GRAD = 'LabGeluGrad';
/** Attributes of both kernels: the constants exactly as layers.ts's gelu writes them. */
export const GELU_ATTRS = { c1: 0.044715, c2: 2 * Math.sqrt(2 / Math.PI) };

const fused = tf.customGrad(((x: tf.Tensor, save: tf.GradSaveFunc) => {
  // Runs inside the engine's tidy: twoU is freed on return; save keeps its own references.
  const twoU = tf.engine().runKernel(GELU_PRE, { x }, GELU_ATTRS) as tf.Tensor;
  const s = tf.sigmoid(twoU);
  save([x, s]);
  return {
    value: tf.mul(x, s),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.engine().runKernel(GELU_GRAD, { dy, x: saved[0], s: saved[1] }, GELU_ATTRS) as tf.Tensor,
  };
}) as unknown as (...args: (tf.Tensor | tf.GradSaveFunc)[]) => { value: tf.Tensor; gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor }) as unknown as (
  x: tf.Tensor,
) => tf.Tensor;

/** Does the active backend have both fused kernels? */
export function hasFusedGelu(): boolean {
  const backend = tf.getBackend();
  return !!tf.getKernel(GELU_PRE, backend) && !!tf.getKernel(GELU_GRAD, backend);
}

/** GELU (tanh approximation, as layers.ts's gelu, bit for bit): fused where the backend can. */
export function gelu(x: tf.Tensor): tf.Tensor {
  return x.dtype === 'float32' && hasFusedGelu() ? fused(x) : geluOps(x);
}
