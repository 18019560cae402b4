import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { layered, member, getPreset } from './presets';
import { ExperimentSpecSchema, parseSpec, type ExperimentSpec, type MemberSpec } from './spec';
import { buildMember } from './cohort';
import { buildDialMember, clearDialReplay } from './overlapDial';
import { runMaxLen, warmStartInputs, warmStartKey } from './warmStartCache';
import { useBackend } from '../testing/fixed-policy';
import type { NamedWeight } from '../models/policy';

/** A tiny anchor A (a target, so a fork has steps to share) and partners with dials. */
function tinySpec(partners: MemberSpec[]): ExperimentSpec {
  const m = (id: string, extra: Partial<MemberSpec> = {}) =>
    member({ id, family: 'mlp', dModel: 32, layers: 1, window: 6, warmStartSteps: 60, warmStartTarget: 0.03, warmStartExamples: 120, ...extra });
  return layered({
    seed: 5,
    task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
    data: { labeledPool: 160, rlPool: 100, heldOut: 16 },
    warmStart: { batchSize: 32, learningRate: 1e-2 },
    members: [m('A'), ...partners.map((p) => ({ ...m(p.id), ...p }))],
    arms: [{ id: 'self', scheme: 'self', members: ['A'] }],
    grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
    steps: 2,
    evalEvery: 1,
  });
}

const partner = (id: string, dial?: MemberSpec['dial'], extra: Partial<MemberSpec> = {}) => ({ id, ...(dial ? { dial } : {}), ...extra }) as MemberSpec;

async function build(spec: ExperimentSpec, id: string): Promise<{ weights: NamedWeight[]; steps: number; reached?: boolean }> {
  const inputs = warmStartInputs(spec);
  const m = spec.members.find((x) => x.id === id)!;
  const w = m.dial ? await buildDialMember(inputs, m) : await buildMember(inputs, m);
  try {
    return { weights: await w.reference.exportWeights(), steps: w.info.warmStartSteps ?? 0, reached: w.info.warmStartReached };
  } finally {
    w.reference.dispose();
  }
}

const same = (a: NamedWeight[], b: NamedWeight[]) => a.length === b.length && a.every((w, i) => w.name === b[i].name && w.values.every((x, j) => x === b[i].values[j]));

