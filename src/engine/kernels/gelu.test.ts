/**
 * The fused GELU (src/core/models/fusedGelu.ts on ./gelu.ts's kernels) against layers.ts's gelu
 * on the same backend, bit for bit: the values, the gradient through tfjs's tape, and a whole
 * transformer's logits and parameter gradients. The JavaScript twins equal the WebAssembly.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { gelu as fusedGelu, hasFusedGelu, GELU_ATTRS } from '../../core/models/fusedGelu';
import { gelu as geluOps } from '../../core/models/layers';
import { transformerForward, transformerParams } from '../../core/models/transformer';
import type { PolicyConfig } from '../../core/models/policy';
import { installWasmKernels } from '../wasmKernels';
import { GELU_KERNELS, geluGradJs, geluPreJs } from './gelu';

beforeAll(async () => {
  await tf.setBackend('wasm');
  installWasmKernels();
});
afterAll(() => tf.setBackend('wasm'));

const bits = (t: tf.Tensor) => Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer));

/** Run `fn` with the fused kernels unregistered: fusedGelu's gelu is then layers.ts's ops. */
function unfused<T>(fn: () => T): T {
  for (const k of GELU_KERNELS) tf.unregisterKernel(k.kernelName, 'wasm');
  try {
    return fn();
  } finally {
    for (const k of GELU_KERNELS) tf.registerKernel(k);
  }
}

/** Values of several spreads, zeros of both signs and large ones (the sigmoid saturates). */
function inputs(rng: Rng, n: number): Float32Array {
  const special = [0, -0, 1, -1, 8, -8, 30, -30, 100, -100, 1e-30, -1e-30];
  return Float32Array.from({ length: n }, (_, i) => (i < special.length ? special[i] : rng.normal() * [0.1, 1, 3, 10][i % 4]));
}

/** The value and the gradient of sum(gelu(x) * w), w random (so dy is not all ones). */
function valueAndGrad(g: (x: tf.Tensor) => tf.Tensor, x: tf.Tensor, w: tf.Tensor) {
  return tf.tidy(() => {
    const y = g(x);
    const dx = tf.grad((v: tf.Tensor) => tf.sum(tf.mul(g(v), w)))(x);
    return { y: bits(y), dx: bits(dx) };
  });
}

