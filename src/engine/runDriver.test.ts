/**
 * The run driver against a fake run and a fake clock: the controller's effects carried out end to
 * end (pull, checkpoint, wait, dispose, rebuild after a lost device), with commands arriving while
 * a step is in flight, as they do in the worker.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RunnerEvent } from '../core/experiment/events';
import type { Checkpoint, ExperimentRun } from '../core/experiment/runner';
import type { WorkerEvent } from './protocol';
import { RunDriver, type RunDriverDeps } from './runDriver';

const STEPS = 8;

/**
 * A run of STEPS steps from `from` (a checkpoint's step, or the start with a warm start). Each
 * pull waits on `gate(step)` when given, so a test can hold a step in flight.
 */
function fakeRun(from: number | null, gate?: (step: number) => Promise<void>) {
  let at = from ?? 0;
  let disposed = false;
  const run: ExperimentRun & { disposed: () => boolean } = {
    async *events(): AsyncGenerator<RunnerEvent, void, void> {
      if (from === null) yield { type: 'warmstart', memberId: 'A', step: 1, steps: 2, loss: 1, memberIndex: 0, memberCount: 1 };
      yield { type: 'base', members: [], base: [], baseKappa: [] };
      while (at < STEPS && !disposed) {
        const k = at + 1;
        if (gate) await gate(k);
        at = k;
        yield { type: 'step', step: k, steps: STEPS, arms: [], samples: [], stepMs: 1, tokens: 1 };
      }
      if (!disposed) yield { type: 'done', summary: {} as never };
    },
    async checkpoint() {
      return { step: at, spec: { steps: STEPS } } as unknown as Checkpoint;
    },
    dispose() {
      disposed = true;
    },
    disposed: () => disposed,
  };
  return run;
}

function harness(overrides: Partial<RunDriverDeps> = {}) {
  const posted: WorkerEvent[] = [];
  let clock = 0;
  const deps: RunDriverDeps = {
    post: (e) => posted.push(e),
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    tick: () => new Promise((r) => setTimeout(r, 0)),
    hint: () => 'a hint',
    errorText: (e) => (e instanceof Error ? e.message : String(e)),
    deviceLostBehind: async () => null,
    rebuild: async () => {
      throw new Error('no rebuild in this test');
    },
    ...overrides,
  };
  return { deps, posted, advance: (ms: number) => (clock += ms) };
}

const stepsPosted = (posted: WorkerEvent[]) => posted.flatMap((e) => (e.type === 'runner' && e.event.type === 'step' ? [e.event.step] : []));
const states = (posted: WorkerEvent[]) => posted.flatMap((e) => (e.type === 'state' ? [`${e.phase}${e.paused ? '/paused' : ''}@${e.step}`] : []));
const checkpointSteps = (posted: WorkerEvent[]) => posted.flatMap((e) => (e.type === 'checkpoint' ? [`${e.reason}@${e.checkpoint.step}`] : []));

