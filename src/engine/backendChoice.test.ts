import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import {
  type AdapterFacts,
  type BackendChoiceRecord,
  type MeasuredRow,
  MAX_REMEMBERED,
  chooseMeasured,
  choiceKey,
  cohortSignature,
  isSoftwareAdapter,
  measurementText,
  planBackend,
  readRemembered,
  rowText,
  withRemembered,
} from './backendChoice';

function row(backend: MeasuredRow['backend'], msPerStep: number | null, extra: Partial<MeasuredRow> = {}): MeasuredRow {
  return {
    backend,
    detail: null,
    software: false,
    status: msPerStep == null ? 'failed' : 'ok',
    msPerStep,
    timedSteps: msPerStep == null ? 0 : 2,
    atLeastMs: null,
    warmupMs: msPerStep == null ? null : 3 * msPerStep,
    note: null,
    ...extra,
  };
}

const swiftshader = (ms: number | null, extra: Partial<MeasuredRow> = {}) => row('webgpu', ms, { detail: 'swiftshader', software: true, ...extra });
const gpu = (ms: number) => row('webgpu', ms, { detail: 'nvidia' });

const SWIFTSHADER: AdapterFacts = { vendor: 'google', architecture: 'swiftshader', device: '', description: '', isFallbackAdapter: false };
const NVIDIA: AdapterFacts = { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200', isFallbackAdapter: false };

describe('chooseMeasured', () => {
  it('SwiftShader slower than wasm: wasm', () => {
    const r = chooseMeasured([row('wasm', 180), row('webgl', 900), swiftshader(2900)]);
    expect(r).toEqual({ chosen: 'wasm', reason: 'fastest measured' });
  });

  it('a real GPU faster than wasm: webgpu', () => {
    expect(chooseMeasured([row('wasm', 180), row('webgl', 120), gpu(40)]).chosen).toBe('webgpu');
  });

  it('webgl faster than the others: webgl', () => {
    expect(chooseMeasured([row('wasm', 180), row('webgl', 90), swiftshader(2900)]).chosen).toBe('webgl');
  });

  it('a software adapter is never chosen over a faster wasm, nor over one within the margin', () => {
    expect(chooseMeasured([row('wasm', 100), swiftshader(101)]).chosen).toBe('wasm');
    const near = chooseMeasured([row('wasm', 105), swiftshader(100)]);
    expect(near.chosen).toBe('wasm');
    expect(near.reason).toMatch(/CPU emulation: wasm preferred/);
    // Clearly faster (many cores), it may win.
    expect(chooseMeasured([row('wasm', 300), swiftshader(100)]).chosen).toBe('webgpu');
  });

  it('a backend that failed or was stopped is never chosen', () => {
    const rows = [
      row('wasm', 500),
      row('webgl', null, { note: 'setBackend(webgl) failed: returned false' }),
      gpu(100),
    ];
    rows[2] = { ...rows[2], status: 'stopped', msPerStep: null, atLeastMs: 500, note: 'slower than wasm' };
    expect(chooseMeasured(rows).chosen).toBe('wasm');
    // A stale figure on a non-ok row does not count either.
    expect(chooseMeasured([row('wasm', 500), { ...gpu(10), status: 'failed' }]).chosen).toBe('wasm');
  });

  it('nothing finished: no choice', () => {
    expect(chooseMeasured([row('wasm', null), swiftshader(null, { status: 'stopped', atLeastMs: 30000 })])).toEqual({
      chosen: null,
      reason: 'no backend finished a timed step',
    });
    expect(chooseMeasured([]).chosen).toBeNull();
  });
});

describe('planBackend', () => {
  const record: BackendChoiceRecord = { key: 'K', chosen: 'wasm', reason: 'fastest measured', rows: [row('wasm', 180)], measuredAt: 1 };

  it('forced: no measurement, even with a remembered choice', () => {
    expect(planBackend({ forced: 'webgpu', key: 'K', remembered: [record] })).toEqual({ kind: 'forced', backend: 'webgpu' });
  });

  it('a remembered choice is reused when the key matches', () => {
    expect(planBackend({ forced: null, key: 'K', remembered: [record] })).toEqual({ kind: 'remembered', record });
  });

  it('and ignored when it does not: measure', () => {
    expect(planBackend({ key: 'other', remembered: [record] })).toEqual({ kind: 'measure' });
    expect(planBackend({ key: 'K', remembered: [] })).toEqual({ kind: 'measure' });
  });

  it('keys differ by browser, adapter, isolation and cohort shape', () => {
    const sig = cohortSignature(PRESETS.collapse.spec);
    const device = { userAgent: 'Chrome/156', adapter: SWIFTSHADER, isolated: true };
    const k = choiceKey(device, sig);
    expect(choiceKey({ ...device }, sig)).toBe(k);
    expect(choiceKey({ ...device, userAgent: 'Firefox/140' }, sig)).not.toBe(k);
    expect(choiceKey({ ...device, adapter: NVIDIA }, sig)).not.toBe(k);
    expect(choiceKey({ ...device, adapter: null }, sig)).not.toBe(k);
    expect(choiceKey({ ...device, isolated: false }, sig)).not.toBe(k);
    expect(choiceKey(device, cohortSignature(PRESETS.diversity.spec))).not.toBe(k);
    const remembered = [{ key: k, chosen: 'wasm' as const, reason: 'fastest measured', rows: [], measuredAt: 1 }];
    expect(planBackend({ key: choiceKey({ ...device, adapter: NVIDIA }, sig), remembered }).kind).toBe('measure');
  });
});

describe('cohortSignature', () => {
  it('depends on what a step costs, not on seeds, learning rates or step counts', () => {
    const spec = PRESETS.collapse.spec;
    const sig = cohortSignature(spec);
    expect(sig).toBe('digitsum/3/always/L0|mlp64x2w6,mlp64x2w6|oracle:0+1,self:0+1,peer:0+1|B16G8U1');
    // quick is collapse's cohort with other data sizes, learning rate and steps.
    expect(cohortSignature(PRESETS.quick.spec)).toBe(sig);
    expect(cohortSignature({ ...spec, seed: 9, steps: 3, evalEvery: 1 })).toBe(sig);
    expect(cohortSignature({ ...spec, grpo: { ...spec.grpo, groupSize: 4 } })).not.toBe(sig);
    expect(cohortSignature({ ...spec, members: spec.members.map((m) => ({ ...m, dModel: 32 })) })).not.toBe(sig);
    expect(cohortSignature({ ...spec, arms: spec.arms.slice(1) })).not.toBe(sig);
  });
});

describe('isSoftwareAdapter', () => {
  it('SwiftShader by architecture, or any fallback adapter', () => {
    expect(isSoftwareAdapter(SWIFTSHADER)).toBe(true);
    expect(isSoftwareAdapter({ ...NVIDIA, isFallbackAdapter: true })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'mesa', architecture: '', device: '', description: 'llvmpipe (LLVM 15.0.7, 256 bits)', isFallbackAdapter: false })).toBe(true);
    expect(isSoftwareAdapter(NVIDIA)).toBe(false);
    expect(isSoftwareAdapter(null)).toBe(false);
  });
});

