/**
 * A whole run on the lab's own kernels (Pack, Cast, Sum, the fused GELU
 * and LabLayerNorm) and on tfjs's own: the same summary byte for byte, which is what a result file
 * holds of the run. The kernels' own tests check them op by op; this checks that nothing between
 * them (the tape's order, a saved tensor, a shared buffer) changes a number.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initNodeBackend } from '../node-backend';
import { runJson } from './wholeRun.testkit';
import { useOurWasmKernels } from '../wasmKernels';

const NAMES = ['Pack', 'Cast', 'Sum', 'LabGeluPre', 'LabGeluGrad', 'LabLayerNorm'];

beforeAll(async () => {
  await initNodeBackend('wasm', { fallback: false });
});
afterAll(() => useOurWasmKernels(true));


describe("the lab's wasm kernels in a whole run", () => {
  it.each(['peers-teach', 'collapse'] as const)('%s: 3 RL steps and an evaluation, the same summary byte for byte as on tfjs\'s kernels', async (caseId) => {
    useOurWasmKernels(true);
    expect(tf.getKernel('LabLayerNorm', 'wasm')).toBeDefined();
    const ours = await runJson(caseId);
    useOurWasmKernels(false, NAMES);
    expect(tf.getKernel('LabGeluPre', 'wasm')).toBeUndefined();
    const theirs = await runJson(caseId);
    useOurWasmKernels(true, NAMES);
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours).toBe(theirs);
  });
});
