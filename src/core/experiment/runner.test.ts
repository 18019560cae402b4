import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, type Checkpoint, type RunOptions } from './runner';
import { PRESETS, layered, member } from './presets';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent, RunSummary } from './events';
import { useBackend } from '../testing/fixed-policy';

/** A tiny spec: every scheme that needs at most three members, a few steps. */
const ALL_ARMS = [
  { id: 'oracle', scheme: 'oracle', members: ['A'] },
  { id: 'self', scheme: 'self', members: ['A', 'B'], tau: 0.3 },
  { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
  { id: 'ring', scheme: 'ring', members: ['A', 'B', 'C'] },
  { id: 'cohort', scheme: 'cohort', members: ['A', 'B', 'C'] },
  { id: 'teacher', scheme: 'teacher', members: ['B'], teacher: 'A' },
  { id: 'soft', scheme: 'self-soft', members: ['C'] },
  { id: 'entropy', scheme: 'entropy', members: ['A'] },
  { id: 'certainty', scheme: 'certainty', members: ['B'] },
] as const;

function tinySpec(seed = 3, armIds: string[] = ALL_ARMS.map((a) => a.id)): ExperimentSpec {
  const arms = ALL_ARMS.filter((a) => armIds.includes(a.id)).map((a) => ({ ...a, members: [...a.members] }));
  const used = new Set<string>(arms.flatMap((a) => [...a.members, ...('teacher' in a ? [a.teacher] : [])]));
  return layered({
    seed,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [
      member({ id: 'A', family: 'transformer', dModel: 16, layers: 1, warmStartSteps: 10, warmStartExamples: 200 }),
      member({ id: 'B', family: 'gru', dModel: 16, layers: 1, warmStartSteps: 10, warmStartExamples: 200 }),
      member({ id: 'C', family: 'mlp', dModel: 16, layers: 1, warmStartSteps: 10, warmStartExamples: 200 }),
    ].filter((m) => used.has(m.id)),
    arms,
    grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 1e-3, beta: 0.05 },
    steps: 4,
    evalEvery: 2,
  });
}

async function runAll(spec: ExperimentSpec, stopAfter?: number, opts: RunOptions = {}): Promise<{ events: RunnerEvent[]; cp?: Checkpoint }> {
  const run = createRun(spec, opts);
  const events: RunnerEvent[] = [];
  let cp: Checkpoint | undefined;
  for await (const e of run.events()) {
    events.push(e);
    if (stopAfter !== undefined && e.type === 'step' && e.step === stopAfter) {
      cp = await run.checkpoint();
      break;
    }
  }
  run.dispose();
  return { events, cp };
}

const summaryOf = (events: RunnerEvent[]): RunSummary => {
  const done = events.find((e) => e.type === 'done');
  if (!done || done.type !== 'done') throw new Error('no done event');
  return done.summary;
};

/** The summary without wall-clock fields. */
const science = (s: RunSummary) => ({ ...s, medianStepMs: 0, backend: '' });

/** Three same-shape MLPs (different seeds) in self, peer and cohort arms: one stack of 7 copies. */
function sameShapeSpec(seed: number): ExperimentSpec {
  const mlp = (id: string) => member({ id, family: 'mlp', dModel: 16, layers: 2, window: 4, warmStartSteps: 10, warmStartExamples: 200 });
  return layered({
    seed,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [mlp('A'), mlp('B'), mlp('C')],
    arms: [
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
      { id: 'cohort', scheme: 'cohort', members: ['A', 'B', 'C'] },
    ],
    grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 1e-3, beta: 0.05, updatesPerBatch: 2 },
    steps: 3,
    evalEvery: 2,
  });
}

for (const backend of ['wasm', 'cpu'] as const) {
  describe(`stacked cohort on ${backend}`, () => {
    beforeAll(() => useBackend(backend));

    it('trains same-shape copies as one stack with the metrics of training them one at a time', async () => {
      // cpu is ~10x slower than wasm: fewer steps there.
      const spec = { ...sameShapeSpec(11), ...(backend === 'cpu' ? { steps: 2 } : {}) };
      const stacked = science(summaryOf((await runAll(spec)).events));
      const alone = science(summaryOf((await runAll(spec, undefined, { stacking: 'slot' })).events));
      expect(stacked).toEqual(alone);
      // ... and the same spec twice is bit-identical (on cpu too: this loop's determinism check).
      expect(science(summaryOf((await runAll(spec)).events))).toEqual(stacked);
    });
  });
}

