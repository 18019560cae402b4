/**
 * LabStackMatMul against the split it replaces (layers.ts matMulK: unstack, matMulPlainGrad per
 * model, stack): values and both gradients equal bit for bit, on the MLP's and the transformer's
 * stack shapes, with no tensor left behind.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initNodeBackend } from '../node-backend';
import { runJson } from './wholeRun.testkit';
import { matMul2D } from '../../core/models/layers';
import { hasStackMatMul, stackMatMul, STACK_MATMUL } from '../../core/models/stackMatMul';
import { STACK_MATMUL_KERNELS, transposeInto } from './mlpStackMatMul';

/** The split, as matMulK computed every stack before the kernel (CPU-backend branch). */
function split(x: tf.Tensor3D, w: tf.Tensor3D): tf.Tensor3D {
  const ws = tf.unstack(w) as tf.Tensor2D[];
  return tf.stack(tf.unstack(x).map((xk, k) => matMul2D(xk as tf.Tensor2D, ws[k]))) as tf.Tensor3D;
}

function valueAndGrads(f: (x: tf.Tensor3D, w: tf.Tensor3D) => tf.Tensor3D, x: tf.Tensor3D, w: tf.Tensor3D, dy: tf.Tensor3D) {
  const ts = tf.tidy(() => {
    const g = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(f(a as tf.Tensor3D, b as tf.Tensor3D), dy)));
    return [f(x, w), ...g([x, w])];
  });
  const out = ts.map((t) => t.dataSync().slice());
  tf.dispose(ts);
  return out;
}

describe('LabStackMatMul (wasm)', () => {
  beforeAll(async () => {
    await initNodeBackend('wasm', { fallback: false });
    if (!tf.getKernel(STACK_MATMUL, 'wasm')) for (const c of STACK_MATMUL_KERNELS) tf.registerKernel(c);
  });

  it('transposes by copying', () => {
    const src = Float32Array.from({ length: 35 * 19 }, (_, i) => i * 0.5 - 3);
    const dst = new Float32Array(src.length);
    transposeInto(src, dst, 35, 19);
    for (let r = 0; r < 35; r++) for (let c = 0; c < 19; c++) expect(dst[c * 35 + r]).toBe(src[r * 19 + c]);
  });

  it.each([
    [6, 128, 108, 64], // the MLP's folded first layer in a rollout step
    [6, 1024, 64, 64], // its hidden layer in the update
    [6, 18, 64, 384], // the embedding fold
    [7, 896, 32, 128], // peers-teach's MLP block
    [2, 5, 3, 1],
  ])('K %i: [%i, %i] @ [%i, Dout]: values and both gradients equal the split bit for bit', (K, M, din, dout) => {
    expect(hasStackMatMul()).toBe(true);
    const before = tf.memory().numTensors;
    const x = tf.randomNormal([K, M, din], 0, 1, 'float32', 1) as tf.Tensor3D;
    const w = tf.randomNormal([K, din, dout], 0, 0.3, 'float32', 2) as tf.Tensor3D;
    const dy = tf.randomNormal([K, M, dout], 0, 1, 'float32', 3) as tf.Tensor3D;
    const ours = valueAndGrads(stackMatMul, x, w, dy);
    const theirs = valueAndGrads(split, x, w, dy);
    for (let i = 0; i < 3; i++) {
      expect(ours[i].length).toBe(theirs[i].length);
      let differing = 0;
      for (let j = 0; j < ours[i].length; j++) if (!Object.is(ours[i][j], theirs[i][j])) differing++;
      expect(differing, ['value', 'dx', 'dw'][i]).toBe(0);
    }
    tf.dispose([x, w, dy]);
    expect(tf.memory().numTensors).toBe(before);
  });


  it.each(['collapse', 'peers-teach'] as const)('%s: 3 RL steps and an evaluation, the same summary byte for byte with and without the kernel', async (caseId) => {
    const withKernel = await runJson(caseId);
    tf.unregisterKernel(STACK_MATMUL, 'wasm');
    try {
      expect(hasStackMatMul()).toBe(false);
      const split = await runJson(caseId);
      expect(withKernel.length).toBeGreaterThan(1000);
      expect(withKernel).toBe(split);
    } finally {
      for (const c of STACK_MATMUL_KERNELS) tf.registerKernel(c);
    }
  });
});
