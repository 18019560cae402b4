import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { useBackend } from '../testing/fixed-policy';
import { gpuPrototypesFrom, installCounters, type GpuPrototypes } from './counters';

describe('installCounters on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('counts one kernel per op: tf.add + tf.matMul is exactly 2', () => {
    const a = tf.tensor2d([1, 2, 3, 4], [2, 2]);
    const b = tf.tensor2d([5, 6, 7, 8], [2, 2]);
    const c = installCounters({ gpu: null });
    const y = tf.matMul(tf.add(a, b), b);
    const n = c.snapshot();
    c.uninstall();
    expect(n.kernels).toBe(2);
    expect([...c.kernelNames()].sort()).toEqual([['Add', 1], ['BatchMatMul', 1]]);
    expect(n.readbacks).toBe(0);
    tf.dispose([a, b, y]);
  });

  it('counts backward kernels: the gradient of tf.neg is one forward and one backward Neg', () => {
    const x = tf.tensor1d([1, 2, 3]);
    const c = installCounters({ gpu: null });
    const g = tf.grad((v: tf.Tensor) => tf.neg(v))(x);
    const n = c.snapshot();
    c.uninstall();
    expect(n.kernels).toBe(2);
    expect(c.kernelNames().get('Neg')).toBe(2);
    tf.dispose([x, g]);
  });

  it('counts readbacks: data(), dataSync(), array() and arraySync() one each', async () => {
    const x = tf.tensor1d([1, 2, 3]);
    const c = installCounters({ gpu: null });
    await x.data();
    x.dataSync();
    await x.array();
    x.arraySync();
    const n = c.snapshot();
    c.uninstall();
    expect(n.readbacks).toBe(4);
    expect(n.kernels).toBe(0);
    x.dispose();
  });

  it('tracks the peak of tf.memory().numBytes at kernels', () => {
    const c = installCounters({ gpu: null });
    const before = tf.memory().numBytes;
    const big = tf.zeros([1000]); // 4000 bytes (Fill is a kernel)
    const y = tf.add(big, 1);
    big.dispose();
    y.dispose();
    const n = c.snapshot();
    c.uninstall();
    expect(n.peakBytes).toBeGreaterThanOrEqual(before + 8000);
    expect(tf.memory().numBytes).toBe(before);
  });

  it('restores the engine: nothing is counted after uninstall, and nested counters both count once', () => {
    const engine = tf.engine() as unknown as Record<string, unknown>;
    const original = engine.runKernelFunc;
    const outer = installCounters({ gpu: null });
    const inner = installCounters({ gpu: null });
    tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(2)));
    inner.uninstall();
    tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(2)));
    outer.uninstall();
    tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(2)));
    expect(inner.snapshot().kernels).toBe(1);
    expect(outer.snapshot().kernels).toBe(2);
    expect(engine.runKernelFunc).toBe(original);
  });

  it('counts GPU calls on the prototypes it is given (dispatches, submits, READ maps only)', async () => {
    class Pass {
      dispatchWorkgroups(_x: number) {}
    }
    class Queue {
      submit(_b: unknown[]) {}
    }
    class Buffer {
      async mapAsync(_mode: number) {}
    }
    const gpu: GpuPrototypes = {
      computePass: Pass.prototype,
      queue: Queue.prototype,
      buffer: Buffer.prototype,
      mapRead: 1,
    };
    const c = installCounters({ gpu });
    const pass = new Pass();
    pass.dispatchWorkgroups(1);
    pass.dispatchWorkgroups(2);
    pass.dispatchWorkgroups(3);
    new Queue().submit([]);
    await new Buffer().mapAsync(1); // READ
    await new Buffer().mapAsync(2); // WRITE: not a readback
    c.uninstall();
    pass.dispatchWorkgroups(4);
    const n = c.snapshot();
    expect(n).toMatchObject({ dispatches: 3, submits: 1, gpuReadbacks: 1 });
    expect(Object.prototype.hasOwnProperty.call(Pass.prototype, 'dispatchWorkgroups')).toBe(true);
  });

  it('finds no GPU prototypes in a scope without WebGPU or WebGL', () => {
    const p = gpuPrototypesFrom({});
    expect(p.computePass).toBeUndefined();
    expect(p.queue).toBeUndefined();
    expect(p.buffer).toBeUndefined();
    expect(p.gl).toEqual([]);
  });
});
