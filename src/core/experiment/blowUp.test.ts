import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, NonFiniteRunError, type Checkpoint, type RunOptions } from './runner';
import { layered, member } from './presets';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent } from './events';
import { emptySummary, foldEvent } from './summary';
import { blowUpExplanation } from './blowUp';
import { nonFiniteNumberAt } from '../json';
import { useBackend } from '../testing/fixed-policy';

/**
 * Two MLPs in a self and a peer arm. With the largest learning rate the schema allows, the
 * largest KL weight and a low temperature, the k3 KL (exp(log pi_ref - log pi) - ...) overflows
 * within a few steps: a real blow-up with a legitimate spec (step 4 on wasm and cpu).
 */
function blowUpSpec(grpo: Partial<ExperimentSpec['grpo']> = {}): ExperimentSpec {
  const mlp = (id: string) => member({ id, family: 'mlp', dModel: 16, layers: 1, window: 4, warmStartSteps: 10, warmStartExamples: 200 });
  return layered({
    seed: 3,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [mlp('A'), mlp('B')],
    arms: [
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 0.1, beta: 1, temperature: 0.1, ...grpo },
    steps: 12,
    evalEvery: 2,
  });
}

/** The same cohort trained gently: nothing blows up unless a fault is injected. */
const calmSpec = () => blowUpSpec({ learningRate: 1e-3, beta: 0.05, temperature: 1 });

interface Pulled {
  events: RunnerEvent[];
  /** The checkpoint taken after the last step event. */
  lastGood: Checkpoint | null;
  /** What checkpoint() did after the last event. */
  after: unknown;
}

async function pull(spec: ExperimentSpec, opts: RunOptions = {}): Promise<Pulled> {
  const run = createRun(spec, opts);
  const events: RunnerEvent[] = [];
  let lastGood: Checkpoint | null = null;
  for await (const e of run.events()) {
    events.push(e);
    if (e.type === 'step') lastGood = await run.checkpoint();
  }
  const after = await run.checkpoint().then(
    (cp) => cp,
    (err: unknown) => err,
  );
  run.dispose();
  return { events, lastGood, after };
}

const ofType = <T extends RunnerEvent['type']>(events: RunnerEvent[], type: T) => events.filter((e): e is Extract<RunnerEvent, { type: T }> => e.type === type);

/** Every weight and Adam moment of a checkpoint, and its summary, finite. */
function expectFinite(cp: Checkpoint): void {
  expect(nonFiniteNumberAt(cp.summary)).toBeNull();
  const arrays = [
    ...Object.values(cp.references).flatMap((ws) => ws.map((w) => w.values)),
    ...cp.arms.flatMap((a) => a.members.flatMap((m) => [...m.weights.map((w) => w.values), ...m.optimizer.m, ...m.optimizer.v])),
  ];
  expect(arrays.length).toBeGreaterThan(0);
  for (const a of arrays) expect(a.every(Number.isFinite)).toBe(true);
}

describe('blowUpExplanation', () => {
  const at = { step: 37, armId: 'self', memberId: 'A', quantity: 'loss', value: 'NaN' } as const;

  it('names the number, the copy and the step, and derives the advice from the spec', () => {
    const spec = blowUpSpec({ learningRate: 0.03, beta: 0, maxGradNorm: 1 });
    expect(blowUpExplanation(spec, at)).toBe(
      'The loss of member A in arm self became NaN at step 37. This usually means the learning rate (3e-2) is too high for this model: ' +
        'lower it (try 3e-3) or clip gradients harder (max grad norm 0.5 instead of 1), then Start again.',
    );
  });

  it('suggests turning clipping on, lowering beta, and names the other copies of the same step', () => {
    const spec = blowUpSpec({ learningRate: 0.1, beta: 0.5, maxGradNorm: 0 });
    const text = blowUpExplanation(spec, { ...at, quantity: 'gradient', value: 'Infinity' }, [{ armId: 'peer', memberId: 'B' }]);
    expect(text).toMatch(/^The gradient norm of member A in arm self became Infinity at step 37\./);
    expect(text).toContain('lower it (try 1e-2), turn gradient clipping on (max grad norm 1) or lower the KL weight beta (0.5; try 0.05)');
    expect(text).toMatch(/At the same step: member B in arm peer\.$/);
  });

  it('never suggests a learning rate below the lowest the spec allows', () => {
    const text = blowUpExplanation(blowUpSpec({ learningRate: 1e-6, beta: 0, maxGradNorm: 0.1 }), { ...at, quantity: 'weight', value: '-Infinity' });
    expect(text).toMatch(/^A weight of member A in arm self became -Infinity at step 37\. The learning rate \(1e-6\) is already the lowest allowed/);
  });
});

