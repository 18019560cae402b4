/**
 * The transformer's KV cache written in place (issue 32), where the backend has the lab's two
 * cache kernels (the wasm backend: src/engine/kernels/kvCache.ts) and no gradient is recorded;
 * elsewhere (webgpu, webgl, cpu, under a tape) transformer.ts concatenates one position per token.
 *
 * The cache of a layer is one tensor [K*N, H, maxLen, hd] per K and V, made by the prefill
 * (LabKVNew: the prompt's keys, zeros after them) and then written one position per decoded token:
 *   - LabKVWrite copies the new position's rows into the cache's own data and returns a tensor
 *     that shares that data (one more reference, as our wasm Identity does), so the decoding
 *     loop's usual "dispose the old state, keep the new" frees nothing it still needs;
 *   - LabCacheMatMul multiplies by the written prefix [.., :length, :] of the cache, read through
 *     strides where it lies (the same batched product and sums as on a concatenated copy).
 *
 * OWNERSHIP: the cache's data belongs to the decoding loop alone (rollout.ts's sampleStack: each
 * state is handed to decode once and then disposed). A write changes every tensor that shares
 * the data, i.e. the earlier states of the same rollout, which nobody reads again. So a state
 * must not be decoded twice, nor kept and read after the next decode; nothing else gets a
 * reference to the data (the products read it; no tape records them: see `inPlace`).
 */
import * as tf from '@tensorflow/tfjs';

export const KV_NEW = 'LabKVNew';
export const KV_WRITE = 'LabKVWrite';
export const CACHE_MATMUL = 'LabCacheMatMul';

/** Whether this decoding may keep its cache in place: our kernels are registered and no tape records. */
export function inPlace(): boolean {
  const backend = tf.getBackend();
  return tf.engine().state.gradientDepth === 0 && [KV_NEW, KV_WRITE, CACHE_MATMUL].every((name) => !!tf.getKernel(name, backend));
}

/** The prefill's keys or values x [B, H, P, hd] as a fresh cache [B, H, maxLen, hd] (zeros after P). */
export function newCache(x: tf.Tensor, maxLen: number): tf.Tensor {
  // Our kernel, not tf.pad: tfjs-wasm's PadV2 took 0.8 ms a call at [896, 4, 7, 8] (bench:ops --profile-kernels).
  return tf.engine().runKernel(KV_NEW, { x }, { length: maxLen }) as tf.Tensor;
}

/** Write x [B, H, 1, hd] at position `pos` of `cache` in place: a tensor sharing the cache's data. */
export function writeCache(cache: tf.Tensor, x: tf.Tensor, pos: number): tf.Tensor {
  return tf.engine().runKernel(KV_WRITE, { cache, x }, { pos }) as tf.Tensor;
}

/**
 * a @ cache[:, :, :length, :] (transposeB: a @ its transpose): the attention's q k^T and att v
 * over the positions written so far.
 */
export function cacheMatMul(a: tf.Tensor, cache: tf.Tensor, length: number, transposeB: boolean): tf.Tensor {
  return tf.engine().runKernel(CACHE_MATMUL, { a, cache }, { length, transposeB }) as tf.Tensor;
}
