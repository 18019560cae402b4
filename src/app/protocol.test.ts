import { describe, expect, it } from 'vitest';
import { errorHint, isActivePhase, isWorkerCommand, readBackendParam } from '../engine/protocol';
import { bannerText, emulationHint } from './run/Notices';

describe('worker protocol helpers', () => {
  it('accepts known commands only', () => {
    expect(isWorkerCommand({ type: 'pause' })).toBe(true);
    expect(isWorkerCommand({ type: 'setSpeed', stepsPerSecond: null })).toBe(true);
    expect(isWorkerCommand({ type: 'explode' })).toBe(false);
    expect(isWorkerCommand(null)).toBe(false);
    expect(isWorkerCommand('start')).toBe(false);
  });

  it('reads ?backend= and quotes an unknown value as text', () => {
    expect(readBackendParam(null)).toEqual({ warning: null });
    expect(readBackendParam('wasm')).toEqual({ preferred: 'wasm', warning: null });
    expect(readBackendParam('<img src=x>').warning).toBe('unknown backend "<img src=x>" ignored (use webgpu, webgl, wasm or cpu)');
  });

  it('knows which phases hold a run', () => {
    expect(['preparing', 'warmstart', 'rl'].every((p) => isActivePhase(p as never))).toBe(true);
    expect(['idle', 'done', 'stopped', 'error'].some((p) => isActivePhase(p as never))).toBe(false);
  });
});

describe('errorHint', () => {
  it('suggests webgl or wasm after a device loss', () => {
    const h = errorHint('A valid external Instance reference no longer exists.', 'webgpu');
    expect(h).toMatch(/\?backend=webgl or \?backend=wasm/);
    expect(errorHint('WebGPU device lost (unknown): gone', 'webgpu')).toMatch(/device was lost/);
  });
  it('suggests another backend for a missing kernel', () => {
    expect(errorHint("Kernel 'UnsortedSegmentSum' not registered for backend 'wasm'", 'wasm')).toMatch(/wasm backend lacks an operation.*\?backend=wasm/);
  });
  it('suggests a smaller cohort when memory runs out', () => {
    expect(errorHint('Failed to allocate buffer: out of memory', 'webgl')).toMatch(/smaller/);
  });
  it('always says something to do', () => {
    expect(errorHint('???', null)).toMatch(/Reset and Start again/);
  });
});

describe('bannerText', () => {
  const tried = (ok: boolean) => [{ name: 'webgpu' as const, ok, error: ok ? undefined : 'no WebGPU adapter' }];
  it('is silent on the first choice', () => {
    expect(bannerText({ backend: 'webgpu', adapter: 'swiftshader', reason: null, tried: tried(true) })).toBeNull();
  });
  it('says why WebGPU is not in use', () => {
    expect(bannerText({ backend: 'webgl', adapter: null, reason: 'no WebGPU adapter', tried: [...tried(false), { name: 'webgl', ok: true }] })).toBe(
      'WebGPU unavailable: no WebGPU adapter. Using webgl instead.',
    );
  });
  it('says when a backend was forced', () => {
    expect(bannerText({ backend: 'wasm', adapter: null, reason: 'forced by ?backend=wasm', tried: [{ name: 'wasm', ok: true }] })).toBe('Using wasm: forced by ?backend=wasm.');
  });
  it('names a forced webgpu too', () => {
    expect(bannerText({ backend: 'webgpu', adapter: 'swiftshader', reason: null, tried: tried(true) }, 'webgpu')).toBe('Using webgpu: forced by ?backend=webgpu.');
  });
});

describe('the SwiftShader hint', () => {
  const tried = [{ name: 'webgpu' as const, ok: true }];
  it('shows only for WebGPU on SwiftShader', () => {
    expect(emulationHint({ backend: 'webgpu', adapter: 'swiftshader', reason: null, tried })).toMatch(/SwiftShader, a CPU emulation/);
    expect(emulationHint({ backend: 'webgpu', adapter: 'nvidia', reason: null, tried })).toBeNull();
    expect(emulationHint({ backend: 'wasm', adapter: null, reason: null, tried })).toBeNull();
  });

  it('says Start trains on wasm instead, unless ?backend=webgpu forces WebGPU', () => {
    const report = { backend: 'webgpu', adapter: 'swiftshader', reason: null, tried };
    expect(emulationHint(report)).toMatch(/Start trains on wasm instead: a CPU emulation of a GPU never beats it/);
    expect(emulationHint(report, 'webgpu')).toMatch(/\?backend=wasm is much faster/);
  });
});
