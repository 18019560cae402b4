import { describe, expect, it } from 'vitest';
import { emptySummary, foldEvent } from './summary';
import { layered, member } from './presets';
import type { MemberStepMetrics, RunnerEvent } from './events';

const spec = layered({
  members: [member({ id: 'A', family: 'mlp' }), member({ id: 'B', family: 'mlp' })],
  arms: [{ id: 'self', scheme: 'self', members: ['A', 'B'] }],
  collapseDelta: 0.1,
});

/** Metrics where only reward and held-out pass@1 matter to the fold. */
const metrics = (reward: number, evalPassAt1?: number): MemberStepMetrics =>
  ({ reward, ...(evalPassAt1 === undefined ? {} : { evalPassAt1 }) }) as MemberStepMetrics;

const step = (s: number, reward: number, acc?: number): RunnerEvent => ({
  type: 'step',
  step: s,
  steps: 3,
  arms: [{ armId: 'self', scheme: 'self', members: { A: metrics(reward, acc), B: metrics(0.5) }, pairs: [{ a: 'A', b: 'B', agreement: 1, kappa: null, bothWrongSame: 0 }] }],
  samples: [],
  stepMs: 1,
  tokens: 1,
});

describe('foldEvent', () => {
  it('builds the members at the base, appends each step, and finds a collapse as it happens', () => {
    const s = emptySummary(spec, 'wasm');
    foldEvent(s, {
      type: 'base',
      members: ['A', 'B'].map((id) => ({ id, family: 'mlp', params: 10, label: id })),
      base: [{ memberId: 'A', passAt1: 0.5, majAtG: 0.6 }, { memberId: 'B', passAt1: 0.4, majAtG: 0.5 }],
      baseKappa: [],
    }, spec);
    expect(s.arms[0].members.map((m) => m.id)).toEqual(['A', 'B']);
    foldEvent(s, step(1, 0.5, 0.5), spec);
    foldEvent(s, step(2, 0.5, 0.5), spec);
    foldEvent(s, step(3, 0.9, 0.3), spec);
    // Smoothed over 3 evaluations (base 0.5 first): 0.5 at step 2, 0.433 at step 3: not 0.1 below.
    expect(s.arms[0].members[0].collapseStep).toBeNull();
    // Step 4: (0.5 + 0.3 + 0.3) / 3 = 0.367 < 0.4, reward over steps 3-4 (0.9) above steps 1-2 (0.5).
    foldEvent(s, step(4, 0.9, 0.3), spec);
    expect(s.arms[0].members[0].history.map((h) => h.step)).toEqual([1, 2, 3, 4]);
    expect(s.arms[0].members[0].collapseStep).toBe(4);
    expect(s.arms[0].pairs).toHaveLength(4);
    // Warm-start progress and the end leave it unchanged.
    const before = JSON.stringify(s);
    foldEvent(s, { type: 'warmstart', memberId: 'A', step: 1, steps: 2, loss: 1, memberIndex: 0, memberCount: 2 }, spec);
    expect(JSON.stringify(s)).toBe(before);
  });
});
