import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { Adam } from './adam';
import { useBackend } from './testing/fixed-policy';

describe('Adam', () => {
  beforeAll(() => useBackend('cpu'));

  it('takes a first step of size learningRate in the direction of -sign(grad)', async () => {
    // With bias correction, step 1 gives m_hat = g and v_hat = g^2, so dx = -lr * g / (|g| + eps).
    const x = tf.variable(tf.tensor1d([1, -2, 3]));
    const adam = new Adam([x], { learningRate: 0.1 });
    const g = tf.tensor1d([0.5, -4, 0]);
    adam.applyGradients([g]);
    const after = Array.from(await x.data());
    expect(after[0]).toBeCloseTo(0.9, 5);
    expect(after[1]).toBeCloseTo(-1.9, 5);
    expect(after[2]).toBeCloseTo(3, 6);
    tf.dispose([x, g]);
    adam.dispose();
  });

  it('minimises a quadratic', async () => {
    const x = tf.variable(tf.tensor1d([3, -3]));
    const adam = new Adam([x], { learningRate: 0.1 });
    for (let i = 0; i < 300; i++) {
      const { grads } = tf.variableGrads(() => tf.sum(tf.square(x)) as tf.Scalar, [x]);
      adam.applyGradients(grads);
      tf.dispose(grads);
    }
    for (const v of await x.data()) expect(Math.abs(v)).toBeLessThan(0.05);
    x.dispose();
    adam.dispose();
  });

  it('resumes from exported state exactly', async () => {
    const run = async (split: number | null) => {
      let x = tf.variable(tf.tensor1d([1.5, -0.7, 0.2]));
      let adam = new Adam([x], { learningRate: 0.05 });
      for (let i = 0; i < 20; i++) {
        if (i === split) {
          const state = await adam.exportState();
          const values = (await x.data()).slice();
          adam.dispose();
          x.dispose();
          x = tf.variable(tf.tensor1d(values));
          adam = new Adam([x], { learningRate: 0.05 });
          adam.importState(state);
        }
        const { grads } = tf.variableGrads(() => tf.sum(tf.pow(x, 4)) as tf.Scalar, [x]);
        adam.applyGradients(grads);
        tf.dispose(grads);
      }
      const out = Array.from(await x.data());
      x.dispose();
      adam.dispose();
      return out;
    };
    expect(await run(7)).toEqual(await run(null));
  });
});
