/**
 * Following a spec from the CLI visits the task registry once: the pool
 * resolves the spec (core/experiment/resolve.ts) and its plan, memory check, run, warm starts
 * (a dial member's greedy labels included) and restore read the resolved task and lengths instead
 * of looking the task up again by its id.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../src/core/testing/fixed-policy';
import { layered, member } from '../../src/core/experiment/presets';
import type { Checkpoint } from '../../src/core/experiment/runner';
import type { ExperimentSpec, MemberSpec } from '../../src/core/experiment/spec';
import { TASKS } from '../../src/core/tasks/index';
import { pooledSeedRun } from './pool';

/** A tiny spec whose member X imitates A's greedy answers (dial 'labels'), in two arms. */
function tinySpec(): ExperimentSpec {
  const m = (id: string, extra: Partial<MemberSpec> = {}) =>
    member({ id, family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 4, warmStartExamples: 60, ...extra });
  return layered({
    seed: 9,
    task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
    data: { labeledPool: 80, rlPool: 40, heldOut: 8 },
    members: [m('A'), m('X', { dial: { from: 'A', mode: 'labels', share: 1 } })],
    arms: [
      { id: 'self', scheme: 'self', members: ['A'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'X'] },
    ],
    grpo: { promptsPerStep: 2, groupSize: 2, learningRate: 1e-3 },
    steps: 2,
    evalEvery: 1,
  });
}

/**
 * Counts the reads of the task's registry entry (getTask reads TASKS[id]) while `body` runs. The
 * schema's check of a spec (spec.ts taskProblems: a checkpoint's spec is untrusted input and is
 * validated when read) is not a look-up of the run's task and is not counted.
 */
async function taskLookups(body: () => Promise<void>): Promise<number> {
  const entry = Object.getOwnPropertyDescriptor(TASKS, 'digitsum')!;
  let reads = 0;
  const get = () => {
    if (!new Error().stack?.includes('taskProblems')) reads++;
    return entry.value;
  };
  Object.defineProperty(TASKS, 'digitsum', { configurable: true, enumerable: true, get });
  try {
    await body();
  } finally {
    Object.defineProperty(TASKS, 'digitsum', entry);
  }
  return reads;
}

describe('a spec followed from the CLI', () => {
  beforeAll(() => useBackend('wasm'));
  afterEach(() => expect(Object.getOwnPropertyDescriptor(TASKS, 'digitsum')).toHaveProperty('value'));

  it('looks its task up once per run: planned, checked, warm-started (with a dial), trained and restored', async () => {
    const spec = tinySpec();
    let cp: Checkpoint | undefined;
    const fresh = await taskLookups(async () => {
      const run = pooledSeedRun(spec, 'wasm', 2);
      for await (const e of run.events()) {
        if (e.type === 'step' && e.step === 1) {
          cp = await run.checkpoint();
          break;
        }
      }
      run.dispose();
    });
    expect(fresh).toBe(1);
    const restored = await taskLookups(async () => {
      const run = pooledSeedRun(spec, 'wasm', 1, cp);
      for await (const e of run.events()) if (e.type === 'done') break;
      run.dispose();
    });
    expect(restored).toBe(1);
  });
});
