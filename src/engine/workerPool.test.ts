import { describe, expect, it } from 'vitest';
import { readWorkersParam } from './protocol';
import { MAX_WORKERS, poolSize } from './workerPool';

describe('the page pool size', () => {
  it('is one worker per core on the CPU backends, one on the GPU backends, or what ?workers= asks', () => {
    expect(poolSize('wasm', null, 8)).toBe(8);
    expect(poolSize('cpu', null, 2)).toBe(2);
    expect(poolSize('wasm', 1, 8)).toBe(1);
    expect(poolSize('wasm', 3, 2)).toBe(3);
    expect(poolSize('wasm', null, 0)).toBe(1);
    expect(poolSize('wasm', null, 1000)).toBe(MAX_WORKERS);
    for (const gpu of ['webgpu', 'webgl']) expect(poolSize(gpu, 4, 8)).toBe(1);
  });

  it('reads ?workers= as a whole number 1-64 and ignores anything else', () => {
    expect([readWorkersParam('2'), readWorkersParam('64'), readWorkersParam('01')]).toEqual([2, 64, 1]);
    for (const bad of [null, undefined, '', '0', '65', '-1', '1.5', '2e1', ' 2', 'two', '999']) expect(readWorkersParam(bad)).toBeNull();
  });
});