describe('the fused GELU on wasm', () => {
  it('is registered on wasm and not on cpu', async () => {
    expect(hasFusedGelu()).toBe(true);
    await tf.setBackend('cpu');
    expect(hasFusedGelu()).toBe(false);
    await tf.setBackend('wasm');
  });

  it("equals layers.ts's gelu bit for bit: values and gradients, any length (SIMD and tail)", () => {
    const rng = new Rng(32);
    for (const n of [1, 3, 4, 5, 13, 64, 4099]) {
      const x = tf.tensor1d(inputs(rng, n));
      const w = tf.tensor1d(inputs(rng, n));
      const ours = valueAndGrad(fusedGelu, x, w);
      const theirs = valueAndGrad(geluOps, x, w);
      expect(ours.y, `values, n = ${n}`).toEqual(theirs.y);
      expect(ours.dx, `gradients, n = ${n}`).toEqual(theirs.dx);
      tf.dispose([x, w]);
    }
  });

  it('fails before: a kernel whose gradient sums in another order differs from the tape', () => {
    // The same terms summed as acc + 2 t instead of (acc + t) + t: what the test above would catch.
    const rng = new Rng(5);
    const x = inputs(rng, 4096);
    const dy = inputs(rng, 4096);
    const s = tf.tidy(() => tf.sigmoid(tf.mul(tf.add(tf.tensor1d(x), tf.mul(tf.mul(tf.mul(tf.tensor1d(x), tf.tensor1d(x)), tf.tensor1d(x)), GELU_ATTRS.c1)), GELU_ATTRS.c2)).dataSync() as Float32Array);
    const exact = new Float32Array(4096);
    geluGradJs(dy, x, s, exact, GELU_ATTRS.c1, GELU_ATTRS.c2);
    const tape = tf.tidy(() => tf.grad((v: tf.Tensor) => tf.sum(tf.mul(geluOps(v), tf.tensor1d(dy))))(tf.tensor1d(x)).dataSync() as Float32Array);
    expect(Array.from(exact)).toEqual(Array.from(tape));
    const fr = Math.fround;
    const reordered = exact.map((_, i) => {
      const [d, v, g] = [dy[i], x[i], s[i]];
      const dinner = fr(fr(fr(d * v) * fr(g * fr(1 - g))) * fr(GELU_ATTRS.c2));
      const dcube = fr(dinner * fr(GELU_ATTRS.c1));
      const t = fr(fr(dcube * v) * v);
      return fr(fr(fr(fr(d * g) + dinner) + fr(dcube * fr(v * v))) + fr(2 * t));
    });
    expect(Array.from(reordered)).not.toEqual(Array.from(tape));
  });

  it('the JavaScript twins equal the WebAssembly kernels', () => {
    const rng = new Rng(7);
    const n = 1027;
    const [x, dy] = [inputs(rng, n), inputs(rng, n)];
    const pre = new Float32Array(n);
    geluPreJs(x, pre, GELU_ATTRS.c1, GELU_ATTRS.c2);
    const s = Float32Array.from(pre, (u) => 1 / (1 + Math.exp(-u)));
    const grad = new Float32Array(n);
    geluGradJs(dy, x, s, grad, GELU_ATTRS.c1, GELU_ATTRS.c2);
    const wasmPre = tf.tidy(() => tf.engine().runKernel('LabGeluPre', { x: tf.tensor1d(x) }, GELU_ATTRS) as tf.Tensor);
    const wasmGrad = tf.tidy(() => tf.engine().runKernel('LabGeluGrad', { dy: tf.tensor1d(dy), x: tf.tensor1d(x), s: tf.tensor1d(s) }, GELU_ATTRS) as tf.Tensor);
    expect(bits(wasmPre)).toEqual(Array.from(new Uint32Array(pre.buffer)));
    expect(bits(wasmGrad)).toEqual(Array.from(new Uint32Array(grad.buffer)));
    tf.dispose([wasmPre, wasmGrad]);
  });

  it("a transformer (2 models, d32, 2 blocks, 4 heads): the same logits and parameter gradients, bit for bit", () => {
    const config: PolicyConfig = { family: 'transformer', vocabSize: 18, maxLen: 14, dModel: 32, layers: 2, heads: 4 };
    const K = 2;
    const rng = new Rng(11);
    const specs = transformerParams(config);
    const params = Object.fromEntries(specs.map((p) => [p.name, tf.tensor(Float32Array.from({ length: K * p.shape.reduce((a, b) => a * b, 1) }, () => rng.normal() * 0.3), [K, ...p.shape])]));
    const tokens = tf.tensor3d(Int32Array.from({ length: K * 6 * 14 }, () => Math.floor(rng.next() * 18)), [K, 6, 14], 'int32');
    const run = () =>
      tf.tidy(() => {
        const names = Object.keys(params);
        const f = (...vs: tf.Tensor[]) => {
          const p = Object.fromEntries(names.map((n, i) => [n, vs[i]]));
          return tf.sum(tf.square(transformerForward(p, tokens, config, 3)));
        };
        const { value, grads } = tf.valueAndGrads(f)(names.map((n) => params[n]));
        return [bits(value), ...grads.map(bits)];
      });
    const theirs = unfused(run); // also builds the causal mask, which layers.ts keeps
    const before = tf.memory().numTensors;
    const ours = run();
    expect(ours).toEqual(theirs);
    expect(tf.memory().numTensors, 'tensors left by the fused run').toBe(before);
    tf.dispose([...Object.values(params), tokens]);
  });
});
