/**
 * The start-up timeline: the first event of each kind after Start marks its phase, in ms since
 * Start; later events of the same kind, and a choice made before Start, mark nothing.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import type { RunnerEvent } from '../../core/experiment/events';
import type { WorkerEvent } from '../../engine/protocol';
import { armMetrics, stepEvent } from './fixtures';
import { markStartup } from './progress';
import { initialRunState, reduceWorkerEvent, startedRunState } from './runSlice';

const spec = PRESETS.quick.spec;
const runner = (event: RunnerEvent): WorkerEvent => ({ type: 'runner', runId: 1, event });
const measured: WorkerEvent = { type: 'measurement', status: 'measured', key: 'k', rows: [], current: null, chosen: 'wasm', reason: 'fastest', measuredAt: 1 };
const warm: RunnerEvent = { type: 'warmstart', memberId: 'A', step: 0, steps: 0, loss: NaN, memberIndex: 0, memberCount: 2 };
const base: RunnerEvent = { type: 'base', members: [], base: [], baseKappa: [] };
const step = (n: number) => stepEvent(n, spec.arms.map((a) => armMetrics(a.id, a.scheme, { A: { reward: 0.5 } })), { steps: spec.steps, samples: [], stepMs: 10, tokens: 10 });

describe('the start-up timeline', () => {
  it('marks each phase once, at the first event of its kind after Start', () => {
    let run = startedRunState(1, spec, { now: 10_000, openToStartMs: 1200 });
    const at = (ev: WorkerEvent, now: number) => (run = reduceWorkerEvent(run, ev, now));
    at(measured, 10_400);
    at({ type: 'state', runId: 1, phase: 'warmstart', paused: false, step: 0, halted: false }, 10_450);
    at(runner(warm), 10_500);
    at(runner({ ...warm, memberId: 'B', memberIndex: 1 }), 11_000);
    at(measured, 11_100); // not preparing any more: not the run's choice
    at(runner(base), 12_000);
    at(runner(step(1)), 13_500);
    at(runner(step(2)), 14_000);
    expect(run.startup).toEqual({
      openToStartMs: 1200,
      startedAt: 10_000,
      marks: [
        { phase: 'backend', atMs: 400 },
        { phase: 'warm', atMs: 500 },
        { phase: 'base', atMs: 2000 },
        { phase: 'step', atMs: 3500 },
      ],
    });
  });

  it('has nothing before a Start or in a replayed run, and a remembered choice counts as the backend phase', () => {
    expect(reduceWorkerEvent(initialRunState(), measured, 5).startup).toBeNull();
    expect(reduceWorkerEvent(startedRunState(1, spec), measured, 5).startup).toBeNull();
    const run = reduceWorkerEvent(startedRunState(1, spec, { now: 100, openToStartMs: null }), { ...measured, status: 'remembered' }, 130);
    expect(run.startup?.marks).toEqual([{ phase: 'backend', atMs: 30 }]);
    expect(reduceWorkerEvent(startedRunState(1, spec, { now: 100, openToStartMs: null }), { ...measured, status: 'measuring' }, 130).startup?.marks).toEqual([]);
    const t = run.startup;
    expect(markStartup(t, 'backend', 500)).toBe(t);
  });
});
