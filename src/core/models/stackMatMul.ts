/**
 * x [K, M, Din] @ w [K, Din, Dout] for a stack of K models as ONE kernel, where the backend has the
 * lab's LabStackMatMul (the wasm backend: src/engine/kernels/mlpStackMatMul.ts registers it);
 * layers.ts's matMulK uses it there instead of splitting the stack model by model.
 *
 * The split (unstack, K plain 2-D products, stack; in the gradient K more of each and an explicit
 * transpose per product) was about 650 of the ~1,500 kernel calls of a `collapse` RL step on wasm,
 * each with the engine's bookkeeping (npm run bench:ops -- --profile-kernels --case collapse). The
 * kernel runs the same K plain 2-D products on XNNPACK itself, on views of the stack's rows, and
 * its gradient is layers.ts's matMulPlainGrad per model (dx = dy @ w^T, dw = x^T @ dy, each
 * transpose an explicit copy): the same products of the same numbers, so equal bit for bit
 * (src/engine/kernels/mlpStackMatMul.test.ts checks the values and both gradients against the split).
 */
import * as tf from '@tensorflow/tfjs';

/** The kernel's name; attributes { transposeA, transposeB } as BatchMatMul's. */
export const STACK_MATMUL = 'LabStackMatMul';

/** Does the active backend have the kernel? */
export function hasStackMatMul(): boolean {
  return !!tf.getKernel(STACK_MATMUL, tf.getBackend());
}

const run = (a: tf.Tensor, b: tf.Tensor, transposeA: boolean, transposeB: boolean) =>
  tf.engine().runKernel(STACK_MATMUL, { a, b }, { transposeA, transposeB }) as tf.Tensor3D;

const fused = tf.customGrad(((x: tf.Tensor, w: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x, w]);
  return {
    value: run(x, w, false, false),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [run(dy, saved[1], false, true), run(saved[0], dy, true, false)],
  };
}) as unknown as (...args: (tf.Tensor | tf.GradSaveFunc)[]) => { value: tf.Tensor; gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => tf.Tensor[] }) as unknown as (
  x: tf.Tensor3D,
  w: tf.Tensor3D,
) => tf.Tensor3D;

/** x [K, M, Din] @ w [K, Din, Dout] -> [K, M, Dout] in one kernel (call only where hasStackMatMul()). */
export function stackMatMul(x: tf.Tensor3D, w: tf.Tensor3D): tf.Tensor3D {
  return fused(x, w);
}
