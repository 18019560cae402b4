import { beforeAll, describe, expect, it } from 'vitest';
import { createRun, type Checkpoint, type ExperimentRun, type RunOptions } from '../core/experiment/runner';
import { layered, member } from '../core/experiment/presets';
import { planParts, type RunPart } from '../core/experiment/parts';
import type { ExperimentSpec } from '../core/experiment/spec';
import type { RunnerEvent } from '../core/experiment/events';
import { useBackend } from '../core/testing/fixed-policy';
import { localPart, pooledRun } from './pooledRun';

/** Every scheme, a teacher and two-member arms (their pooled maj@G), three families, eval steps. */
function tinySpec(steps = 4): ExperimentSpec {
  return layered({
    seed: 5,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [
      member({ id: 'A', family: 'transformer', dModel: 16, layers: 1, warmStartSteps: 8, warmStartExamples: 200 }),
      member({ id: 'B', family: 'gru', dModel: 16, layers: 1, warmStartSteps: 8, warmStartExamples: 200 }),
      member({ id: 'C', family: 'mlp', dModel: 16, layers: 1, warmStartSteps: 8, warmStartExamples: 200 }),
    ],
    arms: [
      { id: 'oracle', scheme: 'oracle', members: ['A'] },
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
      { id: 'cohort', scheme: 'cohort', members: ['A', 'B', 'C'] },
      { id: 'teacher', scheme: 'teacher', members: ['C'], teacher: 'A' },
    ],
    grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 1e-3, beta: 0.05 },
    steps,
    evalEvery: 2,
  });
}

/** Timings aside (stepMs, medianStepMs), the events as numbers. */
function numbers(events: RunnerEvent[]): unknown[] {
  return events.map((e) => {
    if (e.type === 'step') return { ...e, stepMs: 0 };
    if (e.type === 'done') return { ...e, summary: { ...e.summary, medianStepMs: 0 } };
    return e;
  });
}

function pool(spec: ExperimentSpec, parts: RunPart[], opts: RunOptions = {}): ExperimentRun {
  const handles = parts.map((part) => localPart(createRun(spec, { ...opts, part })));
  return pooledRun(spec, handles, { backend: 'wasm', checkpoint: opts.checkpoint, now: () => performance.now() });
}

async function drain(run: ExperimentRun, checkpointAt?: number): Promise<{ events: RunnerEvent[]; cp?: Checkpoint }> {
  const events: RunnerEvent[] = [];
  let cp: Checkpoint | undefined;
  try {
    for await (const e of run.events()) {
      events.push(e);
      if (e.type === 'step' && e.step === checkpointAt) {
        cp = await run.checkpoint();
        break;
      }
    }
  } finally {
    run.dispose();
  }
  return { events, cp };
}

describe('a run on a pool of parts (wasm)', () => {
  beforeAll(() => useBackend('wasm'));
  let single: RunnerEvent[];

  beforeAll(async () => {
    single = (await drain(createRun(tinySpec()))).events;
  });

  it('yields the one-part run bit for bit on 2 and 3 parts (arms in spec order, teacher, pooled pairs)', async () => {
    const spec = tinySpec();
    for (const n of [2, 3]) {
      const parts = planParts(spec, n);
      expect(parts).toHaveLength(n);
      const { events } = await drain(pool(spec, parts));
      expect(numbers(events)).toEqual(numbers(single));
    }
    // The pooled pair of a two-member arm is part of it (evaluation steps 2 and 4).
    const last = single.filter((e) => e.type === 'step').at(-1)!;
    expect(last.type === 'step' && last.arms.find((a) => a.armId === 'peer')?.ensembleMajAtG).toBeTypeOf('number');
  });

  it('checkpoints as one run: the merged checkpoint continues a pool or a one-part run exactly', async () => {
    const spec = tinySpec();
    const parts: RunPart[] = [{ arms: ['self', 'teacher'], lead: true }, { arms: ['oracle', 'peer', 'cohort'], lead: false }];
    const { cp } = await drain(pool(spec, parts), 2);
    const { cp: alone } = await drain(createRun(spec), 2);
    const timeless = (c: Checkpoint) => ({ ...c, summary: { ...c.summary, medianStepMs: 0 } });
    expect(timeless(cp!)).toEqual(timeless(alone!));
    const tail = numbers(single.filter((e) => e.type === 'step' && e.step > 2 || e.type === 'done'));
    const resumedPool = (await drain(pool(spec, planParts(spec, 2), { checkpoint: cp }))).events;
    const resumedOne = (await drain(createRun(spec, { checkpoint: cp }))).events;
    for (const events of [resumedPool, resumedOne]) {
      expect(numbers(events.filter((e) => e.type === 'step' || e.type === 'done'))).toEqual(tail);
    }
  });

  it('halts on a blow-up in any part as the one-part run does and refuses a checkpoint', async () => {
    const spec = tinySpec(3);
    const faults = { poisonWeight: { step: 2, armId: 'cohort', memberId: 'B' } };
    const alone = (await drain(createRun(spec, { faults }))).events;
    const run = pool(spec, planParts(spec, 3), { faults });
    const { events } = await drain(run);
    expect(numbers(events)).toEqual(numbers(alone));
    const halt = events.at(-1)!;
    expect(halt.type).toBe('nonfinite');
    expect(halt.type === 'nonfinite' && halt.alsoAt).toBeUndefined();
    await expect(run.checkpoint()).rejects.toThrow(/no checkpoint after step 2/);
  });
});
