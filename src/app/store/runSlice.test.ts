import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import type { RunnerEvent } from '../../core/experiment/events';
import { nonFiniteNumberAt } from '../../core/json';
import { armMetrics, stepEvent } from './fixtures';
import { replayRecord } from './record';
import { type RunState, reduceWorkerEvent, startedRunState } from './runSlice';

const quick = PRESETS.quick.spec;
const base: RunnerEvent = {
  type: 'base',
  members: quick.members.map((m) => ({ id: m.id, family: m.family, params: 100, label: m.id })),
  base: quick.members.map((m) => ({ memberId: m.id, passAt1: 0.4, majAtG: 0.5 })),
  baseKappa: [],
};
const arms = () => quick.arms.map((a) => armMetrics(a.id, a.scheme, Object.fromEntries(a.members.map((m) => [m, {}]))));
const halt: Extract<RunnerEvent, { type: 'nonfinite' }> = {
  type: 'nonfinite',
  step: 3,
  armId: quick.arms[1].id,
  memberId: quick.arms[1].members[0],
  quantity: 'loss',
  value: 'NaN',
  explanation: 'The loss of member A became NaN at step 3.',
};

function fold(run: RunState, ...events: RunnerEvent[]): RunState {
  for (const event of events) run = reduceWorkerEvent(run, { type: 'runner', runId: run.runId, event }, 0);
  return run;
}

describe("reduceRunnerEvent and the 'nonfinite' event", () => {
  it('keeps the event as halt, the charts at the last good step, and a summary that says where it stopped with no NaN in it', () => {
    const before = fold(startedRunState(1, quick), base, stepEvent(1, arms()), stepEvent(2, arms()));
    expect(before.halt).toBeNull();
    const version = before.version;
    const after = fold(before, halt);
    expect(after.halt).toEqual(halt);
    expect(after.version).toBe(version + 1);
    expect(after.series.x).toEqual([1, 2]);
    expect(after.step).toBe(2);
    expect(after.summary?.halt).toEqual({ step: 3, armId: halt.armId, memberId: halt.memberId, quantity: 'loss' });
    expect(after.summary?.arms.flatMap((a) => a.members.flatMap((m) => m.history.map((h) => h.step)))).not.toContain(3);
    expect(nonFiniteNumberAt(after.summary)).toBeNull();
  });

  it("keeps the halt when the worker then pauses the run for good, and a new run starts without it", () => {
    let run = fold(fold(startedRunState(1, quick), base, stepEvent(1, arms())), { ...halt, step: 2 });
    run = reduceWorkerEvent(run, { type: 'state', runId: 1, phase: 'rl', paused: true, step: 1, halted: true }, 0);
    expect(run).toMatchObject({ phase: 'rl', paused: true, halted: true });
    expect(run.halt?.step).toBe(2);
    expect(startedRunState(2, quick).halt).toBeNull();
  });

  it('a saved run replayed from its events shows the halt too', () => {
    const replayed = replayRecord({ spec: quick, backend: 'wasm', events: [base, stepEvent(1, arms()), stepEvent(2, arms()), halt] }, 4);
    expect(replayed.halt).toEqual(halt);
    expect(replayed.phase).toBe('stopped');
  });
});