describe('a run that blows up (wasm)', () => {
  beforeAll(() => useBackend('wasm'));

  it("stops at the step that made a number non-finite: a 'nonfinite' event instead of its 'step', then nothing", async () => {
    const baseline = tf.memory().numTensors;
    const spec = blowUpSpec();
    const { events, lastGood, after } = await pull(spec);
    expect(tf.memory().numTensors).toBe(baseline);

    const steps = ofType(events, 'step');
    const [halt] = ofType(events, 'nonfinite');
    expect(halt, 'a nonfinite event').toBeDefined();
    expect(events.at(-1)).toBe(halt);
    expect(ofType(events, 'done')).toEqual([]);
    // Found where it happened: the step after the last one reported (step 4, member A of the
    // self arm, its loss: the KL overflows first), with nothing non-finite reported before it.
    expect(halt).toMatchObject({ step: 4, armId: 'self', memberId: 'A', quantity: 'loss', value: 'NaN' });
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
    for (const s of steps) expect(nonFiniteNumberAt(s), `step ${s.step}`).toBeNull();
    expect(halt.explanation).toMatch(/^The loss of member A in arm self became NaN at step 4\. .*learning rate \(1e-1\).*try 1e-2.*beta \(1; try 0\.1\)/);

    // Nothing poisoned can be saved; the checkpoint of step 3 is all finite.
    expect(after).toBeInstanceOf(NonFiniteRunError);
    expect(String(after)).toMatch(/no checkpoint after step 4/);
    expect(lastGood?.step).toBe(3);
    expectFinite(lastGood!);

    // The summary the page and the CLI fold says where it stopped, with no NaN in it.
    const summary = emptySummary(spec, 'wasm');
    for (const e of events) foldEvent(summary, e, spec);
    expect(summary.halt).toEqual({ step: 4, armId: 'self', memberId: 'A', quantity: 'loss' });
    expect(nonFiniteNumberAt(summary)).toBeNull();
    expect(summary.arms[0].members[0].history.map((h) => h.step)).toEqual([1, 2, 3]);
  });

  it('finds the same blow-up training the copies one at a time, and again from the last good checkpoint', async () => {
    const spec = blowUpSpec();
    const { events, lastGood } = await pull(spec);
    const halt = ofType(events, 'nonfinite')[0];
    const alone = await pull(spec, { stacking: 'slot' });
    expect(ofType(alone.events, 'nonfinite')).toEqual([halt]);
    // An earlier checkpoint stays valid: resumed, the run trains on and stops at the same step.
    const resumed = await pull(spec, { checkpoint: lastGood! });
    expect(resumed.events.map((e) => e.type)).toEqual(['base', 'nonfinite']);
    expect(resumed.events[1]).toEqual(halt);
  });
});

describe('a fault injected into one weight (wasm)', () => {
  beforeAll(() => useBackend('wasm'));

  for (const [value, kind] of [[Infinity, 'Infinity'], [Number.NaN, 'NaN']] as const) {
    it(`is caught as '${kind}' in a 'weight' of that copy at that step, from the update's own readback`, async () => {
      const baseline = tf.memory().numTensors;
      const spec = calmSpec();
      const { events, lastGood, after } = await pull(spec, { faults: { poisonWeight: { step: 5, armId: 'peer', memberId: 'B', value } } });
      expect(tf.memory().numTensors).toBe(baseline);
      expect(ofType(events, 'step').map((s) => s.step)).toEqual([1, 2, 3, 4]);
      expect(ofType(events, 'nonfinite')).toEqual([expect.objectContaining({ step: 5, armId: 'peer', memberId: 'B', quantity: 'weight', value: kind })]);
      expect(events.at(-1)?.type).toBe('nonfinite');
      expect(after).toBeInstanceOf(NonFiniteRunError);
      expect(lastGood?.step).toBe(4);
      expectFinite(lastGood!);
    });
  }

  it('the calm run alone reaches its end with every number finite', async () => {
    const { events, after } = await pull(calmSpec());
    expect(events.at(-1)?.type).toBe('done');
    expect(ofType(events, 'nonfinite')).toEqual([]);
    expect(nonFiniteNumberAt(events)).toBeNull();
    expectFinite(after as Checkpoint);
  });
});
