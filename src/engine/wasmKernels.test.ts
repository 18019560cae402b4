import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../core/random';
import { copySlice, installWasmKernels, withTfjsWasmKernels } from './wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  installWasmKernels();
});

/** A random shape of the given rank (extents 1-5) and a random slice of it. */
function randomCase(rng: Rng, rank: number) {
  const shape = Array.from({ length: rank }, () => 1 + Math.floor(rng.next() * 5));
  const begin = shape.map((d) => Math.floor(rng.next() * d));
  const size = shape.map((d, i) => 1 + Math.floor(rng.next() * (d - begin[i])));
  return { shape, begin, size };
}

/** Run `f` on ours and on tfjs's kernels; return both results as plain arrays, tensors disposed. */
function both(f: () => tf.Tensor | tf.Tensor[]) {
  const read = (r: tf.Tensor | tf.Tensor[]) => {
    const list = Array.isArray(r) ? r : [r];
    const out = list.map((t) => ({ shape: t.shape, dtype: t.dtype, values: Array.from(t.dataSync()) }));
    tf.dispose(list);
    return out;
  };
  return { ours: read(f()), theirs: withTfjsWasmKernels(() => read(f())) };
}

describe('wasm Slice, SplitV and Unpack read their input in place', () => {
  it('copySlice takes the right elements (hand-checked)', () => {
    // [[0 1 2], [3 4 5], [6 7 8]] rows 1-2, columns 1-2 -> 4 5 7 8
    const src = Float32Array.from({ length: 9 }, (_, i) => i);
    const dst = new Float32Array(4);
    copySlice(src, [3, 3], dst, [1, 1], [2, 2]);
    expect(Array.from(dst)).toEqual([4, 5, 7, 8]);
    // Whole rows merge into one run: rows 1-2 of the same matrix.
    const rows = new Float32Array(6);
    copySlice(src, [3, 3], rows, [1, 0], [2, 3]);
    expect(Array.from(rows)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it('is registered on wasm', () => {
    const x = tf.tensor2d([[1, 2, 3], [4, 5, 6]]);
    const y = tf.slice(x, [0, 1], [2, 2]);
    expect(Array.from(y.dataSync())).toEqual([2, 3, 5, 6]);
    tf.dispose([x, y]);
  });

  it('equals tfjs-backend-wasm bit for bit on 300 random slices of rank 1-6, float32 and int32', () => {
    const rng = new Rng(7);
    for (let n = 0; n < 300; n++) {
      const { shape, begin, size } = randomCase(rng, 1 + (n % 6));
      const count = shape.reduce((a, b) => a * b, 1);
      const dtype = n % 3 === 0 ? 'int32' : 'float32';
      const x = tf.tensor(Float32Array.from({ length: count }, () => rng.next() * 100 - 50), shape, 'float32').cast(dtype);
      const { ours, theirs } = both(() => tf.slice(x, begin, size));
      expect(ours).toEqual(theirs);
      x.dispose();
    }
  });

  it('equals tfjs on splits along every axis and on unstack, and keeps bool and empty slices', () => {
    const rng = new Rng(11);
    for (let n = 0; n < 60; n++) {
      const rank = 1 + (n % 4);
      const shape = Array.from({ length: rank }, () => 2 + Math.floor(rng.next() * 4));
      const axis = n % rank;
      const x = tf.randomUniform(shape, -1, 1, 'float32', n);
      const a = both(() => tf.split(x, [1, shape[axis] - 1], axis));
      expect(a.ours).toEqual(a.theirs);
      const b = both(() => tf.unstack(x, axis));
      expect(b.ours).toEqual(b.theirs);
      x.dispose();
    }
    const flags = tf.tensor2d([[1, 0, 1], [0, 1, 1]]).cast('bool');
    const c = both(() => tf.slice(flags, [1, 0], [1, 3]));
    expect(c.ours).toEqual(c.theirs);
    expect(c.ours[0].values).toEqual([0, 1, 1]);
    const d = both(() => tf.slice(flags, [0, 1], [2, 0]));
    expect(d.ours).toEqual(d.theirs);
    flags.dispose();
  });

  it('leaks no tensor and gives gradients as before', () => {
    const before = tf.memory().numTensors;
    const x = tf.randomNormal([4, 6], 0, 1, 'float32', 3);
    const grad = (t: tf.Tensor) => tf.grad((v: tf.Tensor) => tf.sum(tf.square(tf.slice(v, [1, 2], [2, 3]))))(t);
    const { ours, theirs } = both(() => grad(x));
    expect(ours).toEqual(theirs);
    x.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('wasm Identity shares its input', () => {
  it('a clone reads the same values without a copy, and outlives its source', () => {
    const buffers = tf.memory().numDataBuffers;
    const x = tf.tensor2d([[1, 2, 3], [4, 5, 6]]);
    const y = tf.clone(x);
    // One buffer for both: the clone added a tensor, not a buffer.
    expect(tf.memory().numDataBuffers).toBe(buffers + 1);
    x.dispose();
    expect(Array.from(y.dataSync())).toEqual([1, 2, 3, 4, 5, 6]);
    y.dispose();
    expect(tf.memory().numDataBuffers).toBe(buffers);
    // tfjs's own Identity copies: two buffers.
    withTfjsWasmKernels(() => {
      const a = tf.tensor1d([1, 2]);
      const b = tf.clone(a);
      expect(tf.memory().numDataBuffers).toBe(buffers + 2);
      tf.dispose([a, b]);
    });
  });

  it('gives a GRPO-like loss the same gradients and updates as tfjs-wasm, bit for bit, leaking nothing', () => {
    const before = tf.memory().numTensors;
    const x = tf.randomNormal([8, 6], 0, 1, 'float32', 8);
    const adv = tf.randomNormal([8], 0, 1, 'float32', 9);
    // Two Adam steps from the same start; every op saves tensors for its gradient, which the tape clones (Identity).
    const train = () => {
      const w = tf.variable(tf.tidy(() => tf.randomNormal([6, 5], 0, 1, 'float32', 7)));
      const opt = tf.train.adam(0.01);
      const loss = () => tf.neg(tf.mean(tf.mul(tf.max(tf.logSoftmax(tf.matMul(x, w)), 1), adv))) as tf.Scalar;
      const after = [0, 1].map(() => {
        opt.minimize(loss);
        return Array.from(w.dataSync());
      });
      opt.dispose();
      w.dispose();
      return after;
    };
    const held = () => tf.memory().numTensors;
    const start = held();
    const ours = train();
    // tfjs's Adam keeps one tensor after dispose, whichever kernels run: ours may add none.
    const oursLeft = held() - start;
    expect(ours[1]).not.toEqual(ours[0]);
    expect(ours).toEqual(withTfjsWasmKernels(train));
    expect(held() - start).toBe(2 * oursLeft);
    expect(oursLeft).toBeLessThanOrEqual(1);
    tf.dispose([x, adv]);
    expect(held()).toBe(before + 2 * oursLeft);
  });
});

describe('wasm Sum over middle axes sums in place', () => {
  it("equals tfjs's kernel bit for bit on 200 random sums: rank 1-5, any ascending block of axes, keepDims, order-sensitive values", () => {
    const rng = new Rng(21);
    const bitsOf = (t: tf.Tensor) => {
      const out = { shape: t.shape, bits: Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer)) };
      t.dispose();
      return out;
    };
    for (let n = 0; n < 200; n++) {
      const rank = 1 + (n % 5);
      const shape = Array.from({ length: rank }, () => 1 + Math.floor(rng.next() * (n % 7 === 0 && rank <= 3 ? 40 : 6)));
      const first = Math.floor(rng.next() * rank);
      const last = first + Math.floor(rng.next() * (rank - first));
      const axes = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      const count = shape.reduce((a, b) => a * b, 1);
      // Magnitudes 1e-4 to 1e4 and both signs: a sum in another order rounds differently.
      const x = tf.tensor(Float32Array.from({ length: count }, (_, i) => (i % 11 === 3 ? -0 : (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 9 - 4))), shape);
      const keepDims = n % 3 === 0;
      const axis = axes.length === 1 && n % 2 === 0 ? axes[0] - rank : axes; // a negative axis too
      const ours = bitsOf(tf.sum(x, axis, keepDims));
      const theirs = withTfjsWasmKernels(() => bitsOf(tf.sum(x, axis, keepDims)));
      expect(ours, `case ${n}: [${shape}] over ${axes}, keepDims ${keepDims}`).toEqual(theirs);
      x.dispose();
    }
  });

  it("gives a broadcast bias's gradient as tfjs does", () => {
    const x = tf.randomNormal([7, 300, 32], 0, 1, 'float32', 4);
    const b = tf.randomNormal([7, 1, 32], 0, 1, 'float32', 5);
    const f = () => tf.tidy(() => Array.from(tf.grad((v: tf.Tensor) => tf.sum(tf.square(tf.add(x, v))))(b).dataSync()));
    expect(f()).toEqual(withTfjsWasmKernels(f));
    tf.dispose([x, b]);
  });
});

describe('wasm Cast to the same dtype shares its input', () => {
  it('no new buffer for float32, int32 and bool kept as they are; other casts convert as tfjs does', () => {
    const buffers = tf.memory().numDataBuffers;
    const xs = [tf.tensor1d([1.5, -0, -2.25, NaN]), tf.tensor1d([3, -4], 'int32'), tf.tensor1d([true, false], 'bool')];
    const same = xs.map((x) => tf.cast(x, x.dtype));
    expect(tf.memory().numDataBuffers).toBe(buffers + 3);
    tf.dispose(xs);
    expect(same.map((t) => Array.from(t.dataSync()))).toEqual([[1.5, -0, -2.25, NaN], [3, -4], [1, 0]]);
    tf.dispose(same);
    expect(tf.memory().numDataBuffers).toBe(buffers);
    // tfjs's own Cast copies.
    withTfjsWasmKernels(() => {
      const a = tf.tensor1d([1, 2]);
      const b = tf.cast(a, 'float32');
      expect(tf.memory().numDataBuffers).toBe(buffers + 2);
      tf.dispose([a, b]);
    });
    const x = tf.tensor1d([1.7, -2.5, 0, 3]);
    for (const dtype of ['int32', 'bool'] as const) {
      const r = both(() => tf.cast(x, dtype));
      expect(r.ours).toEqual(r.theirs);
    }
    const r = both(() => tf.cast(tf.tensor1d([2, 0, -1], 'int32'), 'float32'));
    expect(r.ours).toEqual(r.theirs);
    x.dispose();
  });
});

describe('wasm Concat copies rows in WebAssembly', () => {
  /** Raw bits (a NaN's payload and -0 must survive the copy too); the tensor is disposed. */
  const raw = (t: tf.Tensor) => {
    const v = t.dataSync();
    const out = { shape: t.shape, dtype: t.dtype, bits: Array.from(v instanceof Float32Array ? new Uint32Array(v.slice().buffer) : v) };
    t.dispose();
    return out;
  };

  it("equals tfjs's kernel bit for bit on 200 random concats: rank 1-4, any axis, 2-4 inputs, float32 (odd NaNs, -0), int32, bool, empty parts", () => {
    const rng = new Rng(32);
    const odd = new Float32Array(new Uint32Array([0x7fc01234, 0xffc00000, 0x80000000]).buffer);
    for (let n = 0; n < 200; n++) {
      const rank = 1 + (n % 4);
      const axis = Math.floor(rng.next() * rank);
      const base = Array.from({ length: rank }, () => 1 + Math.floor(rng.next() * 5));
      const parts = 2 + Math.floor(rng.next() * 3);
      const dtype = (['float32', 'float32', 'int32', 'bool'] as const)[n % 4];
      const xs = Array.from({ length: parts }, (_, i) => {
        const shape = [...base];
        shape[axis] = n % 9 === 0 && i === 1 ? 0 : 1 + Math.floor(rng.next() * (n % 5 === 0 ? 90 : 6)); // long rows too
        const count = shape.reduce((a, b) => a * b, 1);
        const v = Float32Array.from({ length: count }, (_, j) => (j % 13 === 5 ? odd[j % 3] : rng.next() * 10 - 5));
        return tf.tidy(() => (dtype === 'float32' ? tf.tensor(v, shape) : tf.tensor(v, shape).greater(0).cast(dtype)));
      });
      const ours = raw(tf.concat(xs, axis));
      const theirs = withTfjsWasmKernels(() => raw(tf.concat(xs, axis)));
      expect(ours, `case ${n}`).toEqual(theirs);
      tf.dispose(xs);
    }
  });

  it("Pack (tf.stack) runs it too: tfjs's results bit for bit on 100 random stacks, any axis (negative too), 1-7 inputs, float32, int32, bool", () => {
    const rng = new Rng(8);
    const odd = new Float32Array(new Uint32Array([0x7fc01234, 0xffc00000, 0x80000000]).buffer);
    for (let n = 0; n < 100; n++) {
      const rank = n % 4;
      const shape = Array.from({ length: rank }, () => (n % 11 === 0 ? 0 : 1 + Math.floor(rng.next() * 5)));
      const axis = Math.floor(rng.next() * (rank + 1)) - (n % 3 === 0 ? rank + 1 : 0);
      const dtype = (['float32', 'float32', 'int32', 'bool'] as const)[n % 4];
      const count = shape.reduce((a, b) => a * b, 1);
      const xs = Array.from({ length: 1 + (n % 7) }, () => {
        const v = Float32Array.from({ length: count }, (_, j) => (j % 7 === 3 ? odd[j % 3] : rng.next() * 10 - 5));
        return tf.tidy(() => (dtype === 'float32' ? tf.tensor(v, shape) : tf.tensor(v, shape).greater(0).cast(dtype)));
      });
      const ours = raw(tf.stack(xs, axis));
      const theirs = withTfjsWasmKernels(() => raw(tf.stack(xs, axis)));
      expect(ours, `case ${n}: ${xs.length} x [${shape}], axis ${axis}`).toEqual(theirs);
      tf.dispose(xs);
    }
  });

  it("appends a KV cache's position as tfjs does, and its gradient splits it back", () => {
    const cache = tf.randomNormal([6, 4, 7, 8], 0, 1, 'float32', 1);
    const next = tf.randomNormal([6, 4, 1, 8], 0, 1, 'float32', 2);
    const f = () => {
      const g = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(tf.mul(tf.concat([a, b], 2), tf.concat([a, b], 2))));
      const [da, db] = g([cache, next]);
      return [raw(tf.concat([cache, next], 2)), raw(da), raw(db)];
    };
    const before = tf.memory().numTensors;
    expect(f()).toEqual(withTfjsWasmKernels(f));
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([cache, next]);
  });
});
