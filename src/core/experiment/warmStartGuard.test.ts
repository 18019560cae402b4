/**
 * The warm-start guard (docs/WARMSTARTS.md, "The guard"): a member that did not reach its
 * warm-start target never enters RL. With warmStart.onMiss 'stop' the run's events() rejects with a
 * WarmStartMissError naming the member before the base evaluation; with 'retry' the member is
 * rebuilt with the next init seeds and its MemberInfo says which one was used.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, WarmStartMissError, type RunOptions } from './runner';
import { layered, member } from './presets';
import type { ExperimentSpec, MemberSpec } from './spec';
import type { MemberInfo, RunnerEvent } from './events';
import { buildMember } from './cohort';
import { missMessage } from './warmStartCohort';
import {
  decodeWarmStartFile,
  encodeWarmStartFile,
  loadOrBuildMember,
  memoryWarmStartCache,
  runMaxLen,
  warmStartFileOf,
  warmStartInputs,
  warmStartKey,
  warmStartKeyFields,
  type WarmStartCache,
} from './warmStartCache';
import { useBackend } from '../testing/fixed-policy';

/** A tiny MLP: a few warm-start steps take well under a second on wasm. */
const mlp = (id: string, patch: Partial<MemberSpec> = {}): MemberSpec =>
  member({ id, family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 3, warmStartTarget: 0, warmStartExamples: 120, ...patch });

function spec(members: MemberSpec[], warmStart: Partial<ExperimentSpec['warmStart']> = {}): ExperimentSpec {
  return layered({
    seed: 5,
    task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
    data: { labeledPool: 160, rlPool: 100, heldOut: 16 },
    warmStart: { batchSize: 32, learningRate: 1e-2, ...warmStart },
    members,
    arms: [{ id: 'self', scheme: 'self', members: members.map((m) => m.id) }],
    grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
    steps: 1,
    evalEvery: 1,
  });
}

/** Every event a run yields, and the error it ends with (null when it finished). */
async function drain(s: ExperimentSpec, cache?: WarmStartCache): Promise<{ events: RunnerEvent[]; error: unknown }> {
  const run = createRun(s, { backend: 'wasm', warmStartCache: cache } as RunOptions);
  const events: RunnerEvent[] = [];
  let error: unknown = null;
  try {
    for await (const e of run.events()) events.push(e);
  } catch (e) {
    error = e;
  } finally {
    run.dispose();
  }
  return { events, error };
}

const baseMembers = (events: RunnerEvent[]): MemberInfo[] => {
  const base = events.find((e) => e.type === 'base');
  if (!base || base.type !== 'base') throw new Error('no base event');
  return base.members;
};

/** The best validation value a member's warm start reaches (target out of reach: all steps run). */
async function bestOf(s: ExperimentSpec, m: MemberSpec): Promise<number> {
  const w = await buildMember(warmStartInputs(s), { ...m, warmStartTarget: 0.999 });
  w.reference.dispose();
  return w.info.warmStartBest!;
}

describe('the warm-start guard on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it("stop (the default): events() rejects naming the member that missed, before any 'base' event", async () => {
    const B = mlp('B', { warmStartTarget: 0.99 });
    const tensors = tf.memory().numTensors;
    const { events, error } = await drain(spec([mlp('A'), B]));
    expect(error).toBeInstanceOf(WarmStartMissError);
    const miss = error as WarmStartMissError;
    expect(miss).toMatchObject({ name: 'WarmStartMissError', memberId: 'B', target: 0.99, steps: 3, initSeeds: [B.initSeed] });
    expect(miss.best).toBeGreaterThan(0);
    expect(miss.best).toBeLessThan(0.99);
    expect(miss.message).toBe(
      `member B did not reach its warm-start target 0.99 in 3 steps (best ${miss.best!.toExponential(1)}): ` +
        "give it more warm-start steps, a lower target or another initSeed, or set warmStart.onMiss to 'retry'",
    );
    expect(events.map((e) => e.type)).not.toContain('base');
    expect(events.some((e) => e.type === 'warmstart' && e.memberId === 'B')).toBe(true);
    expect(tf.memory().numTensors).toBe(tensors); // the member that missed and A are freed
  });

  it('a member that reaches its target records it, and the run goes on', async () => {
    const A = mlp('A', { warmStartTarget: 1e-6 });
    const { events, error } = await drain(spec([A]));
    expect(error).toBeNull();
    const [info] = baseMembers(events);
    expect(info).toMatchObject({ id: 'A', warmStartReached: true });
    expect(info.warmStartBest).toBeGreaterThanOrEqual(1e-6);
    expect(info).not.toHaveProperty('warmStartRetries'); // only with onMiss 'retry'
    expect(events.at(-1)?.type).toBe('done');
  });

  it('retry: the member is rebuilt with the next init seed; its MemberInfo says which, a cache keeps both', async () => {
    // A target between two seeds' best values: the first misses it, the next one reaches it.
    let first = 1;
    let target = NaN;
    for (; first < 8; first++) {
      const s = spec([mlp('A', { initSeed: first })]);
      const [a, b] = [await bestOf(s, mlp('A', { initSeed: first })), await bestOf(s, mlp('A', { initSeed: first + 1 }))];
      if (b > a * 1.2) {
        target = Math.sqrt(a * b);
        break;
      }
    }
    expect(target, 'two seeds in 1..8 whose best values differ').not.toBeNaN();
    const A = mlp('A', { initSeed: first, warmStartTarget: target });

    const stopped = await drain(spec([A]));
    expect(stopped.error).toBeInstanceOf(WarmStartMissError);
    expect((stopped.error as Error).message).toMatch(/^member A did not reach its warm-start target .* in 3 steps \(best .*\): .*, or set warmStart.onMiss to 'retry'$/);

    const retrying = spec([A], { onMiss: 'retry' });
    const cache = memoryWarmStartCache();
    const trained = await drain(retrying, cache);
    expect(trained.error).toBeNull();
    const [info] = baseMembers(trained.events);
    expect(info).toMatchObject({ id: 'A', warmStartReached: true, warmStartInitSeed: first + 1, warmStartRetries: 1, warmStartSource: 'trained' });
    // Both warm starts are stored under the key of the seed that made them (the miss as a miss).
    const key = (initSeed: number) => warmStartKey(retrying, { ...A, initSeed }, runMaxLen(retrying), 'wasm');
    expect(cache.entries.get(key(first))).toMatchObject({ reachedTarget: false });
    expect(cache.entries.get(key(first + 1))).toMatchObject({ reachedTarget: true });
    expect(cache.entries.size).toBe(2);

    const cached = await drain(retrying, cache);
    expect(cached.events.filter((e) => e.type === 'warmstart' && e.step > 0)).toEqual([]); // nothing trained
    expect(baseMembers(cached.events)).toEqual([{ ...info, warmStartSource: 'cached' }]);
    expect(cached.events.find((e) => e.type === 'base')).toEqual({ ...trained.events.find((e) => e.type === 'base'), members: [{ ...info, warmStartSource: 'cached' }] });
  });

  it('retry: when every seed misses, the same error names every seed tried', async () => {
    const A = mlp('A', { initSeed: 40, warmStartTarget: 0.99 });
    const { events, error } = await drain(spec([A], { onMiss: 'retry', retries: 2 }));
    expect(error).toBeInstanceOf(WarmStartMissError);
    expect(error).toMatchObject({ memberId: 'A', initSeeds: [40, 41, 42], steps: 3 });
    expect((error as Error).message).toMatch(
      /^member A did not reach its warm-start target 0\.99 in 3 steps with init seed 40, 41 or 42 \(best [^)]+\): give it more warm-start steps, a lower target or another initSeed, or allow more warmStart\.retries$/,
    );
    expect(events.map((e) => e.type)).not.toContain('base');
    // Three warm starts of A were streamed, each from step 1.
    expect(events.filter((e) => e.type === 'warmstart' && e.step === 1)).toHaveLength(3);
  });
});

