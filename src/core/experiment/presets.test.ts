import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { DEFAULT_PRESET, PRESETS, getPreset } from './presets';
import { parseSpec } from './spec';
import { createRun } from './runner';
import type { RunSummary } from './events';
import { useBackend } from '../testing/fixed-policy';

const armIds = (id: string) => getPreset(id)!.spec.arms.map((a) => a.id);

describe('presets', () => {
  it('are the ones the lab promises, each explained and valid', () => {
    expect(Object.keys(PRESETS)).toEqual(['quick', 'collapse', 'peers-learn', 'diversity', 'ensemble-control', 'ring', 'intrinsic', 'peers-teach', 'families', 'length', 'overlap']);
    expect(DEFAULT_PRESET).toBe('peers-learn');
    for (const p of Object.values(PRESETS)) {
      expect(p.title.length, p.id).toBeGreaterThan(5);
      expect(p.explanation.length, p.id).toBeGreaterThan(150);
      expect(p.runtime, p.id).toMatch(/\d.*(s|min) .*wasm/);
      // A preset survives the same validation as a shared link.
      expect(parseSpec(JSON.parse(JSON.stringify(p.spec))).ok, p.id).toBe(true);
    }
  });

  it('have the arms each comparison needs', () => {
    expect(armIds('collapse')).toEqual(['oracle', 'self', 'peer']);
    expect(armIds('peers-learn')).toEqual(['oracle', 'self', 'peer']);
    expect(armIds('diversity')).toEqual(['self', 'peer-twins', 'peer-siblings', 'peer-strangers']);
    expect(armIds('ensemble-control')).toEqual(['self', 'peer']);
    expect(armIds('ring')).toEqual(['ring', 'self']);
    expect(armIds('intrinsic')).toEqual(['entropy', 'certainty', 'peer']);
    expect(armIds('peers-teach')).toEqual(['oracle', 'self', 'peer', 'teacher']);
    expect(armIds('length')).toEqual(['oracle', 'self', 'peer']);
    expect(armIds('families')).toEqual(['peer-same', 'peer-wider', 'peer-mlp']);
    // One peer arm per dial level (least overlapping first), the cross-family partner, and A alone.
    expect(armIds('overlap')).toEqual(['oracle', 'self', 'peer-S', 'peer-B0', 'peer-B50', 'peer-B80', 'peer-T', 'peer-X']);
    // One anchor, three partners: same family and size, same family and wider, another family.
    const [a, same, wider, mlp] = getPreset('families')!.spec.members;
    expect([a.family, same.family, wider.family, mlp.family]).toEqual(['transformer', 'transformer', 'transformer', 'mlp']);
    expect(same.dModel).toBe(a.dModel);
    expect(wider.dModel).toBeGreaterThan(a.dModel);
    expect(same.initSeed).not.toBe(a.initSeed);
    // Length can move only when the warm start showed both the scratchpad and the bare answer.
    expect(getPreset('length')!.spec.task.scratchpad).toBe('mixed');
    expect(getPreset('peers-teach')!.spec.arms[3]).toMatchObject({ scheme: 'teacher', members: ['A'], teacher: 'B' });
    const ring = getPreset('ring')!.spec;
    expect(ring.arms[0]).toMatchObject({ scheme: 'ring', members: ['A', 'B', 'C'] });
    // Three shapes: no two ring members share window, width and depth.
    const shapes = new Set(ring.members.map((m) => `${m.family}/${m.window}/${m.dModel}/${m.layers}`));
    expect(shapes.size).toBe(3);
  });

  it('diversity: the twin differs from the anchor only in its sampling seed; the others in init and data', () => {
    const [a, twin, sibling, stranger] = getPreset('diversity')!.spec.members;
    const { sampleSeed: sa, id: ia, ...restA } = a;
    const { sampleSeed: st, id: it2, ...restT } = twin;
    expect([ia, it2]).toEqual(['A', 'T']);
    expect(restT).toEqual(restA);
    expect(st).not.toBe(sa);
    for (const other of [sibling, stranger]) {
      expect(other.initSeed).not.toBe(a.initSeed);
      expect(other.dataSeed).not.toBe(a.dataSeed);
    }
    expect(`${stranger.window}/${stranger.dModel}/${stranger.layers}`).not.toBe(`${a.window}/${a.dModel}/${a.layers}`);
  });

  it('collapse and ensemble-control train the same pair with the same settings', () => {
    const c = getPreset('collapse')!.spec;
    const e = getPreset('ensemble-control')!.spec;
    expect(e.members).toEqual(c.members);
    expect(e.grpo).toEqual(c.grpo);
    expect(e.arms).toEqual(c.arms.filter((arm) => arm.id !== 'oracle'));
  });
});

describe('quick preset on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('runs a few steps as shipped (warm start included) and reports finite metrics', async () => {
    const spec = { ...getPreset('quick')!.spec, steps: 2, evalEvery: 2 };
    const before = tf.memory().numTensors;
    const run = createRun(spec);
    let summary: RunSummary | undefined;
    for await (const e of run.events()) if (e.type === 'done') summary = e.summary;
    run.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(summary).toBeDefined();
    const s = summary!;
    expect(s.arms.map((a) => a.id)).toEqual(['oracle', 'self', 'peer']);
    // The warm start leaves both members well above chance (0.1): the point of the preset.
    for (const b of s.base) expect(b.passAt1, b.memberId).toBeGreaterThan(0.15);
    // ...by a target: each member stops when it reaches it, well before the step limit.
    for (const b of s.base) expect(b.warmStartSteps, b.memberId).toBeLessThan(spec.members[0].warmStartSteps);
    for (const k of s.baseKappa) expect(Number.isFinite(k.kappa ?? NaN), `${k.a}-${k.b}`).toBe(true);
    for (const arm of s.arms) {
      for (const m of arm.members) {
        expect(m.history).toHaveLength(2);
        for (const h of m.history) {
          for (const [k, v] of Object.entries(h)) {
            if (v === null) continue; // "undefined here" (e.g. no labeled prompt), never NaN
            expect(Number.isFinite(v), `${arm.id}/${m.id}/${k} = ${v}`).toBe(true);
          }
        }
        expect(m.history[1].evalPassAt1).toBeGreaterThanOrEqual(0);
      }
      expect(arm.ensemble).toHaveLength(1);
      for (const e of arm.ensemble) expect(Number.isFinite(e.majAtG), arm.id).toBe(true);
    }
  }, 120_000);
});
