import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { causalMask, embed, gelu, initNormal, layerNorm, linear, ones, zeros } from './layers';

const close = (a: number[] | number[][], b: number[] | number[][], tol = 1e-5) =>
  (a.flat() as number[]).forEach((x, i) => expect(x).toBeCloseTo((b.flat() as number[])[i], -Math.log10(tol)));

for (const backend of ['cpu', 'wasm']) {
  describe(`layers on ${backend}`, () => {
    beforeAll(async () => {
      expect(await tf.setBackend(backend)).toBe(true);
    });

    it('layerNorm gives zero mean, unit variance, then gain and bias', async () => {
      const x = tf.tensor2d([[1, 2, 3, 4], [2, 2, 2, 6]]);
      const y = layerNorm(x, tf.tensor1d([1, 1, 2, 2]), tf.tensor1d([0, 0, 0, 1]), 0);
      // Row 1: mean 2.5, std sqrt(1.25); row 2: mean 3, std sqrt(3).
      const s1 = Math.sqrt(1.25);
      const s2 = Math.sqrt(3);
      close((await y.array()) as number[][], [
        [-1.5 / s1, -0.5 / s1, (2 * 0.5) / s1, (2 * 1.5) / s1 + 1],
        [-1 / s2, -1 / s2, (2 * -1) / s2, (2 * 3) / s2 + 1],
      ]);
    });

    it('gelu (tanh form) matches hand values', async () => {
      // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): gelu(1) = 0.841192, gelu(-1) = -0.158808.
      close(Array.from(await gelu(tf.tensor1d([0, 1, -1, 3])).data()), [0, 0.841192, -0.158808, 2.996363]);
    });

    it('embed picks table rows, like gather but as oneHot @ table', async () => {
      const table = tf.tensor2d([[0, 0], [1, 10], [2, 20]]);
      const e = embed(tf.tensor2d([[2, 0], [1, 1]], [2, 2], 'int32'), table);
      expect(e.shape).toEqual([2, 2, 2]);
      expect(await e.array()).toEqual([[[2, 20], [0, 0]], [[1, 10], [1, 10]]]);
    });

    it('linear flattens leading axes: [2, 3, 2] @ [2, 1] + b', async () => {
      const x = tf.tensor3d([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [2, 3, 2]);
      const y = linear(x, tf.tensor2d([[1], [-1]]), tf.tensor1d([10]));
      expect(y.shape).toEqual([2, 3, 1]);
      expect(Array.from(await y.data())).toEqual([9, 9, 9, 9, 9, 9]);
    });

    it('causalMask is 0 on and below the diagonal, very negative above, and cached', async () => {
      const m = causalMask(3);
      const a = (await m.array()) as number[][];
      expect(a.map((row) => row.map((v) => (v === 0 ? 0 : v <= -1e9 ? 'x' : v)))).toEqual([
        [0, 'x', 'x'],
        [0, 0, 'x'],
        [0, 0, 0],
      ]);
      expect(causalMask(3)).toBe(m); // the same tensor: no allocation per forward pass
      const before = tf.memory().numTensors;
      tf.tidy(() => causalMask(3)); // a cached mask survives a tidy
      expect(m.isDisposed).toBe(false);
      expect(tf.memory().numTensors).toBe(before);
    });

    it('init helpers are seeded and named', async () => {
      const a = initNormal(new Rng(7, 'w'), [4, 5], 0.5, `test/${backend}/a`);
      const b = initNormal(new Rng(7, 'w'), [4, 5], 0.5, `test/${backend}/b`);
      expect(a.name).toBe(`test/${backend}/a`);
      expect(await a.data()).toEqual(await b.data());
      const z = zeros([3], `test/${backend}/z`);
      const o = ones([3], `test/${backend}/o`);
      expect(Array.from(await z.data())).toEqual([0, 0, 0]);
      expect(Array.from(await o.data())).toEqual([1, 1, 1]);
      [a, b, z, o].forEach((v) => v.dispose());
    });

    it('gradients of gelu and layerNorm are finite and match finite differences', async () => {
      const f = (x: tf.Tensor) =>
        tf.sum(tf.mul(gelu(layerNorm(x, tf.tensor1d([1.5, 0.5, 1]), tf.tensor1d([0.1, 0, -0.2]))), tf.tensor1d([1, 2, 3])));
      const x0 = [0.3, -1.2, 0.8];
      const g = Array.from(await tf.grad(f)(tf.tensor1d(x0)).data());
      const h = 1e-2;
      for (let i = 0; i < 3; i++) {
        const xp = [...x0];
        const xm = [...x0];
        xp[i] += h;
        xm[i] -= h;
        const fd = ((await f(tf.tensor1d(xp)).data())[0] - (await f(tf.tensor1d(xm)).data())[0]) / (2 * h);
        expect(g[i]).toBeCloseTo(fd, 2);
      }
    });
  });
}
