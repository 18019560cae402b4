/**
 * layers.ts's layerNormK in one kernel where no gradient is being recorded and the backend has
 * the lab's LabLayerNorm (the wasm backend: src/engine/kernels/layerNorm.ts); layers.ts's ops
 * otherwise.
 *
 * layers.ts writes layer norm as about fourteen tfjs kernels (moments, a subtraction, rsqrt,
 * two products, a sum and their reshapes). The rollout's forward passes (a prefill and a decoding
 * step per token, no gradient) run it five times each on small tensors, where each kernel costs
 * mostly tfjs's per-kernel bookkeeping (bench:ops --profile-kernels). LabLayerNorm computes the
 * same float32 steps in the same order (the rsqrt by tfjs's own kernel): equal bit for bit
 * (src/engine/kernels/layerNorm.test.ts). Under a gradient tape the ops stay: a fused op's
 * gradient would sum the residual stream's gradient in another order than the tape does.
 */
import * as tf from '@tensorflow/tfjs';
import { layerNormK as layerNormOps } from './layers';

export const LAYER_NORM = 'LabLayerNorm';
/** layers.ts's default epsilon. */
const EPS = 1e-5;

/** Layer norm over the last axis with per-model gain and bias [K, D]. x [K, ..., D]. */
export function layerNormK(x: tf.Tensor, gain: tf.Tensor, bias: tf.Tensor): tf.Tensor {
  const recording = tf.engine().state.gradientDepth > 0;
  if (recording || x.dtype !== 'float32' || !tf.getKernel(LAYER_NORM, tf.getBackend())) return layerNormOps(x, gain, bias, EPS);
  return tf.engine().runKernel(LAYER_NORM, { x, gain, bias }, { eps: EPS }) as tf.Tensor;
}
