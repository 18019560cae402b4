/**
 * The checkpoint format and its checks (checkpoint.ts, checkpointShapes.ts) on the checkpoints a
 * real tiny run takes (cpu backend): accepted as the runner makes them, refused in words when
 * anything is off, and refused by restore() itself before any tensor exists.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, CHECKPOINT_VERSION, CheckpointError, type Checkpoint } from './runner';
import { parseCheckpoint } from './checkpoint';
import { readCheckpoint } from './checkpointShapes';
import { layered, member } from './presets';
import type { ExperimentSpec } from './spec';
import { useBackend } from '../testing/fixed-policy';

/** Two same-shape MLPs and a GRU: the MLP copies share one stack (and one Adam step count). */
const spec: ExperimentSpec = layered({
  seed: 5,
  task: { id: 'digitsum', difficulty: 3 },
  data: { labeledPool: 60, rlPool: 60, heldOut: 4 },
  members: [
    member({ id: 'A', family: 'mlp', dModel: 8, layers: 1, window: 3, warmStartSteps: 2, warmStartExamples: 20 }),
    member({ id: 'B', family: 'mlp', dModel: 8, layers: 1, window: 3, warmStartSteps: 2, warmStartExamples: 20 }),
    member({ id: 'C', family: 'gru', dModel: 8, layers: 1, warmStartSteps: 2, warmStartExamples: 20 }),
  ],
  arms: [
    { id: 'self', scheme: 'self', members: ['A', 'C'] },
    { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
  ],
  grpo: { promptsPerStep: 2, groupSize: 2, learningRate: 1e-3 },
  steps: 3,
  evalEvery: 3,
});

/** The checkpoints after the base (step 0) and after step 2. */
async function takeCheckpoints(): Promise<Checkpoint[]> {
  const run = createRun(spec, { backend: 'cpu' });
  const out: Checkpoint[] = [];
  for await (const e of run.events()) {
    if (e.type === 'base') out.push(await run.checkpoint());
    if (e.type === 'step' && e.step === 2) {
      out.push(await run.checkpoint());
      break;
    }
  }
  run.dispose();
  return out;
}

let cps: Checkpoint[] = [];
beforeAll(async () => {
  await useBackend('cpu');
  cps = await takeCheckpoints();
});
const cp = () => structuredClone(cps[1]);

/** What is wrong with a checkpoint changed by `change`, as readCheckpoint says it. */
function problemOf(change: (c: Checkpoint) => unknown): string {
  const c = cp();
  const changed = change(c) ?? c;
  const r = readCheckpoint(spec, changed);
  if (r.ok) throw new Error('expected a refusal');
  return r.problem;
}

const nonFinite = (c: Checkpoint, at: (c: Checkpoint) => Float32Array, value = Number.NaN) => {
  at(c)[1] = value;
};

/** Every way a checkpoint can be refused, with the words that say so. */
const REFUSALS: [string, (c: Checkpoint) => unknown, RegExp][] = [
  ['a NaN weight', (c) => nonFinite(c, (x) => x.arms[1].members[0].weights[0].values), /^it holds invalid values: arms\.1\.members\.0\.weights\.0\.values: value 1 is not finite \(NaN\)$/],
  ['an infinite warm-started weight', (c) => nonFinite(c, (x) => x.references.C[2].values, Infinity), /references\.C\.2\.values: value 1 is not finite \(Infinity\)/],
  ['a NaN first moment', (c) => nonFinite(c, (x) => x.arms[0].members[1].optimizer.m[0]), /arms\.0\.members\.1\.optimizer\.m\.0: value 1 is not finite/],
  ['a NaN second moment', (c) => nonFinite(c, (x) => x.arms[0].members[0].optimizer.v[1]), /optimizer\.v\.1: value 1 is not finite/],
  ['a NaN summary metric', (c) => void (c.summary.arms[0].members[0].history[1].loss = Number.NaN), /summary\.arms\.0\.members\.0\.history\.1\.loss: /],
  ['an infinite summary number', (c) => void (c.summary.medianStepMs = Infinity), /summary\.medianStepMs: /],
  ['a NaN base accuracy', (c) => void (c.summary.base[0].passAt1 = Number.NaN), /summary\.base\.0\.passAt1: /],
  ['a weight shorter than its shape', (c) => void (c.arms[0].members[0].weights[0].values = c.arms[0].members[0].weights[0].values.slice(1)), /weights\.0\.values: weight "[^"]+" of shape \[\d+, \d+\] needs \d+ values, it holds \d+$/],
  ['weights that are not a Float32Array', (c) => void ((c.references.A[0] as { values: unknown }).values = [1, 2]), /references\.A\.0\.values: expected a Float32Array/],
  ['another experiment', (c) => ({ ...c, spec: { ...c.spec, seed: 6 } }), /^the checkpoint was taken from another experiment$/],
  ['version 0', (c) => ({ ...c, version: 0 }), /^checkpoint format v0 is no longer supported \(this page reads v1\)$/],
  ['version 99', (c) => ({ ...c, version: 99 }), /^it was made by a newer Cohort Lab \(checkpoint format v99; this page reads up to v1\)/],
  ['no version', (c) => ({ ...c, version: undefined }), /its format version "undefined" is not a whole number/],
  ['step -1', (c) => ({ ...c, step: -1 }), /^the checkpoint is at step -1, outside 0-3$/],
  ['step steps + 1', (c) => ({ ...c, step: 4 }), /^the checkpoint is at step 4, outside 0-3$/],
  ['a fractional step', (c) => ({ ...c, step: 1.5 }), /step: the step is a whole number/],
  ['a missing arm', (c) => void c.arms.pop(), /^the checkpoint lacks arm "peer"$/],
  ['an extra arm', (c) => void c.arms.push({ ...c.arms[0], id: 'ring' }), /^the checkpoint holds arm "ring", which the experiment does not have$/],
  ['an arm twice', (c) => void c.arms.push(c.arms[0]), /holds arm "self" twice/],
  ['a missing member of an arm', (c) => void c.arms[1].members.pop(), /^the checkpoint lacks member "B" in arm "peer"$/],
  ['an extra member of an arm', (c) => void c.arms[1].members.push({ ...c.arms[1].members[0], id: 'C' }), /holds member "C" in arm "peer", which the experiment does not have/],
  ['a missing member', (c) => void c.members.pop(), /^the checkpoint lacks member "C"$/],
  ['missing warm-started weights', (c) => void delete c.references.B, /lacks warm-started weights of member "B"/],
  ['a missing weight', (c) => void c.references.C.pop(), /^the warm-started weights of member "C": weight "[^"]+" is missing$/],
  ['an extra weight', (c) => void c.arms[0].members[0].weights.push({ ...c.arms[0].members[0].weights[0], name: 'extra' }), /weights of member "A" in arm "self": weight "extra" is not one of its model's/],
  ['a weight of another shape', (c) => void c.arms[1].members[1].weights[0].shape.reverse(), /^the weights of member "B" in arm "peer": weight "[^"]+" has shape \[\d+, \d+\]; its model's is \[\d+, \d+\]$/],
  ['a GRU weight given to an MLP', (c) => void (c.arms[0].members[0].weights = c.arms[0].members[1].weights), /weights of member "A" in arm "self": weight "[^"]+" is not one of its model's/],
  ['moments for another model', (c) => void c.arms[0].members[0].optimizer.m.pop(), /differ in number or size/],
  ['fewer moments than weights', (c) => void (c.arms[0].members[0].optimizer = { step: 2, m: [], v: [] }), /optimizer state of member "A" in arm "self": 0 moments for a model of \d+ weights/],
  ['one stack at two steps', (c) => void (c.arms[1].members[1].optimizer.step += 1), /the optimizer states of the mlp d8 L1 w3 [^ ]+ [^ ]+ copies disagree on their step \(2 and 3\)/],
  ['a summary of another seed', (c) => void (c.summary.seed = 9), /summary is of seed 9, the experiment's seed is 5/],
  ['a summary without an arm', (c) => void c.summary.arms.pop(), /lacks a summary of arm "peer"/],
  ['a summary past its step', (c) => void (c.summary.arms[0].members[0].history[1].step = 3), /summary of member "A" in arm "self" goes past its step 2/],
  ['not an object', () => [1, 2], /^it is not a checkpoint$/],
];

describe('checkpoints: the format', () => {
  it('accepts what the runner makes, at the base and after steps, unchanged', () => {
    expect(cps.map((c) => c.step)).toEqual([0, 2]);
    for (const c of cps) {
      expect(c.version).toBe(CHECKPOINT_VERSION);
      const r = readCheckpoint(spec, c);
      expect(r.ok, r.ok ? '' : r.problem).toBe(true);
      if (r.ok) {
        // Plain data as it was: the same weights (no copy needed), the same summary.
        expect(r.checkpoint.arms[1].members[0].weights[0].values).toBe(c.arms[1].members[0].weights[0].values);
        expect(r.checkpoint.summary).toEqual(c.summary);
      }
    }
  });

  it('refuses each damaged or foreign checkpoint in words naming what is wrong', () => {
    for (const [what, change, says] of REFUSALS) expect(problemOf(change), what).toMatch(says);
  });

  it('upgrades an older version through a migration', () => {
    // A made-up v0 whose step was called "at".
    const { step, ...rest } = cp();
    const v0 = { ...rest, version: 0, at: step };
    expect(parseCheckpoint(v0)).toMatchObject({ ok: false, problem: 'checkpoint format v0 is no longer supported (this page reads v1)' });
    const up = parseCheckpoint(v0, { 0: ({ at, ...d }) => ({ ...d, version: 1, step: at }) });
    expect(up.ok && up.checkpoint.step).toBe(2);
  });
});

describe('restore(): refuses before touching a tensor', () => {
  it('continues from a good checkpoint', async () => {
    const run = createRun(spec, { backend: 'cpu', checkpoint: cp() });
    const events = run.events();
    expect((await events.next()).value).toMatchObject({ type: 'base' });
    expect((await events.next()).value).toMatchObject({ type: 'step', step: 3 });
    run.dispose();
  });

  it('throws a CheckpointError in plain words for each refusal, with no tensor created', async () => {
    for (const [what, change, says] of REFUSALS) {
      const c = cp();
      const changed = (change(c) ?? c) as Checkpoint;
      const before = tf.memory().numTensors;
      const run = createRun(spec, { backend: 'cpu', checkpoint: changed });
      const error = await run.events().next().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, what).toBeInstanceOf(CheckpointError);
      expect((error as CheckpointError).problem, what).toMatch(says);
      expect((error as Error).message, what).toMatch(/^The checkpoint cannot be restored: .+\.$/);
      expect(tf.memory().numTensors, what).toBe(before);
      run.dispose();
    }
  });
});
