import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../core/experiment/events';
import { layered, member, PRESETS } from '../core/experiment/presets';
import type { ExperimentRun, RunOptions } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import type { BackendName } from './backend-common';
import { chooseMeasured, rowText } from './backendChoice';
import { measureBackends, probeSpecFor } from './measureBackends';
import { initNodeBackend } from './node-backend';

/**
 * A fake run whose set-up and steps take the given times (asynchronously, like a GPU backend).
 * After dispose() the step in flight fails when its wait ends, as a real step does at its next
 * use of a disposed weight; `aborts[name]()` ends the wait at once (a destroyed WebGPU device
 * rejects the pending readback).
 */
function fakeRuns(
  timing: Partial<Record<BackendName, { setup: number; first: number; step: number }>>,
  log: string[],
  aborts: Partial<Record<BackendName, () => void>> = {},
  /** A virtual clock (measureBackends' `now` hook reads it): waits advance it at once instead of sleeping, so a comparison of step times cannot turn on a loaded machine's timers. */
  clock?: { ms: number },
) {
  return (spec: ExperimentSpec, opts: RunOptions): ExperimentRun => {
    const name = opts.backend as BackendName;
    const t = timing[name]!;
    let disposed = false;
    const wait = (ms: number) =>
      clock
        ? Promise.resolve().then(() => {
            clock.ms += ms;
          })
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            aborts[name] = () => {
              clearTimeout(timer);
              reject(new Error('device destroyed'));
            };
          });
    async function* events(): AsyncGenerator<RunnerEvent, void, void> {
      await wait(t.setup);
      if (disposed) throw new Error('Variable is disposed');
      yield { type: 'base', members: [], base: [], baseKappa: [] };
      for (let step = 1; step <= spec.steps; step++) {
        await wait(step === 1 ? t.first : t.step);
        if (disposed) throw new Error('Variable is disposed');
        log.push(`${name} step ${step}`);
        yield { type: 'step', step, steps: spec.steps, arms: [], samples: [], stepMs: 0, tokens: 0 } as unknown as RunnerEvent;
      }
    }
    return {
      events,
      checkpoint: () => Promise.reject(new Error('not in this fake')),
      dispose: () => {
        disposed = true;
        log.push(`${name} disposed`);
      },
    };
  };
}

const spec = PRESETS.quick.spec;
const activate = (unavailable: BackendName[] = []) => async (name: BackendName) => {
  if (unavailable.includes(name)) throw new Error(`no ${name} here`);
  // A slow hardware adapter: timed, then given up (a software one is not timed, tested below).
  return name === 'webgpu' ? { detail: 'nvidia', software: false } : { detail: null, software: false };
};