describe('the target record of a stored warm start', () => {
  beforeAll(() => useBackend('wasm'));

  it('is written and read; a file without it (made before the guard) still reads, and the record is derived', async () => {
    const s = spec([mlp('A', { warmStartTarget: 0.99 })]);
    const m = s.members[0];
    const inputs = warmStartInputs(s);
    const fields = warmStartKeyFields(s, m, inputs.maxLen, 'wasm');
    const built = await buildMember(inputs, m);
    expect(built.info).toMatchObject({ warmStartReached: false, warmStartSteps: 3 });
    const file = await warmStartFileOf(built, fields, 'shipped');
    built.reference.dispose();
    expect(file).toMatchObject({ reachedTarget: false, bestValidation: built.info.warmStartBest, lastValidation: built.info.warmStartLast });
    expect(decodeWarmStartFile(encodeWarmStartFile(file))).toEqual(file);
    expect(() => decodeWarmStartFile({ ...encodeWarmStartFile(file), bestValidation: 2 })).toThrow(/bestValidation/);

    // An old file: no record. The whole budget was used, so the loaded weights are measured.
    const { reachedTarget: _r, bestValidation: _b, lastValidation: _l, ...old } = encodeWarmStartFile(file);
    expect(decodeWarmStartFile(structuredClone(old))).not.toHaveProperty('reachedTarget');
    const cache = memoryWarmStartCache();
    cache.entries.set(file.key, old as ReturnType<typeof encodeWarmStartFile>);
    const load = () => loadOrBuildMember({ ...inputs, backend: 'wasm', cache }, m);
    const measured = await load();
    expect(measured.source).toBe('shipped');
    expect(measured.info).toMatchObject({ warmStartReached: false, warmStartLast: built.info.warmStartLast });
    measured.reference.dispose();

    // Fewer steps than the budget: only the target stops a warm start early, so it was reached.
    cache.entries.set(file.key, { ...(old as ReturnType<typeof encodeWarmStartFile>), warmStartSteps: 2 });
    const early = await load();
    expect(early.info.warmStartReached).toBe(true);
    expect(early.info).not.toHaveProperty('warmStartBest');
    early.reference.dispose();
  });
});

describe('missMessage', () => {
  it('names the member, its target, budget and best, and what to change', () => {
    const miss = { memberId: 'B', target: 0.4, steps: 800, best: 0.12, initSeeds: [7], onMiss: 'stop' as const };
    expect(missMessage(miss)).toBe(
      "member B did not reach its warm-start target 0.40 in 800 steps (best 0.12): give it more warm-start steps, a lower target or another initSeed, or set warmStart.onMiss to 'retry'",
    );
    expect(missMessage({ ...miss, onMiss: 'retry', initSeeds: [7, 8, 9] })).toBe(
      'member B did not reach its warm-start target 0.40 in 800 steps with init seed 7, 8 or 9 (best 0.12): give it more warm-start steps, a lower target or another initSeed, or allow more warmStart.retries',
    );
    expect(missMessage({ ...miss, onMiss: 'retry', initSeeds: [1, 2, 3, 4, 5, 6], best: null, target: 0.375 })).toBe(
      'member B did not reach its warm-start target 0.375 in 800 steps with init seed 1, 2, 3, 4, 5 or 6: give it more warm-start steps, a lower target or another initSeed',
    );
  });
});