describe('the overlap dial', () => {
  beforeAll(async () => {
    await useBackend('wasm');
  });

  it('a fork of the whole warm start is the source itself, bit for bit (the replay equals buildMember)', async () => {
    clearDialReplay();
    const spec = tinySpec([partner('F', { from: 'A', mode: 'fork', share: 1 })]);
    const a = await build(spec, 'A');
    const f = await build(spec, 'F');
    expect(a.steps).toBeGreaterThan(0);
    expect(same(a.weights, f.weights)).toBe(true);
    expect(f.steps).toBe(0);
    expect(f.reached).toBe(true);
  });

  it('blend 0 is fork 0 (the source initial weights trained on its own data), and blend 1 the source', async () => {
    clearDialReplay();
    const spec = tinySpec([
      partner('F0', { from: 'A', mode: 'fork', share: 0 }),
      partner('B0', { from: 'A', mode: 'blend', share: 0 }),
      partner('B1', { from: 'A', mode: 'blend', share: 1 }),
    ]);
    // Same data seed for both, so only the mode differs.
    spec.members[2] = { ...spec.members[2], dataSeed: spec.members[1].dataSeed };
    const [a, f0, b0, b1] = [await build(spec, 'A'), await build(spec, 'F0'), await build(spec, 'B0'), await build(spec, 'B1')];
    expect(same(f0.weights, b0.weights)).toBe(true);
    expect(same(b1.weights, a.weights)).toBe(true);
    expect(same(f0.weights, a.weights)).toBe(false);
  });

  it('a blend lies between its own warm start and the source; labels change what the member learns', async () => {
    clearDialReplay();
    // Counted from here: the test files share one module graph (vitest.config.ts, isolate: false),
    // so tensors another file keeps (its caches) are in tf.memory() too.
    const tensorsBefore = tf.memory().numTensors;
    const spec = tinySpec([
      partner('B0', { from: 'A', mode: 'blend', share: 0 }),
      partner('B5', { from: 'A', mode: 'blend', share: 0.5 }),
      partner('L', { from: 'A', mode: 'labels', share: 1 }),
      partner('P'),
    ]);
    spec.members[2] = { ...spec.members[2], dataSeed: spec.members[1].dataSeed };
    spec.members[4] = { ...spec.members[4], initSeed: spec.members[3].initSeed, dataSeed: spec.members[3].dataSeed };
    const [a, b0, b5] = [await build(spec, 'A'), await build(spec, 'B0'), await build(spec, 'B5')];
    if (b5.steps === b0.steps) {
      // No step after the blend: exactly halfway (up to float32 rounding).
      const w = (k: number) => [a.weights[k].values[0], b0.weights[k].values[0], b5.weights[k].values[0]];
      const [x, y, z] = w(0);
      expect(z).toBeCloseTo((x + y) / 2, 5);
    }
    const [l, p] = [await build(spec, 'L'), await build(spec, 'P')];
    expect(same(l.weights, p.weights)).toBe(false);
    // Every member built here was disposed: nothing of theirs is left.
    expect(tf.memory().numTensors - tensorsBefore).toBe(0);
  });

  it('keys: a dial is in the key; members without one keep theirs', () => {
    const spec = tinySpec([partner('F', { from: 'A', mode: 'fork', share: 0.5 })]);
    const T = runMaxLen(spec);
    const plain = { ...spec.members[1], dial: undefined };
    const withoutDial = warmStartKey(spec, plain, T, 'wasm');
    const k = (m: MemberSpec) => warmStartKey(spec, m, T, 'wasm');
    expect(k(spec.members[1])).not.toBe(withoutDial);
    expect(k({ ...spec.members[1], dial: { from: 'A', mode: 'fork', share: 0.6 } })).not.toBe(k(spec.members[1]));
    expect(k({ ...spec.members[1], dial: { from: 'A', mode: 'blend', share: 0.5 } })).not.toBe(k(spec.members[1]));
    // The source's fields are part of it: another anchor seed, another key.
    const other = structuredClone(spec);
    other.members[0].initSeed += 1;
    expect(warmStartKey(other, other.members[1], T, 'wasm')).not.toBe(k(spec.members[1]));
    expect(warmStartKey(other, other.members[0], T, 'wasm')).not.toBe(k(spec.members[0]));
  });

  it('the spec refuses a dial without a source, of itself, chained, or a fork of another shape', () => {
    const spec = tinySpec([partner('F', { from: 'A', mode: 'fork', share: 0.5 })]);
    const withMembers = (members: unknown[]) => parseSpec({ ...spec, members });
    const [A, F] = spec.members;
    const errs = (r: ReturnType<typeof parseSpec>) => (r.ok ? '' : r.errors.join('; '));
    expect(withMembers([A, F]).ok).toBe(true);
    expect(errs(withMembers([A, { ...F, dial: { from: 'Z', mode: 'fork', share: 0.5 } }]))).toMatch(/no member "Z"/);
    expect(errs(withMembers([A, { ...F, dial: { from: 'F', mode: 'fork', share: 0.5 } }]))).toMatch(/cannot share its own/);
    expect(errs(withMembers([A, F, { ...F, id: 'G', dial: { from: 'F', mode: 'blend', share: 0.5 } }]))).toMatch(/one level only/);
    expect(errs(withMembers([A, { ...F, dModel: 48 }]))).toMatch(/needs its shape \(dModel differ\)/);
    expect(withMembers([A, { ...F, dModel: 48, dial: { from: 'A', mode: 'labels', share: 1 } }]).ok).toBe(true);
    expect(errs(withMembers([A, { ...F, dial: { from: 'A', mode: 'fork', share: 1.5 } }]))).toMatch(/share/);
  });

  it('a cohort without any warm start (the backend probe: engine/measureBackends.ts probeSpecFor) is valid and builds', async () => {
    clearDialReplay();
    // As probeSpecFor makes it: every member without warm-start steps or a target. A dial then
    // shares nothing but the source's initial weights (this spec was refused before, and the
    // page's first Start of ?preset=overlap waited for its backend measurement for good).
    const probe = (s: ExperimentSpec) => ExperimentSpecSchema.parse({ ...s, members: s.members.map((m) => ({ ...m, warmStartSteps: 0, warmStartTarget: 0 })) });
    expect(() => probe(getPreset('overlap')!.spec)).not.toThrow();
    const spec = probe(tinySpec([partner('B', { from: 'A', mode: 'blend', share: 0.5 }), partner('L', { from: 'A', mode: 'labels', share: 1 })]));
    const [a, b, l] = [await build(spec, 'A'), await build(spec, 'B'), await build(spec, 'L')];
    expect([a.steps, b.steps, l.steps]).toEqual([0, 0, 0]);
    // A blend of A's untrained weights with themselves is A's initial weights.
    expect(same(a.weights, b.weights)).toBe(true);
  });

  it("the overlap preset: A, five same-family levels in the dial's order, and a partner of another shape", () => {
    const p = getPreset('overlap')!;
    expect(ExperimentSpecSchema.safeParse(p.spec).success).toBe(true);
    expect(p.spec.members.map((m) => m.id)).toEqual(['A', 'S', 'B0', 'B50', 'B80', 'T', 'X']);
    expect(p.spec.arms.map((a) => a.id)).toEqual(['oracle', 'self', 'peer-S', 'peer-B0', 'peer-B50', 'peer-B80', 'peer-T', 'peer-X']);
    // Its regime is peers-learn's: the same anchor, settings and steps.
    const pl = getPreset('peers-learn')!.spec;
    const { members: _m, arms: _a, seed: _s, ...rest } = p.spec;
    const { members: _m2, arms: _a2, seed: _s2, ...restPl } = pl;
    expect(rest).toEqual(restPl);
    expect(p.spec.members[0]).toEqual(pl.members[0]);
  });
});
