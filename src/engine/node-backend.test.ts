import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { findSwiftShaderDir, initNodeBackend, releaseNodeWebGPU } from './node-backend';
import { probeLooksRight, runProbe } from './probe';

describe('initNodeBackend', () => {
  it('wasm: reports wasm and computes the probe correctly', async () => {
    const report = await initNodeBackend('wasm');
    expect(report).toEqual({ backend: 'wasm', adapter: null, reason: null, tried: [{ name: 'wasm', ok: true }] });
    expect(tf.getBackend()).toBe('wasm');
    const r = await runProbe();
    expect(probeLooksRight(r)).toBe(true);
  });

  it('cpu: same numbers as wasm', async () => {
    await initNodeBackend('wasm');
    const onWasm = await runProbe();
    const report = await initNodeBackend('cpu');
    expect(report.backend).toBe('cpu');
    const onCpu = await runProbe();
    expect(onCpu.lossBefore).toBeCloseTo(onWasm.lossBefore, 5);
    expect(onCpu.lossAfter).toBeCloseTo(onWasm.lossAfter, 5);
  });

  it('webgpu without an adapter falls back to wasm and says why', async () => {
    const report = await initNodeBackend('webgpu', { swiftshader: 'always', swiftshaderDir: '/nonexistent' });
    expect(report.backend).toBe('wasm');
    expect(report.tried[0]).toMatchObject({ name: 'webgpu', ok: false });
    expect(report.reason).toMatch(/no WebGPU adapter/);
    expect(tf.getBackend()).toBe('wasm');
  });

  it('webgpu with fallback: false throws instead', async () => {
    await expect(
      initNodeBackend('webgpu', { swiftshader: 'always', swiftshaderDir: '/nonexistent', fallback: false }),
    ).rejects.toThrow(/initNodeBackend\(webgpu\): .*no WebGPU adapter/);
  });

  // Needs Chromium's SwiftShader (apt-get install chromium) or a GPU with a Vulkan driver.
  it.skipIf(!findSwiftShaderDir() && !process.env.VK_ICD_FILENAMES)(
    'webgpu via Dawn: runs the probe with the same numbers as wasm',
    async () => {
      await initNodeBackend('wasm');
      const onWasm = await runProbe();
      const report = await initNodeBackend('webgpu');
      expect(report.backend).toBe('webgpu');
      expect(report.reason).toBeNull();
      expect(report.adapter).toBeTruthy();
      const onGpu = await runProbe();
      expect(probeLooksRight(onGpu)).toBe(true);
      expect(onGpu.lossBefore).toBeCloseTo(onWasm.lossBefore, 4);
      expect(onGpu.lossAfter).toBeCloseTo(onWasm.lossAfter, 4);
    },
  );

  afterAll(async () => {
    // Let the worker process end without process.exit().
    await releaseNodeWebGPU();
  });
});