describe('runner on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('runs every scheme and reports finite metrics in range', async () => {
    const { events } = await runAll(tinySpec());
    const steps = events.filter((e) => e.type === 'step');
    expect(steps).toHaveLength(4);
    const s = summaryOf(events);
    expect(s.arms.map((a) => a.id)).toEqual(['oracle', 'self', 'peer', 'ring', 'cohort', 'teacher', 'soft', 'entropy', 'certainty']);
    for (const arm of s.arms) {
      for (const m of arm.members) {
        expect(m.history).toHaveLength(4);
        for (const h of m.history) {
          for (const [k, v] of Object.entries(h)) {
            if (v === null) continue;
            expect(Number.isFinite(v), `${arm.id}/${m.id}/${k}`).toBe(true);
          }
          for (const k of ['oracleReward', 'labeledFraction', 'majorityRatio', 'tieRate', 'capFraction', 'zeroStdFraction', 'topAnswerShare', 'ownVoteAccuracy'] as const) {
            expect(h[k]).toBeGreaterThanOrEqual(0);
            expect(h[k]).toBeLessThanOrEqual(1);
          }
          // Reward accuracy and the hacking gap are comparisons with a 0-1 label match: none for intrinsic arms.
          const intrinsic = arm.scheme === 'entropy' || arm.scheme === 'certainty';
          if (intrinsic) expect([h.rewardAccuracy, h.rewardGap, h.rescueRate]).toEqual([null, null, null]);
          else expect(h.rewardAccuracy! >= 0 && h.rewardAccuracy! <= 1, `${arm.id} rewardAccuracy`).toBe(true);
          for (const k of ['rescueRate', 'misleadRate', 'sharedErrorRate'] as const) {
            if (h[k] !== null) expect(h[k]! >= 0 && h[k]! <= 1, `${arm.id}/${k}`).toBe(true);
          }
          if (h.pseudoLabelAccuracy !== null) expect(h.pseudoLabelAccuracy).toBeLessThanOrEqual(1);
        }
        const evals = m.history.filter((h) => h.evalPassAt1 !== undefined).map((h) => h.step);
        expect(evals).toEqual([2, 4]);
      }
    }
    // Intrinsic rewards are negative entropies / positive certainties; vote rewards lie in [0, 1].
    const entropyArm = s.arms.find((a) => a.id === 'entropy')!;
    expect(entropyArm.members[0].history[0].reward).toBeLessThanOrEqual(0);
    const peer = s.arms.find((a) => a.id === 'peer')!;
    expect(peer.ensemble.map((e) => e.step)).toEqual([2, 4]);
    expect(s.baseKappa.map((k) => `${k.a}-${k.b}`)).toEqual(['A-B', 'A-C', 'B-C']);
    // The untrained pair pooled by maj@G: the baseline of the compute-matched control.
    for (const k of s.baseKappa) expect(k.pooledMajAtG! >= 0 && k.pooledMajAtG! <= 1, `${k.a}-${k.b}`).toBe(true);
    for (const k of s.baseKappa) if (k.passCorrelation !== null) expect(Math.abs(k.passCorrelation!) <= 1 + 1e-9, `${k.a}-${k.b}`).toBe(true);
  });

  it('gives identical histories for the same spec, and different ones for another seed', async () => {
    const spec = tinySpec(5, ['self', 'peer']);
    const a = science(summaryOf((await runAll(spec)).events));
    const b = science(summaryOf((await runAll(spec)).events));
    expect(b).toEqual(a);
    const c = science(summaryOf((await runAll({ ...spec, seed: 6 })).events));
    expect(c).not.toEqual(a);
  });

  it('reports KL only where it was computed: null with beta 0, a number with beta > 0', async () => {
    const spec = tinySpec(4, ['oracle']);
    const withKl = summaryOf((await runAll(spec)).events).arms[0].members[0].history;
    expect(withKl.every((h) => typeof h.kl === 'number' && h.kl >= 0)).toBe(true);
    const without = summaryOf((await runAll({ ...spec, grpo: { ...spec.grpo, beta: 0 } })).events).arms[0].members[0].history;
    expect(without.map((h) => h.kl)).toEqual(without.map(() => null));
  });

  it('resumed from a checkpoint, equals the uninterrupted run', async () => {
    const spec = tinySpec(7, ['oracle', 'peer']);
    const whole = science(summaryOf((await runAll(spec)).events));
    const { cp } = await runAll(spec, 2);
    // The checkpoint is plain data: it survives JSON (typed arrays aside) and structured cloning.
    const resumed = createRun(spec, { checkpoint: structuredClone(cp!) });
    const rest: RunnerEvent[] = [];
    for await (const e of resumed.events()) rest.push(e);
    resumed.dispose();
    expect(rest.filter((e) => e.type === 'step').map((e) => (e as { step: number }).step)).toEqual([3, 4]);
    expect(science(summaryOf(rest))).toEqual(whole);
  });

  it('keeps the tensor count flat over a run', async () => {
    const spec = { ...tinySpec(9, ['self', 'peer']), steps: 10, evalEvery: 4 };
    const run = createRun(spec);
    const counts: number[] = [];
    for await (const e of run.events()) if (e.type === 'step') counts.push(tf.memory().numTensors);
    run.dispose();
    expect(counts[counts.length - 1]).toBe(counts[2]);
  });
});

describe('presets', () => {
  it('every preset is a valid spec', () => {
    for (const p of Object.values(PRESETS)) expect(p.spec.version).toBe(1);
  });
});

describe('stopping a run', () => {
  beforeAll(() => useBackend('wasm'));
  it('leaves no tensor behind when stopped during the warm start or between steps', async () => {
    const before = tf.memory().numTensors;
    const spec = tinySpec(13, ['peer']);
    // Stop after the first warm-start progress event of member A.
    const a = createRun({ ...spec, members: spec.members.map((m) => ({ ...m, warmStartSteps: 40 })) });
    for await (const e of a.events()) if (e.type === 'warmstart') break;
    a.dispose();
    // The member being built finishes in the background, then is freed: wait for that.
    for (let i = 0; i < 600 && tf.memory().numTensors !== before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(tf.memory().numTensors).toBe(before);
    // Stop after one RL step.
    const b = createRun(spec);
    for await (const e of b.events()) if (e.type === 'step') break;
    b.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
