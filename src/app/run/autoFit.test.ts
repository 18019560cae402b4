/**
 * The members the lab picks on its own after a measured miss: only for a task of one's own, only
 * for a cause a member can answer, and at most MAX_FIT_TRIES times per Start; the note says which
 * member, why and which try.
 */
import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { specWithTask } from '../../core/experiment/withTask';
import { afterMiss, FIT_BUDGET, MAX_FIT_TRIES } from './autoFit';

const digits = { min: 0, max: 9 };
const base = getPreset('peers-learn')!.spec;
const own = (() => {
  const r = specWithTask(base, { kind: 'generator', title: 'Sum', template: '{a}+{b}=', vars: { a: digits, b: digits }, answer: 'a+b' });
  if (!r.ok) throw new Error('the task should run');
  return r.spec;
})();

describe('members the lab picks after a miss', () => {
  it('a member that did not learn its rows: the next start has it twice as wide, and the note says why and which try', () => {
    const { next } = afterMiss(own, { memberId: 'A', cause: 'underfit' }, 0);
    expect(next?.spec.members.map((m) => m.dModel)).toEqual([128, 64]);
    expect(next?.note).toBe(`member A missed its warm-start target: it did not learn even the rows it trained on, so the lab tries it with width 128 instead of 64 (try 1 of ${MAX_FIT_TRIES}).`);
  });

  it('stops after the budget, for a cause no member answers, and for the built-in tasks', () => {
    expect(afterMiss(own, { memberId: 'A', cause: 'underfit' }, MAX_FIT_TRIES).next).toBeNull();
    expect(afterMiss(own, { memberId: 'A', cause: 'few-rows' }, 0).next).toBeNull();
    expect(afterMiss(base, { memberId: 'A', cause: 'underfit' }, 0).next).toBeNull();
  });

  it('states its budget in words', () => {
    expect(FIT_BUDGET).toBe('After a miss, the lab tries at most 2 other members on its own (twice the width or twice the warm-start steps, up to width 128 and 800 steps); each try trains that member\'s warm start again.');
  });
});
