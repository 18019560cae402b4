/** What the page says of a warm-start miss (warmMiss.ts): every time, once, with one figure. */
import { describe, expect, it } from 'vitest';
import type { MemberInfo } from '../../core/experiment/events';
import { outOfReach } from '../../core/experiment/warmStartCohort';
import { PRESETS } from '../../core/experiment/presets';
import { initialRunState } from '../store/runSlice';
import { phaseText } from './RunStatus';
import { continuedMisses, missedMemberOf, missPhaseText } from './warmMiss';

const spec = structuredClone(PRESETS.quick.spec);
spec.members = spec.members.map((m) => ({ ...m, warmStartTarget: 0.5, warmStartSteps: 400 }));
const info = (id: string, over: Partial<MemberInfo>): MemberInfo => ({ id, family: 'mlp', params: 1000, label: 'MLP', warmStartSteps: 400, ...over });

describe('a run that went on from the best reached', () => {
  it('says, per member that missed, that it missed, with the figure the stopping sentence has', () => {
    const members = [info('A', { warmStartReached: false, warmStartBest: 0.1904, warmStartLast: 0.17 }), info('B', { warmStartReached: true, warmStartBest: 0.52 })];
    const lines = continuedMisses(spec, members);
    expect(lines).toEqual([
      "Member A's warm start reached at best 19% against its target of 50% in 400 steps: it missed, and this run went on from the best it reached, so every arm starts from a model that had not learnt the task.",
    ]);
    // The same figure, in the same words, as the sentence that stops a run at this miss.
    const stopped = outOfReach(spec, { memberId: 'A', target: 0.5, steps: 400, best: 0.1904, initSeeds: [1], onMiss: 'stop' }).message;
    expect(lines[0].split(':')[0]).toBe(stopped.split(', so this task')[0]);
  });
  it('says nothing when every member reached its target, or had none', () => {
    expect(continuedMisses(spec, [info('A', { warmStartReached: true }), info('B', {})])).toEqual([]);
    expect(continuedMisses(null, [])).toEqual([]);
  });
  it('a member with no value recorded missed too, with nothing measurable', () => {
    expect(continuedMisses(spec, [info('A', { warmStartReached: false })])[0]).toMatch(/^Member A's warm start reached nothing measurable against its target of 50% in 400 steps: it missed/);
  });
});

describe('a run that stopped at a miss', () => {
  const message = "Member B's warm start reached at best 19% against its target of 50% in 400 steps, so this task looks out of its reach for now. What would help: more rows.";
  it('names the member in the run bar, never "Stopped by an error"', () => {
    const run = { ...initialRunState(), phase: 'error' as const, error: { message, hint: '' } };
    expect(phaseText(run)).toBe('Stopped before RL: member B missed its warm-start target');
    expect(missedMemberOf('member A did not reach its warm-start target 0.50 in 200 steps (best 3.3e-3): give it more')).toBe('A');
  });
  it('any other error is still an error', () => {
    const run = { ...initialRunState(), phase: 'error' as const, error: { message: 'Device lost', hint: '' } };
    expect(phaseText(run)).toBe('Stopped by an error');
    expect(missPhaseText(null)).toBeNull();
  });
});
