import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { useBackend } from '../testing/fixed-policy';
import { getPreset } from '../experiment/presets';
import { CASE_IDS, benchCase, benchSpec, measureCase, modelCount, parseCases, type BenchRow } from './measure';
import { mergeRows, rowProblems, rowsTable, scalingTable } from './report';

describe('bench cases', () => {
  it('turns a preset into its bare RL step: no warm start, no evaluation before step 1000', () => {
    const spec = benchSpec(getPreset('collapse')!.spec);
    expect(spec.members.every((m) => m.warmStartSteps === 0 && m.warmStartTarget === 0)).toBe(true);
    expect(spec.evalEvery).toBe(1000);
    expect(spec.steps).toBeGreaterThan(100);
    expect(spec.grpo).toEqual(getPreset('collapse')!.spec.grpo);
  });

  it('has the documented model counts: collapse 6, quick 6, scaling 1/2/4/8 of one shape, transformer 6, peers-teach 7', () => {
    const n = Object.fromEntries(CASE_IDS.map((id) => [id, modelCount(benchCase(id).spec)]));
    expect(n).toEqual({ collapse: 6, quick: 6, 'scaling-1': 1, 'scaling-2': 2, 'scaling-4': 4, 'scaling-8': 8, transformer: 6, 'peers-teach': 7 });
    const shape = getPreset('collapse')!.spec.members[0];
    for (const id of ['scaling-1', 'scaling-2', 'scaling-4', 'scaling-8'] as const) {
      for (const m of benchCase(id).spec.members) {
        expect([m.family, m.dModel, m.layers, m.window]).toEqual([shape.family, shape.dModel, shape.layers, shape.window]);
      }
    }
    expect(benchCase('transformer').spec.members.every((m) => m.family === 'transformer')).toBe(true);
    // peers-teach as its preset has it: d32, 2 blocks, 4 heads, B 16 x G 8, and a teacher arm.
    const pt = benchCase('peers-teach').spec;
    expect(pt.members.map((m) => [m.family, m.dModel, m.layers, m.heads])).toEqual([
      ['transformer', 32, 2, 4],
      ['transformer', 32, 2, 4],
    ]);
    expect([pt.grpo.promptsPerStep, pt.grpo.groupSize]).toEqual([16, 8]);
    expect(pt.arms.filter((a) => a.scheme === 'teacher').map((a) => a.teacher)).toEqual(['B']);
  });

  it('parses case lists ("scaling" is the whole series) and rejects unknown names', () => {
    expect(parseCases('collapse,scaling')).toEqual(['collapse', 'scaling-1', 'scaling-2', 'scaling-4', 'scaling-8']);
    expect(parseCases('quick,quick')).toEqual(['quick']);
    expect(() => parseCases('collapse,nope')).toThrow(/nope/);
  });
});

describe('measureCase on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('returns a row with the documented JSON shape, and leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const row = await measureCase(benchCase('scaling-1'), { where: 'node', repeats: 2, warmup: 1, gpu: null });
    expect(tf.memory().numTensors).toBe(before);
    expect(rowProblems(JSON.parse(JSON.stringify(row)))).toEqual([]);
    expect(row).toMatchObject({ backend: 'wasm', where: 'node', preset: 'scaling', models: 1, shape: 'mlp d64 L2 w6', steps: 2, warmup: 1 });
    expect(row.kernelsPerStep).toBeGreaterThan(10);
    expect(row.readbacksPerStep).toBeGreaterThan(0);
    expect(row.dispatchesPerStep).toBeNull();
    expect(row.submitsPerStep).toBeNull();
    expect(row.gpuReadbacksPerStep).toBeNull();
    expect(row.webgpuCpuForward).toBeNull();
    expect(row.peakBytes).toBeGreaterThan(0);
    expect(row.topKernels.length).toBeGreaterThan(0);
    // The tables render it.
    expect(rowsTable([row])).toContain('| wasm | `scaling` | 1 | mlp d64 L2 w6 |');
    expect(scalingTable([row]).split('\n')).toHaveLength(3);
  });
});

describe('rows', () => {
  const row = (over: Partial<BenchRow> = {}): BenchRow => ({
    backend: 'wasm',
    where: 'node',
    preset: 'collapse',
    models: 6,
    shape: 'mlp d64 L2 w6',
    kernelsPerStep: 100,
    dispatchesPerStep: null,
    submitsPerStep: null,
    readbacksPerStep: 12,
    gpuReadbacksPerStep: null,
    stepMs: { median: 2, min: 1, max: 3 },
    tokensPerS: 10,
    peakBytes: 1000,
    tensorDrift: 0,
    steps: 3,
    warmup: 2,
    topKernels: [['Add', 10]],
    webgpuCpuForward: null,
    date: '2026-01-01',
    ...over,
  });

  it('names what is wrong with a malformed row', () => {
    expect(rowProblems(row())).toEqual([]);
    expect(rowProblems({ ...row(), where: 'browser' })).toEqual(['where: not "node" or "chromium"']);
    expect(rowProblems({ ...row(), stepMs: { median: 5, min: 1, max: 3 } })).toEqual(['stepMs: not min <= median <= max']);
    expect(rowProblems({ ...row(), kernelsPerStep: '3' })).toEqual(['kernelsPerStep: not a number']);
  });

  it('merges: a new measurement replaces the same (where, backend, preset, models, shape), others stay', () => {
    const old = [row(), row({ backend: 'cpu' }), row({ preset: 'scaling', models: 2 })];
    const fresh = [row({ kernelsPerStep: 50 })];
    const merged = mergeRows(old, fresh);
    expect(merged.map((r) => [r.backend, r.preset, r.kernelsPerStep])).toEqual([
      ['cpu', 'collapse', 100],
      ['wasm', 'scaling', 100],
      ['wasm', 'collapse', 50],
    ]);
  });
});
