import { describe, expect, it } from 'vitest';
import { readMemory, readPool, readSoak, type SoakSample } from './soak-lib';

const flat = (n: number, mem: (i: number) => number, tensors = (_: number) => 100): SoakSample[] =>
  Array.from({ length: n }, (_, i) => ({ step: (i + 1) * 100, tensors: tensors(i), tensorBytes: 4096, memory: mem(i) }));

describe('soak verdict', () => {
  it('flat tensors and noisy but flat memory pass', () => {
    const v = readSoak(flat(20, (i) => 500e6 + (i % 3) * 5e6));
    expect(v.tensorsFlat).toBe(true);
    expect(v.memoryFlat).toBe(true);
  });

  it('one tensor leaked anywhere fails', () => {
    expect(readSoak(flat(20, () => 500e6, (i) => (i === 13 ? 101 : 100))).tensorsFlat).toBe(false);
  });

  it('memory that keeps growing fails', () => {
    // 1 MB a step = 1,000 MB per 1,000 steps.
    const v = readSoak(flat(20, (i) => 500e6 + i * 100e6));
    expect(v.memoryFlat).toBe(false);
    expect(v.memoryGrowthPer1000!).toBeGreaterThan(900e6);
  });

  it('warm-up growth in the first quarter is not a leak', () => {
    expect(readSoak(flat(20, (i) => (i < 5 ? 300e6 + i * 20e6 : 400e6))).memoryFlat).toBe(true);
  });

  it('without a memory figure says so', () => {
    const v = readSoak(flat(8, () => 0).map((s) => ({ ...s, memory: null })));
    expect(v.memoryFlat).toBeNull();
    expect(v.lines[1]).toMatch(/not measured/);
  });
});

describe('memory verdict under another name', () => {
  it('names the figure it read, e.g. the GPU buffers in Chromium', () => {
    const samples = Array.from({ length: 12 }, (_, i) => ({ step: (i + 1) * 25, memory: 64e6 }));
    const v = readMemory(samples, 32 * 1024 * 1024, 'GPU buffers');
    expect(v.flat).toBe(true);
    expect(v.line).toMatch(/^GPU buffers: 61\.0 MB -> 61\.0 MB; median growth 0\.0 MB per 1,000 steps \(flat/);
    expect(readSoak(flat(8, () => 1e6), undefined, 'JS heap').lines[1]).toMatch(/^JS heap: /);
  });

  it('a pool that grows 1 MB every 25 steps is not flat (40 MB per 1,000 steps)', () => {
    const v = readMemory(Array.from({ length: 12 }, (_, i) => ({ step: (i + 1) * 25, memory: 64e6 + i * 1048576 })));
    expect(v.flat).toBe(false);
    expect(v.growthPer1000! / 1048576).toBeCloseTo(40, 5);
  });
});

describe('a buffer pool is judged from the first held-out evaluation on', () => {
  // Chromium, WebGPU on SwiftShader, quick: 91.3 MB for 100 steps, 116.9 MB from the evaluation at step 100.
  const MB = 1048576;
  const pool = (n: number, mem: (step: number) => number) => Array.from({ length: n }, (_, i) => ({ step: (i + 1) * 5, memory: mem((i + 1) * 5) }));
  const measured = (step: number) => (step < 100 ? 91.3 * MB : 116.9 * MB);

  it('the one jump at the first evaluation is not a leak (readMemory alone would call it one)', () => {
    const samples = pool(23, measured);
    expect(readMemory(samples).flat).toBe(false);
    const v = readPool(samples, 100);
    expect(v.flat).toBe(true);
    expect(v.lines[0]).toBe('GPU buffers: 91.3 MB at step 5 -> 116.9 MB at step 115');
    expect(v.lines[1]).toMatch(/^GPU buffers from step 100 \(the first held-out evaluation\) on: 116\.9 MB -> 116\.9 MB; median growth 0\.0 MB/);
  });

  it('growth after the first evaluation is a leak', () => {
    expect(readPool(pool(60, (s) => measured(s) + (s >= 100 ? s * 0.1 * MB : 0)), 100).flat).toBe(false);
  });

  it('too few samples after the first evaluation: not judged', () => {
    const v = readPool(pool(22, measured), 100);
    expect(v.flat).toBeNull();
    expect(v.lines[1]).toMatch(/not judged \(3 samples there, 4 needed\)/);
  });

  it('off webgpu: not measured', () => {
    expect(readPool(pool(10, () => 0).map((s) => ({ ...s, memory: null })), 100).flat).toBeNull();
  });
});
