/**
 * LabLayerNorm (src/core/models/fusedLayerNorm.ts on ./layerNorm.ts) against layers.ts's
 * layerNormK on wasm, bit for bit: random shapes, per-model gains, awkward values; the
 * transformer's decoding (prefill and steps) with and without it; ops under a gradient tape.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { LAYER_NORM, layerNormK as fusedLayerNorm } from '../../core/models/fusedLayerNorm';
import { layerNormK as layerNormOps } from '../../core/models/layers';
import { transformerDecode, transformerParams, transformerPrefill } from '../../core/models/transformer';
import type { PolicyConfig } from '../../core/models/policy';
import { installWasmKernels } from '../wasmKernels';
import { LAYER_NORM_KERNEL, applyNorm, rowStats } from './layerNorm';

beforeAll(async () => {
  await tf.setBackend('wasm');
  installWasmKernels();
});

const bits = (t: tf.Tensor) => Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer));

function withoutFused<T>(fn: () => T): T {
  tf.unregisterKernel(LAYER_NORM, 'wasm');
  try {
    return fn();
  } finally {
    tf.registerKernel(LAYER_NORM_KERNEL);
  }
}

function random(rng: Rng, shape: number[], f: (i: number) => number): tf.Tensor {
  return tf.tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => f(i)), shape);
}

describe('LabLayerNorm on wasm', () => {
  it("equals layers.ts's layerNormK bit for bit on 60 random cases: K 1-3, D 1-64, offsets, tiny and huge spreads", () => {
    const rng = new Rng(32);
    for (let n = 0; n < 60; n++) {
      const K = 1 + (n % 3);
      const D = [32, 1, 7, 64, 32, 13][n % 6];
      const shape = [K, 1 + Math.floor(rng.next() * 5), 1 + Math.floor(rng.next() * 4), D];
      const offset = [0, 100, -3, 1e4][n % 4];
      const spread = [1, 1e-3, 30, 1e-6, 1][n % 5];
      const x = random(rng, shape, (i) => (i % 17 === 4 ? -0 : offset + rng.normal() * spread));
      const gain = random(rng, [K, D], () => 1 + rng.normal() * 0.2);
      const bias = random(rng, [K, D], () => rng.normal() * 0.1);
      const [ours, theirs] = tf.tidy(() => [bits(fusedLayerNorm(x, gain, bias)), bits(layerNormOps(x, gain, bias))]);
      expect(ours, `case ${n}: [${shape}], offset ${offset}, spread ${spread}`).toEqual(theirs);
      tf.dispose([x, gain, bias]);
    }
  });

  it('the JavaScript twin (where our module cannot start) equals the WebAssembly', () => {
    const rng = new Rng(9);
    for (const [K, rows, D] of [[2, 6, 32], [3, 9, 7], [1, 5, 1]]) {
      const x = Float32Array.from({ length: rows * D }, () => 5 + rng.normal() * 2);
      const gain = Float32Array.from({ length: K * D }, () => 1 + rng.normal() * 0.2);
      const bias = Float32Array.from({ length: K * D }, () => rng.normal());
      const [mean, varEps, y] = [new Float32Array(rows), new Float32Array(rows), new Float32Array(rows * D)];
      rowStats(x, D, mean, varEps, 1e-5);
      const rs = tf.tidy(() => tf.rsqrt(tf.tensor1d(varEps)).dataSync() as Float32Array);
      applyNorm(x, D, mean, rs, gain, bias, y);
      const wasm = tf.tidy(() => bits(fusedLayerNorm(tf.tensor(x, [K, rows / K, D]), tf.tensor(gain, [K, D]), tf.tensor(bias, [K, D]))));
      expect(wasm, `K ${K}, rows ${rows}, D ${D}`).toEqual(Array.from(new Uint32Array(y.buffer)));
    }
  });

  it('runs as one kernel without a tape, as the ops under one (same gradients)', () => {
    const rng = new Rng(3);
    const x = random(rng, [2, 3, 5, 8], () => rng.normal());
    const gain = random(rng, [2, 8], () => 1 + rng.normal() * 0.2);
    const bias = random(rng, [2, 8], () => rng.normal());
    const kernels: string[] = [];
    const counted = () => {
      const config = tf.getKernel(LAYER_NORM, 'wasm')!;
      tf.unregisterKernel(LAYER_NORM, 'wasm');
      tf.registerKernel({ ...config, kernelFunc: ((args: never) => (kernels.push(LAYER_NORM), config.kernelFunc(args))) as tf.KernelFunc });
      return () => {
        tf.unregisterKernel(LAYER_NORM, 'wasm');
        tf.registerKernel(config);
      };
    };
    const restore = counted();
    try {
      tf.tidy(() => fusedLayerNorm(x, gain, bias));
      expect(kernels).toEqual([LAYER_NORM]);
      const f = (a: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.sum(tf.square(fusedLayerNorm(a, g, b)));
      const ours = tf.tidy(() => tf.grads(f)([x, gain, bias]).map(bits));
      expect(kernels).toEqual([LAYER_NORM]); // the tape saw the ops, not the kernel
      const theirs = tf.tidy(() => tf.grads((a: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.sum(tf.square(layerNormOps(a, g, b))))([x, gain, bias]).map(bits));
      expect(ours).toEqual(theirs);
    } finally {
      restore();
    }
    tf.dispose([x, gain, bias]);
  });

  it("a transformer's decoding (3 models, d32, 2 blocks, 4 heads): the same logits and KV cache at every step, leaking nothing", () => {
    const config: PolicyConfig = { family: 'transformer', vocabSize: 18, maxLen: 12, dModel: 32, layers: 2, heads: 4 };
    const K = 3;
    const rng = new Rng(11);
    const params = Object.fromEntries(
      transformerParams(config).map((p) => [p.name, random(rng, [K, ...p.shape], () => rng.normal() * 0.3)]),
    );
    const prompt = tf.tensor3d(Int32Array.from({ length: K * 4 * 5 }, () => Math.floor(rng.next() * 18)), [K, 4, 5], 'int32');
    const decode = () =>
      tf.tidy(() => {
        const out: number[][] = [];
        let step = transformerPrefill(params, prompt, config);
        for (let t = 0; t < 4; t++) {
          out.push(bits(step.logits), ...step.state.map(bits));
          const token = tf.cast(tf.argMax(step.logits, 2), 'int32') as tf.Tensor2D;
          step = transformerDecode(params, step.state, token, 5 + t, config);
        }
        out.push(bits(step.logits));
        return out;
      });
    const theirs = withoutFused(decode); // also builds the causal mask, which layers.ts keeps
    const before = tf.memory().numTensors;
    expect(decode()).toEqual(theirs);
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([...Object.values(params), prompt]);
  });
});
