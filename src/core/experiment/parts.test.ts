import { describe, expect, it } from 'vitest';
import { getPreset } from './presets';
import { mergeCheckpoints, mergeSteps, partMembers, planParts } from './parts';
import type { RunnerEvent } from './events';
import type { Checkpoint } from './checkpoint';

const spec = (id: string) => getPreset(id)!.spec;

describe('planParts', () => {
  it('splits arms by cost, longest first, the lead lightest on ties, never an empty part', () => {
    expect(planParts(spec('collapse'), 1)).toEqual([{ arms: ['oracle', 'self', 'peer'], lead: true }]);
    expect(planParts(spec('collapse'), 2)).toEqual([{ arms: ['self'], lead: true }, { arms: ['oracle', 'peer'], lead: false }]);
    expect(planParts(spec('collapse'), 8).map((p) => p.arms)).toEqual([['peer'], ['self'], ['oracle']]);
    // diversity: the stranger pair (a wider MLP) costs most and goes first.
    expect(planParts(spec('diversity'), 2).map((p) => p.arms)).toEqual([['peer-twins', 'peer-siblings'], ['self', 'peer-strangers']]);
    // Every arm is in exactly one part.
    for (const id of ['peers-teach', 'families', 'ring']) {
      for (const n of [1, 2, 3, 4, 16]) {
        const parts = planParts(spec(id), n);
        expect(parts.flatMap((p) => p.arms).sort()).toEqual(spec(id).arms.map((a) => a.id).sort());
        expect(parts.every((p) => p.arms.length > 0)).toBe(true);
        expect(parts.map((p) => p.lead)).toEqual(parts.map((_, k) => k === 0));
      }
    }
  });

  it('builds a part only the members its arms train or learn from; the lead builds all', () => {
    const s = spec('peers-teach');
    expect([...partMembers(s, { arms: ['teacher'], lead: false })].sort()).toEqual(['A', 'B']);
    expect([...partMembers(s, { arms: [], lead: true })].sort()).toEqual(s.members.map((m) => m.id).sort());
    expect([...partMembers(spec('diversity'), { arms: ['self'], lead: false })]).toEqual(['A']);
  });
});

describe('mergeSteps', () => {
  const s = spec('collapse');
  const step = (arms: string[]): RunnerEvent => ({
    type: 'step',
    step: 3,
    steps: 80,
    arms: arms.map((armId) => ({ armId, scheme: 'self', members: {}, pairs: [] })),
    samples: arms.map((armId) => ({ armId, prompt: '', truth: '', members: [] })),
    stepMs: 7,
    tokens: 10,
  });

  it('puts arms and samples in spec order and sums the tokens', () => {
    const m = mergeSteps(s, [step(['peer']), step(['self', 'oracle'].reverse())], 42);
    expect(m.type === 'step' && [m.arms.map((a) => a.armId), m.samples.map((x) => x.armId), m.tokens, m.stepMs]).toEqual([
      ['oracle', 'self', 'peer'],
      ['oracle', 'self', 'peer'],
      20,
      42,
    ]);
  });

  it('reports the first blown-up copy in spec order and names every other one, in any part', () => {
    const nf = (armId: string, memberId: string, alsoAt: { armId: string; memberId: string }[]): RunnerEvent => ({
      type: 'nonfinite', step: 3, armId, memberId, quantity: 'loss', value: 'NaN', explanation: '', alsoAt,
    });
    const m = mergeSteps(s, [nf('peer', 'A', [{ armId: 'peer', memberId: 'B' }]), step(['self']), nf('oracle', 'B', [])], 1);
    expect(m.type).toBe('nonfinite');
    if (m.type !== 'nonfinite') return;
    expect([m.armId, m.memberId, m.alsoAt]).toEqual(['oracle', 'B', undefined]);
    expect(m.explanation).toMatch(/^The loss of member B in arm oracle became NaN at step 3\./);
    expect(m.explanation).toMatch(/At the same step: member A in arm peer, member B in arm peer\.$/);
  });

  it('refuses parts that are out of step', () => {
    const other = { ...(step(['peer']) as Extract<RunnerEvent, { type: 'step' }>), step: 4 };
    expect(() => mergeSteps(s, [step(['oracle', 'self']), other], 1)).toThrow(/out of step/);
  });
});

describe('mergeCheckpoints', () => {
  it('takes each arm from its part, in spec order, and refuses parts of different steps', () => {
    const s = spec('collapse');
    const arm = (id: string) => ({ id, members: [] });
    const cp = (step: number, arms: string[]) => ({ version: 1, spec: s, step, members: [], references: {}, arms: arms.map(arm), summary: {} }) as unknown as Checkpoint;
    const summary = { seed: 1 } as unknown as Checkpoint['summary'];
    expect(mergeCheckpoints(s, [cp(5, ['self']), cp(5, ['peer', 'oracle'])], summary).arms.map((a) => a.id)).toEqual(['oracle', 'self', 'peer']);
    expect(() => mergeCheckpoints(s, [cp(5, ['self']), cp(6, ['peer', 'oracle'])], summary)).toThrow(/different steps/);
    expect(() => mergeCheckpoints(s, [cp(5, ['self'])], summary)).toThrow(/no part holds arm oracle/);
  });
});
