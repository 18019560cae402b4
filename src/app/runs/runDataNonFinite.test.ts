/**
 * Saved runs and numerical blow-ups: the 'nonfinite' event is kept as the last event of a run,
 * and a NaN or an infinity anywhere in a stored event (IndexedDB keeps them, JSON cannot) is
 * damage, refused by name.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../store/record';
import { checkLoadedRun, eventsThroughStep, resumePlan } from './runData';
import { base, checkpoint, done, meta, step } from './testData';

const rows = (evs: unknown[]) => evs.map((event, seq) => ({ seq, event }));
const halt: RecordedEvent = {
  type: 'nonfinite',
  step: 4,
  armId: 'self',
  memberId: 'A',
  quantity: 'loss',
  value: 'NaN',
  explanation: 'The loss of member A in arm self became NaN at step 4.',
};
const stopped = [base, step(1), step(2), step(3), halt];

describe("a saved run that stopped on a NaN ('nonfinite')", () => {
  it('is read back whole, with the checkpoint of a step before it', () => {
    const r = checkLoadedRun(meta({ stepsDone: 3, status: 'done' }), rows(stopped), checkpoint(3));
    expect(r.ok && r.value.events.at(-1)).toEqual(halt);
  });

  it('ends the run: an event after it is out of order', () => {
    expect(checkLoadedRun(meta(), rows([...stopped, step(4)]), null)).toEqual({ ok: false, problem: 'saved event 5 is out of order' });
    expect(checkLoadedRun(meta(), rows([...stopped, done()]), null)).toEqual({ ok: false, problem: 'saved event 5 is out of order' });
  });

  it('is dropped when a run resumes from a checkpoint before it', () => {
    expect(eventsThroughStep(stopped, 3)).toEqual([base, step(1), step(2), step(3)]);
    const plan = resumePlan({ meta: meta(), events: stopped, checkpoint: checkpoint(2) });
    expect(plan.keep.map((e) => (e.type === 'step' ? e.step : e.type))).toEqual(['base', 1, 2]);
  });

  it('must say what and how: an unknown quantity or value is damage', () => {
    expect(checkLoadedRun(meta(), rows([base, step(1), { ...halt, quantity: 'kl' }]), null).ok).toBe(false);
    expect(checkLoadedRun(meta(), rows([base, step(1), { ...halt, value: 'nan' }]), null).ok).toBe(false);
  });
});

describe('no NaN or infinity is read back from a saved event', () => {
  for (const bad of [Number.NaN, Infinity, -Infinity]) {
    it(`refuses ${bad} in a metric, a counter or a field the schema does not name, naming where`, () => {
      const metric = structuredClone(step(2)) as Extract<RecordedEvent, { type: 'step' }>;
      metric.arms[0].members.A.loss = bad;
      expect(checkLoadedRun(meta(), rows([base, step(1), metric]), null)).toEqual({
        ok: false,
        problem: `saved event 2 is damaged (arms.0.members.A.loss: ${bad} is not a finite number)`,
      });
      const counter = { ...step(1), stepMs: bad };
      expect(checkLoadedRun(meta(), rows([base, counter]), null)).toMatchObject({ ok: false, problem: `saved event 1 is damaged (stepMs: ${bad} is not a finite number)` });
      const pair = structuredClone(step(1)) as Extract<RecordedEvent, { type: 'step' }>;
      pair.arms[0].ensembleMajAtG = bad;
      expect(checkLoadedRun(meta(), rows([base, pair]), null)).toMatchObject({ ok: false, problem: `saved event 1 is damaged (arms.0.ensembleMajAtG: ${bad} is not a finite number)` });
      const baseKappa = { ...base, baseKappa: [{ a: 'A', b: 'B', kappa: bad, bothWrongSame: 0 }] };
      expect(checkLoadedRun(meta(), rows([baseKappa]), null)).toMatchObject({ ok: false, problem: `saved event 0 is damaged (baseKappa.0.kappa: ${bad} is not a finite number)` });
    });
  }
});
