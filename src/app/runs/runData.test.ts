import { describe, expect, it } from 'vitest';
import { CHECKPOINT_VERSION } from '../../core/experiment/runner';
import {
  type LoadedRun,
  checkLoadedRun,
  checkMeta,
  cleanName,
  eventsThroughStep,
  listRows,
  resumePlan,
  statusOf,
} from './runData';
import { base, checkpoint, done, eventsThrough, meta, spec, step } from './testData';

const rows = (evs: unknown[]) => evs.map((event, seq) => ({ seq, event }));

describe('resuming: the events a continued run keeps', () => {
  it('keeps the base and the steps up to the checkpoint, and drops later steps and done', () => {
    const all = eventsThrough(spec.steps);
    expect(eventsThroughStep(all, 5)).toEqual([base, step(1), step(2), step(3), step(4), step(5)]);
    expect(eventsThroughStep(all, 0)).toEqual([base]);
    expect(eventsThroughStep(all, spec.steps).at(-1)).toEqual(step(spec.steps));
    expect(eventsThroughStep([], 3)).toEqual([]);
  });

  it('plans from the checkpoint, or from the start when there is none', () => {
    const run: LoadedRun = { meta: meta(), events: eventsThrough(7), checkpoint: checkpoint(5) };
    const plan = resumePlan(run);
    expect(plan.checkpoint?.step).toBe(5);
    expect(plan.keep.map((e) => (e.type === 'step' ? e.step : e.type))).toEqual(['base', 1, 2, 3, 4, 5]);
    expect(resumePlan({ ...run, checkpoint: null })).toEqual({ keep: [], checkpoint: null });
  });
});