describe('probeSpecFor', () => {
  it('is the cohort without warm start or evaluation steps', () => {
    const p = probeSpecFor(PRESETS.collapse.spec);
    expect(p.members.map((m) => [m.warmStartSteps, m.warmStartTarget])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(p.members.map((m) => m.dModel)).toEqual(PRESETS.collapse.spec.members.map((m) => m.dModel));
    expect(p.arms).toEqual(PRESETS.collapse.spec.arms);
    expect(p.grpo).toEqual(PRESETS.collapse.spec.grpo);
    expect(p.evalEvery).toBe(1000);
    expect(p.steps).toBeGreaterThan(3); // step 3 is not the last step, which evaluates
    expect(p.data.heldOut).toBe(4);
  });
});

describe('measureBackends (fake runs)', () => {
  it('times the second and third steps, and gives up a slower backend mid-step', async () => {
    const log: string[] = [];
    const aborted: string[] = [];
    const progress: (BackendName | null)[] = [];
    const aborts: Partial<Record<BackendName, () => void>> = {};
    const t0 = performance.now();
    const rows = await measureBackends(spec, ['wasm', 'webgl', 'webgpu'], {
      activate: activate(['webgl']),
      createRun: fakeRuns({ wasm: { setup: 10, first: 60, step: 40 }, webgpu: { setup: 50, first: 100, step: 60_000 } }, log, aborts),
      abort: (name) => {
        aborted.push(name);
        aborts[name]?.();
      },
      onProgress: (_, current) => progress.push(current),
      numTensors: () => 0,
      budgetMs: 1000,
    });
    const elapsed = performance.now() - t0;

    expect(rows.map((r) => [r.backend, r.status])).toEqual([
      ['wasm', 'ok'],
      ['webgl', 'failed'],
      ['webgpu', 'stopped'],
    ]);
    expect(rows[0].timedSteps).toBe(2);
    expect(rows[0].msPerStep).toBeGreaterThanOrEqual(35);
    expect(rows[0].msPerStep).toBeLessThan(1000);
    expect(rows[1].note).toBe('no webgl here');
    expect(rows[2]).toMatchObject({ detail: 'nvidia', software: false, note: 'slower than wasm', msPerStep: null });
    expect(rows[2].atLeastMs).toBe(rows[0].msPerStep);
    // The minute-long step was not waited for: given up once it was slower than wasm, then cut short.
    expect(elapsed).toBeLessThan(3000);
    expect(aborted).toEqual(['webgpu']);
    expect(log).toContain('webgpu disposed');
    expect(log).not.toContain('webgpu step 2');
    // Each backend is started first (a hardware adapter beside wasm: both could win), then timed.
    expect(progress).toEqual(['wasm', 'webgl', 'webgpu', 'wasm', 'webgl', 'webgpu', null]);
    // Two that could win found early: the start-up pass stops there, and the last is started once.
    const started: BackendName[] = [];
    await measureBackends(spec, ['wasm', 'webgl', 'webgpu'], {
      activate: async (name) => (started.push(name), { detail: null, software: false }),
      createRun: fakeRuns({ wasm: { setup: 5, first: 5, step: 5 }, webgl: { setup: 5, first: 5, step: 5 }, webgpu: { setup: 5, first: 5, step: 5 } }, []),
      numTensors: () => 0,
      budgetMs: 100,
    });
    expect(started).toEqual(['wasm', 'webgl', 'wasm', 'webgl', 'webgpu']);
    expect(chooseMeasured(rows).chosen).toBe('wasm');
  });

  it('stops timing when the budget is used, and a set-up over its cap stops the backend', async () => {
    const log: string[] = [];
    const rows = await measureBackends(spec, ['wasm', 'webgpu'], {
      activate: activate(),
      createRun: fakeRuns({ wasm: { setup: 5, first: 20, step: 120 }, webgpu: { setup: 1500, first: 10, step: 10 } }, log),
      numTensors: () => 0,
      budgetMs: 200,
    });
    // 120 ms + another 120 ms would pass the 200 ms budget: one timed step.
    expect(rows[0]).toMatchObject({ status: 'ok', timedSteps: 1 });
    expect(log.filter((l) => l.startsWith('wasm step'))).toEqual(['wasm step 1', 'wasm step 2']);
    // Set-up cap of a GPU: max(3 x budget, 3 x best) = 600 ms.
    expect(rows[1]).toMatchObject({ status: 'stopped', atLeastMs: null });
    // The note says the cap as fmtStepMs writes it: "600 ms", or "1.1 s" on a loaded machine where
    // the fake wasm step took longer than its 120 ms and 3 x its time passed a second.
    const said = rows[1].note!.match(/^set-up and first step took over ([\d.]+) (ms|s); wasm's took [\d.]+ m?s$/);
    expect(said, rows[1].note!).not.toBeNull();
    const cap = Number(said![1]) * (said![2] === 's' ? 1000 : 1);
    expect(Math.abs(cap - Math.max(600, 3 * rows[0].msPerStep!))).toBeLessThanOrEqual(said![2] === 's' ? 50 : 1);
    // Without an abort hook the given-up set-up ran to its end, then failed on the disposed run.
    expect(log).toContain('webgpu disposed');
  });

  it('does not time a software WebGL renderer once a CPU backend works (its step cannot be given up)', async () => {
    const log: string[] = [];
    // On a virtual clock: wasm's 30 ms step against webgpu's 50 ms is what decides, not the timers of a loaded machine.
    const clock = { ms: 0 };
    const rows = await measureBackends(spec, ['wasm', 'webgl', 'webgpu'], {
      activate: async (name) => (name === 'webgl' ? { detail: 'swiftshader', software: true } : { detail: 'nvidia', software: false }),
      createRun: fakeRuns({ wasm: { setup: 5, first: 20, step: 30 }, webgl: { setup: 5, first: 5, step: 5 }, webgpu: { setup: 5, first: 5, step: 50 } }, log, {}, clock),
      now: () => clock.ms,
      numTensors: () => 0,
      budgetMs: 200,
    });
    expect(rows[0]).toMatchObject({ backend: 'wasm', status: 'ok' });
    expect(rows[1]).toMatchObject({ backend: 'webgl', status: 'stopped', msPerStep: null });
    expect(rows[1].note).toMatch(/software renderer \(swiftshader\)/);
    expect(log.some((l) => l.startsWith('webgl'))).toBe(false);
    expect([rows[0].msPerStep, rows[2].msPerStep]).toEqual([30, 50]);
    expect(chooseMeasured(rows).chosen).toBe('wasm');
  });

  it('chooses the only backend that is not a software emulation without timing anything (nothing could beat it)', async () => {
    const log: string[] = [];
    const progress: (BackendName | null)[] = [];
    const rows = await measureBackends(spec, ['wasm', 'webgl', 'webgpu'], {
      activate: async (name) => (name === 'wasm' ? { detail: 'threaded simd', software: false } : { detail: 'swiftshader', software: true }),
      createRun: fakeRuns({ wasm: { setup: 5, first: 20, step: 30 }, webgl: { setup: 5, first: 5, step: 5 }, webgpu: { setup: 5, first: 5, step: 5 } }, log),
      onProgress: (_, current) => progress.push(current),
      numTensors: () => 0,
    });
    expect(rows.map((r) => [r.backend, r.status])).toEqual([
      ['wasm', 'untimed'],
      ['webgl', 'stopped'],
      ['webgpu', 'stopped'],
    ]);
    expect(rows[2].note).toBe('not timed: a software adapter (swiftshader), many times slower than wasm for models this small');
    expect(log).toEqual([]); // no run was built on any backend
    expect(progress).toEqual(['wasm', 'webgl', 'webgpu', null]);
    expect(chooseMeasured(rows)).toEqual({ chosen: 'wasm', reason: 'the only backend here that is not a software emulation' });
    expect(rowText(rows[0])).toBe('wasm (threaded simd): not timed (nothing else here could beat it)');
    // A failed backend beside it changes nothing; two that could win are both timed.
    const failed = await measureBackends(spec, ['wasm', 'webgpu'], { activate: activate(['webgpu']), createRun: fakeRuns({}, []), numTensors: () => 0 });
    expect(failed.map((r) => r.status)).toEqual(['untimed', 'failed']);
  });

  it('times a software adapter when nothing else works (it is all there is)', async () => {
    const rows = await measureBackends(spec, ['wasm', 'webgpu'], {
      activate: async (name) => {
        if (name === 'wasm') throw new Error('no wasm here');
        return { detail: 'swiftshader', software: true };
      },
      createRun: fakeRuns({ webgpu: { setup: 5, first: 5, step: 5 } }, []),
      numTensors: () => 0,
      budgetMs: 200,
    });
    expect(rows[1]).toMatchObject({ backend: 'webgpu', status: 'ok', software: true });
    expect(chooseMeasured(rows).chosen).toBe('webgpu');
  });

  it('a backend whose run throws is failed, and the next one is still measured', async () => {
    const rows = await measureBackends(spec, ['wasm', 'webgl'], {
      activate: activate(),
      createRun: (s, o) => {
        if (o.backend === 'wasm') throw new Error('Kernel Foo not registered');
        return fakeRuns({ webgl: { setup: 5, first: 5, step: 5 } }, [])(s, o);
      },
      numTensors: () => 0,
    });
    expect(rows.map((r) => [r.backend, r.status, r.note])).toEqual([
      ['wasm', 'failed', 'Kernel Foo not registered'],
      ['webgl', 'ok', null],
    ]);
  });

  it('stops between pulls when cancelled, returning the rows so far', async () => {
    let cancel = false;
    const log: string[] = [];
    const runs = fakeRuns({ wasm: { setup: 5, first: 5, step: 5 }, webgl: { setup: 5, first: 5, step: 5 } }, log);
    const rows = await measureBackends(spec, ['wasm', 'webgl'], {
      activate: activate(),
      createRun: (s, o) => {
        if (o.backend === 'webgl') cancel = true; // e.g. Reset pressed while webgl is being measured
        return runs(s, o);
      },
      cancelled: () => cancel,
      numTensors: () => 0,
    });
    expect(rows.map((r) => r.backend)).toEqual(['wasm']);
    expect(log).toContain('webgl disposed');
  });
});

describe('measureBackends (real runs, Node)', () => {
  it('times a real RL step on wasm and cpu and leaves no tensor behind', async () => {
    const tiny = layered({
      task: { id: 'digitsum', difficulty: 3 },
      data: { labeledPool: 100, rlPool: 100, heldOut: 8 },
      members: [
        member({ id: 'A', family: 'mlp', dModel: 16, layers: 1, warmStartSteps: 20, warmStartExamples: 50 }),
        member({ id: 'B', family: 'gru', dModel: 16, layers: 1, warmStartSteps: 20, warmStartExamples: 50 }),
      ],
      arms: [{ id: 'peer', scheme: 'peer', members: ['A', 'B'] }],
      grpo: { promptsPerStep: 2, groupSize: 4, learningRate: 1e-3 },
      steps: 50,
      evalEvery: 5,
    });
    await initNodeBackend('wasm');
    const before = tf.memory().numTensors;
    const rows = await measureBackends(tiny, ['wasm', 'cpu'], {
      activate: async (name) => {
        await initNodeBackend(name as 'wasm' | 'cpu', { fallback: false });
        return { detail: null, software: false };
      },
    });
    expect(rows.map((r) => [r.backend, r.status])).toEqual([
      ['wasm', 'ok'],
      ['cpu', 'ok'],
    ]);
    for (const r of rows) {
      expect(r.msPerStep).toBeGreaterThan(0);
      expect(r.timedSteps).toBeGreaterThanOrEqual(1);
      expect(r.leakedTensors).toBe(0);
    }
    expect(tf.memory().numTensors).toBe(before);
    await initNodeBackend('wasm');
  });
});
