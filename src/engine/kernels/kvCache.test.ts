/**
 * The KV cache written in place (kvCache.ts, src/core/models/transformerKvCache.ts) against the
 * concatenated cache: the same logits and keys bit for bit at every step, the same whole rollout,
 * and no tensor or byte left behind across rollouts.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { createPolicy, ModelStack, stackOf, type PolicyConfig } from '../../core/models/index';
import { transformerDecode, transformerParams, transformerPrefill } from '../../core/models/transformer';
import { CACHE_MATMUL, KV_NEW, KV_WRITE } from '../../core/models/transformerKvCache';
import { sampleStack } from '../../core/rollout';
import { digitsumTask } from '../../core/tasks/digitsum';
import { VOCAB_SIZE, encodePrompt } from '../../core/tasks/tokenizer';
import { initNodeBackend } from '../node-backend';
import { useOurWasmKernels, withTfjsWasmKernels } from '../wasmKernels';

const CACHE = [KV_NEW, KV_WRITE, CACHE_MATMUL];

beforeAll(async () => {
  await initNodeBackend('wasm', { fallback: false });
});
afterAll(() => useOurWasmKernels(true));

/** fn with the cache kernels unregistered: the transformer concatenates (our other kernels stay). */
function concatenating<T>(fn: () => T): T {
  useOurWasmKernels(false, CACHE);
  try {
    return fn();
  } finally {
    useOurWasmKernels(true, CACHE);
  }
}

const bits = (t: tf.Tensor) => Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer));

describe('the KV cache written in place (wasm)', () => {
  it('decoding to maxLen (3 models, d32, 2 blocks, 4 heads, random weights): the same logits and cached keys and values bit for bit as concatenating', () => {
    const config: PolicyConfig = { family: 'transformer', vocabSize: 18, maxLen: 13, dModel: 32, layers: 2, heads: 4 };
    const K = 3, N = 5, P = 4;
    const rng = new Rng(21);
    const params = Object.fromEntries(
      transformerParams(config).map((p) => [p.name, tf.tensor([...Array(K * p.shape.reduce((a, b) => a * b, 1))].map(() => rng.normal() * 0.4), [K, ...p.shape])]),
    );
    const prompt = tf.tensor3d(Int32Array.from({ length: K * N * P }, () => Math.floor(rng.next() * 18)), [K, N, P], 'int32');
    // Every step's logits and each layer's cache over the positions written, read at once
    // (an in-place cache's earlier states change with the next write).
    const decode = () =>
      tf.tidy(() => {
        const out: number[][] = [];
        const written = (step: { state: tf.Tensor[] }, t: number) =>
          (step.state as tf.Tensor4D[]).map((c) => bits(tf.slice(c, [0, 0, 0, 0], [c.shape[0], c.shape[1], t, c.shape[3]])));
        let step = transformerPrefill(params, prompt, config);
        out.push([(step.state[0] as tf.Tensor4D).shape[2]]);
        for (let pos = P; pos < config.maxLen; pos++) {
          out.push(bits(step.logits), ...written(step, pos));
          const token = tf.cast(tf.argMax(step.logits, 2), 'int32') as tf.Tensor2D;
          step = transformerDecode(params, step.state, token, pos, config);
        }
        out.push(bits(step.logits), ...written(step, config.maxLen));
        return out;
      });
    const theirs = concatenating(decode);
    const ours = decode();
    expect(theirs[0]).toEqual([P]); // concatenated: the prompt's length
    expect(ours[0]).toEqual([config.maxLen]); // in place: one buffer of maxLen
    expect(ours.slice(1)).toEqual(theirs.slice(1));
    expect(withTfjsWasmKernels(decode).slice(1)).toEqual(theirs.slice(1)); // and tfjs's own kernels
    tf.dispose([...Object.values(params), prompt]);
  });

  it('a whole sampled rollout (peers-teach shapes: 7 models, d32, 2 blocks, 4 heads): the same batches as concatenating, kernels in place, nothing leaked across rollouts', async () => {
    const config: PolicyConfig = { family: 'transformer', vocabSize: VOCAB_SIZE, maxLen: 16, dModel: 32, layers: 2, heads: 4 };
    const singles = [1, 2, 3, 4, 5, 6, 7].map((s) => createPolicy(config, new Rng(s, 'kv-cache-test')));
    const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
    const prompts = ['1+2+3=', '4+5+6=', '7+8+9='].map((p) => encodePrompt(p));
    const rollout = () =>
      sampleStack(stack, prompts, digitsumTask, 3, { groupSize: 4, temperature: 1, maxNewTokens: 9, rngs: singles.map((_, k) => new Rng(40 + k, 'sample')) });
    const summary = (batches: Awaited<ReturnType<typeof rollout>>) =>
      JSON.stringify(batches.map((b) => [b.completionTokens, b.logProbs, b.entropies, b.certainties].map((a) => Array.from(new Uint32Array(a.slice().buffer)))));

    useOurWasmKernels(false, CACHE);
    let theirs: string;
    // tf.profile hands back the engine's one profile object each time: keep its names at once.
    const namesTheirs = (
      await tf.profile(async () => {
        theirs = summary(await rollout());
      })
    ).kernelNames.slice();
    useOurWasmKernels(true, CACHE);
    let ours: string;
    const namesOurs = (
      await tf.profile(async () => {
        ours = summary(await rollout());
      })
    ).kernelNames.slice();
    expect(ours!.length).toBeGreaterThan(1000);
    expect(ours!).toBe(theirs!);
    expect(namesTheirs).toContain('Concat');
    expect(namesTheirs).not.toContain(KV_WRITE);
    expect(namesOurs).toContain(KV_NEW);
    expect(namesOurs).toContain(KV_WRITE);
    expect(namesOurs).toContain(CACHE_MATMUL);
    expect(namesOurs).not.toContain('Concat');
    expect(namesOurs).not.toContain('PadV2');

    const before = tf.memory();
    for (let r = 0; r < 3; r++) expect(summary(await rollout())).toBe(ours!);
    const after = tf.memory();
    expect([after.numTensors, after.numDataBuffers, after.numBytes]).toEqual([before.numTensors, before.numDataBuffers, before.numBytes]);
    singles.forEach((p) => p.dispose());
    stack.dispose();
  });

  it('writes refuse positions outside the cache, and a product a prefix it does not have', () => {
    const cache = tf.zeros([2, 1, 4, 8]);
    const x = tf.ones([2, 1, 1, 8]);
    expect(() => tf.engine().runKernel(KV_WRITE, { cache, x }, { pos: 4 })).toThrow(/outside the cache's 4/);
    expect(() => tf.engine().runKernel(KV_NEW, { x: cache }, { length: 3 })).toThrow(/shorter than the 4 positions/);
    expect(() => tf.engine().runKernel(CACHE_MATMUL, { a: x, cache }, { length: 5, transposeB: true })).toThrow(/length 5 is outside 1..4/);
    tf.dispose([cache, x]);
  });
});