describe('stored data is checked as it is read back', () => {
  it('accepts a whole saved run', () => {
    const r = checkLoadedRun(meta({ stepsDone: 7 }), rows(eventsThrough(7)), checkpoint(5));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.events).toHaveLength(8);
      expect(r.value.checkpoint?.arms[0].members[0].weights[0].values).toBeInstanceOf(Float32Array);
    }
    expect(checkLoadedRun(meta(), [], null).ok).toBe(true);
  });

  it('the checkpoint schema reads the runner checkpoint version', () => {
    expect(checkpoint(1).version).toBe(CHECKPOINT_VERSION);
    expect(checkLoadedRun(meta(), rows(eventsThrough(1)), { ...checkpoint(1), version: 2 })).toMatchObject({
      ok: false,
      problem: 'its checkpoint is damaged (it was made by a newer Cohort Lab (checkpoint format v2; this page reads up to v1). Reload the page to get the latest version)',
    });
    expect(checkLoadedRun(meta(), rows(eventsThrough(1)), { ...checkpoint(1), version: 0 })).toMatchObject({
      ok: false,
      problem: 'its checkpoint is damaged (checkpoint format v0 is no longer supported (this page reads v1))',
    });
  });

  const problemOf = (m: unknown, evs: unknown[], cp: unknown) => {
    const r = checkLoadedRun(m, evs, cp);
    return r.ok ? null : r.problem;
  };

  it('reports a damaged description, event, order or checkpoint in words', () => {
    expect(problemOf({ ...meta(), status: 'exploded' }, [], null)).toMatch(/^its description is damaged \(status: /);
    expect(problemOf({ ...meta(), spec: { ...spec, steps: -1 } }, [], null)).toMatch(/spec\.steps/);
    expect(checkMeta(null).ok).toBe(false);
    const evs = rows(eventsThrough(3));
    (evs[2].event as { arms: unknown }).arms = 'nonsense';
    expect(problemOf(meta(), evs, null)).toMatch(/^saved event 2 is damaged \(event\.arms: /);
    expect(problemOf(meta(), [{ seq: 0, event: base }, { seq: 2, event: step(1) }], null)).toBe('saved event 1 is missing');
    expect(problemOf(meta(), rows([base, step(1), step(3)]), null)).toBe('saved step 2 is missing');
    expect(problemOf(meta(), rows([step(1)]), null)).toBe('saved event 0 is out of order');
    expect(problemOf(meta(), rows([base, step(1), done(), step(2)]), null)).toBe('saved event 3 is out of order');
    expect(problemOf(meta(), rows(eventsThrough(3)), checkpoint(5))).toBe('its checkpoint is at step 5 but its events end at step 3');
    expect(problemOf(meta(), rows(eventsThrough(3)), checkpoint(2, { spec: { ...spec, seed: spec.seed + 1 } }))).toBe(
      'its checkpoint does not fit it (the checkpoint was taken from another experiment)',
    );
    const bad = checkpoint(2);
    bad.references.A[0].values = new Float32Array(3);
    expect(problemOf(meta(), rows(eventsThrough(3)), bad)).toMatch(/^its checkpoint is damaged \(it holds invalid values: references\.A\.0\.values: weight "w" of shape \[2, 2\] needs 4 values, it holds 3\)$/);
    expect(problemOf(meta(), rows(eventsThrough(3)), { ...checkpoint(2), arms: [{ id: 'self', members: [{ id: 'A', weights: [{ name: 'w', shape: [1], values: [1] }] }] }] })).toMatch(/^its checkpoint is damaged/);
  });

  it('reads the checkpoint with the checkpoint format: finite values only, every arm and member of its experiment', () => {
    const nan = checkpoint(2);
    nan.arms[1].members[0].optimizer.v[0][2] = Number.NaN;
    expect(problemOf(meta(), rows(eventsThrough(3)), nan)).toBe('its checkpoint is damaged (it holds invalid values: arms.1.members.0.optimizer.v.0: value 2 is not finite (NaN))');
    const late = checkpoint(2);
    late.summary.medianStepMs = Infinity;
    expect(problemOf(meta(), rows(eventsThrough(3)), late)).toMatch(/^its checkpoint is damaged \(it holds invalid values: summary\.medianStepMs: /);
    const noPeer = checkpoint(2);
    noPeer.arms = noPeer.arms.filter((a) => a.id !== 'peer');
    expect(problemOf(meta(), rows(eventsThrough(3)), noPeer)).toBe('its checkpoint does not fit it (the checkpoint lacks arm "peer")');
    expect(problemOf(meta(), rows(eventsThrough(3)), { ...checkpoint(2), step: -1 })).toBe('its checkpoint does not fit it (the checkpoint is at step -1, outside 0-8)');
  });
});

describe('status and the list', () => {
  it('maps worker states to saved statuses', () => {
    expect(statusOf('idle', false)).toBeNull();
    expect(statusOf('warmstart', false)).toBe('running');
    expect(statusOf('rl', true)).toBe('paused');
    expect(statusOf('stopped', false)).toBe('stopped');
    expect(statusOf('done', false)).toBe('done');
    expect(statusOf('error', false)).toBe('error');
    // A non-finite step pauses the run for good: halted, whatever the phase says.
    expect(statusOf('rl', true, true)).toBe('halted');
    expect(statusOf('rl', true, false)).toBe('paused');
  });

  it('lists newest first, with the experiment, steps and status in words', () => {
    const list = listRows(
      [
        meta({ id: 'old', createdAt: 1, status: 'done', stepsDone: 8 }),
        meta({ id: 'gone', createdAt: 3, status: 'running', stepsDone: 4, edited: true }),
        meta({ id: 'live', createdAt: 2, status: 'running', stepsDone: 2 }),
        meta({ id: 'blown', createdAt: 4, status: 'halted', stepsDone: 3 }),
      ],
      'live',
    );
    expect(list.map((r) => [r.id, r.statusText, r.live, r.resumable])).toEqual([
      ['blown', 'halted: not finite', false, false],
      ['gone', 'interrupted', false, true],
      ['live', 'running', true, true],
      ['old', 'finished', false, false],
    ]);
    expect(list[1].summary).toBe('Quick look (edited): 2 members, 3 arms, seed 1');
    expect([list[1].stepsDone, list[1].steps]).toEqual([4, 8]);
  });

  it('cleans a typed name', () => {
    expect(cleanName('  my\n run  ')).toBe('my run');
    expect(cleanName('   ')).toBeNull();
    expect(cleanName('x'.repeat(200))).toHaveLength(80);
  });
});