describe('measurementText', () => {
  it('shows every figure and the reason', () => {
    const rows = [
      row('wasm', 180, { detail: 'simd, 2 threads' }),
      row('webgl', 900),
      swiftshader(null, { status: 'stopped', atLeastMs: 2900, note: 'slower than wasm' }),
    ];
    const { chosen, reason } = chooseMeasured(rows);
    expect(measurementText({ status: 'measured', rows, chosen, reason })).toBe(
      'wasm (simd, 2 threads): 180 ms/step; webgl: 900 ms/step; webgpu (swiftshader): over 2.9 s/step (stopped: slower than wasm) — chosen: wasm, fastest measured',
    );
    expect(measurementText({ status: 'remembered', rows, chosen, reason })).toMatch(/chosen: wasm, fastest measured \(remembered/);
    expect(measurementText({ status: 'measuring', rows: rows.slice(0, 1), current: 'webgl', chosen: null, reason: null })).toBe(
      'Measuring the backends: wasm (simd, 2 threads): 180 ms/step; timing one RL step on webgl…',
    );
  });

  it('says why a backend is missing', () => {
    expect(rowText(row('webgpu', null, { note: 'no WebGPU adapter' }))).toBe('webgpu: unavailable (no WebGPU adapter)');
    expect(rowText(row('wasm', 14_400))).toBe('wasm: 14 s/step');
    expect(rowText(row('webgl', null, { status: 'stopped', note: "set-up and first step took over 6.0 s; wasm's took 833 ms" }))).toBe(
      "webgl: stopped (set-up and first step took over 6.0 s; wasm's took 833 ms)",
    );
  });
});

describe('remembered choices', () => {
  const rec = (key: string): BackendChoiceRecord => ({ key, chosen: 'wasm', reason: 'fastest measured', rows: [row('wasm', 180)], measuredAt: 5 });

  it('drops malformed stored data', () => {
    expect(readRemembered(null)).toEqual([]);
    expect(readRemembered('x')).toEqual([]);
    expect(readRemembered([rec('a'), { key: 'b', chosen: 'quantum' }, { ...rec('c'), rows: [{ backend: 'wasm' }] }, 7])).toEqual([rec('a')]);
  });

  it('keeps the newest per key, bounded', () => {
    let list: BackendChoiceRecord[] = [];
    for (let i = 0; i < MAX_REMEMBERED + 5; i++) list = withRemembered(list, rec(`k${i}`));
    expect(list).toHaveLength(MAX_REMEMBERED);
    expect(list[0].key).toBe(`k${MAX_REMEMBERED + 4}`);
    const again = withRemembered(list, { ...rec('k16'), chosen: 'webgl' });
    expect(again.filter((r) => r.key === 'k16')).toEqual([{ ...rec('k16'), chosen: 'webgl' }]);
    expect(again).toHaveLength(MAX_REMEMBERED);
  });
});