describe('run driver', () => {
  it('runs to the end: every step once, checkpoints on schedule, then disposes', async () => {
    const { deps, posted } = harness();
    const run = fakeRun(null);
    const d = new RunDriver(deps, 1, run, { steps: STEPS });
    await d.finished;
    expect(stepsPosted(posted)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(checkpointSteps(posted)).toEqual(['base@0', 'every@5', 'done@8']);
    expect(states(posted)).toEqual(['warmstart@0', 'rl@0', 'done@8']);
    expect(run.disposed()).toBe(true);
    expect(d.released).toBe(true);
  });

  it('pause holds the run between steps; Step runs one; Resume goes on; Stop mid-step keeps that step', async () => {
    const { deps, posted } = harness();
    let release: (() => void) | null = null;
    let holdAt = -1;
    // Pause the moment step 2 is posted (as a message arriving then would).
    const post = (e: WorkerEvent) => {
      deps.post(e);
      if (e.type === 'runner' && e.event.type === 'step' && e.event.step === 2) d.command({ type: 'pause' });
    };
    const d: RunDriver = new RunDriver({ ...deps, post }, 2, fakeRun(null, async (k) => {
      if (k === holdAt) await new Promise<void>((r) => (release = r));
    }), { steps: STEPS });
    await vi.waitFor(() => expect(states(posted).at(-1)).toMatch(/paused/));
    const pausedAt = stepsPosted(posted).at(-1)!;
    expect(states(posted).at(-1)).toBe(`rl/paused@${pausedAt}`);
    expect(checkpointSteps(posted).at(-1)).toBe(`paused@${pausedAt}`);
    // Nothing more while paused: the worker's state says the last step, and it is the last posted.
    await new Promise((r) => setTimeout(r, 20));
    expect(stepsPosted(posted).at(-1)).toBe(pausedAt);
    d.command({ type: 'step' });
    await vi.waitFor(() => expect(states(posted).at(-1)).toBe(`rl/paused@${pausedAt + 1}`));
    expect(stepsPosted(posted).at(-1)).toBe(pausedAt + 1);
    holdAt = pausedAt + 2;
    d.command({ type: 'resume' });
    await vi.waitFor(() => expect(release).not.toBeNull()); // step pausedAt + 2 is in flight
    d.command({ type: 'stop' });
    release!();
    await d.finished;
    expect(pausedAt).toBe(2);
    expect(stepsPosted(posted)).toEqual([1, 2, 3, 4]);
    expect(checkpointSteps(posted).at(-1)).toBe('stopped@4');
    expect(states(posted).at(-1)).toMatch(/^stopped/);
  });

  it('keeps to the speed limit through the injected clock', async () => {
    const { deps, posted } = harness();
    const sleep = vi.fn(deps.sleep);
    const d = new RunDriver({ ...deps, sleep }, 3, fakeRun(null), { steps: STEPS, stepsPerSecond: 10 });
    await d.finished;
    expect(stepsPosted(posted)).toHaveLength(STEPS);
    // 100 ms between steps, in slices of at most 50 ms: two sleeps per step after the first.
    expect(sleep.mock.calls.map((c) => c[0])).toEqual(Array(2 * (STEPS - 1)).fill(50));
  });

  it('fails in words when a step throws, and disposes', async () => {
    const { deps, posted } = harness();
    const run = fakeRun(null, async (k) => {
      if (k === 3) throw new Error('kernel exploded');
    });
    const d = new RunDriver(deps, 4, run, { steps: STEPS });
    await d.finished;
    expect(posted.filter((e) => e.type === 'error')).toEqual([{ type: 'error', runId: 4, message: 'kernel exploded', hint: 'a hint' }]);
    expect(states(posted).at(-1)).toBe('error@2');
    expect(run.disposed()).toBe(true);
  });

  it('after a lost device (a step that never returns) rebuilds from the last checkpoint and finishes with every step once', async () => {
    const { deps, posted } = harness();
    const rebuild = vi.fn(async (from: Checkpoint | null) => fakeRun(from ? from.step : null));
    const first = fakeRun(null, async (k) => {
      if (k === 7) await new Promise(() => {}); // the lost device's readback never settles
    });
    const d = new RunDriver({ ...deps, rebuild }, 5, first, { steps: STEPS });
    await vi.waitFor(() => expect(stepsPosted(posted)).toContain(6));
    d.deviceLost('WebGPU device lost (destroyed)');
    await d.finished;
    expect(rebuild).toHaveBeenCalledTimes(1);
    expect(rebuild.mock.calls[0][0]?.step).toBe(5);
    expect(first.disposed()).toBe(true);
    const i = posted.findIndex((e) => e.type === 'recovered');
    expect(posted[i]).toEqual({ type: 'recovered', runId: 5, fromStep: 5 });
    // Before: 1..6; after: 6..8 again from the checkpoint of 5; the page drops 6 at 'recovered'.
    expect(stepsPosted(posted.slice(0, i))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stepsPosted(posted.slice(i))).toEqual([6, 7, 8]);
    expect(posted.slice(i).filter((e) => e.type === 'runner' && e.event.type === 'base')).toEqual([]);
    expect(states(posted).at(-1)).toBe('done@8');
  });

  it('a failed pull caused by a lost device rebuilds instead of failing', async () => {
    const lost = vi.fn(async () => 'WebGPU device lost (destroyed)');
    const rebuild = vi.fn(async (from: Checkpoint | null) => fakeRun(from ? from.step : null));
    const { deps, posted } = harness({ deviceLostBehind: lost, rebuild });
    let failed = false;
    const d = new RunDriver(deps, 6, fakeRun(null, async (k) => {
      if (k === 3 && !failed) {
        failed = true;
        throw new Error('mapAsync: device is lost');
      }
    }), { steps: STEPS });
    await d.finished;
    expect(posted.filter((e) => e.type === 'error')).toEqual([]);
    expect(posted.find((e) => e.type === 'recovered')).toEqual({ type: 'recovered', runId: 6, fromStep: 0 });
    expect(states(posted).at(-1)).toBe('done@8');
  });
});
