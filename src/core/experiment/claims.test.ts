import { describe, expect, it } from 'vitest';
import { CLAIM_TIE, armPassAt1, claimHeld, countSeedClaims, seedDifference } from './claims';
import type { MemberHistoryEntry, RunSummary } from './events';

/** A run summary with the given base pass@1 per member and, per arm, each member's held-out evaluations. */
function run(seed: number, base: Record<string, number>, arms: Record<string, Record<string, (number | undefined)[]>>): RunSummary {
  return {
    seed,
    base: Object.entries(base).map(([memberId, passAt1]) => ({ memberId, passAt1, majAtG: 0 })),
    baseKappa: [],
    medianStepMs: 1,
    backend: 'cpu',
    arms: Object.entries(arms).map(([id, members]) => ({
      id,
      scheme: id === 'oracle' ? 'oracle' : id === 'self' ? 'self' : 'peer',
      pairs: [],
      ensemble: [],
      members: Object.entries(members).map(([mid, evals]) => ({
        id: mid,
        family: 'mlp',
        params: 1,
        collapseStep: null,
        history: evals.map((v, i) => ({ step: i + 1, evalPassAt1: v }) as MemberHistoryEntry),
      })),
    })),
  };
}

const base = { A: 0.4, B: 0.5 };

describe('armPassAt1', () => {
  it('is the mean over members of the base and the last held-out evaluation', () => {
    const r = run(1, base, { self: { A: [0.3, undefined, 0.2, undefined], B: [0.6, undefined] } });
    const p = armPassAt1(r, 'self')!;
    expect(p.start).toBeCloseTo(0.45, 12);
    expect(p.end).toBeCloseTo(0.4, 12); // A 0.2, B 0.6
    expect(armPassAt1(r, 'peer')).toBeNull();
  });

  it('ends at the base when a member was never evaluated after it', () => {
    const r = run(1, base, { self: { A: [undefined], B: [] } });
    expect(armPassAt1(r, 'self')).toEqual({ start: 0.45, end: 0.45 });
  });
});

describe('seed differences and counts', () => {
  const r1 = run(1, base, { oracle: { A: [0.9], B: [0.9] }, self: { A: [0.1], B: [0.1] }, peer: { A: [0.6], B: [0.6] } });
  const r2 = run(2, base, { oracle: { A: [0.5], B: [0.5] }, self: { A: [0.45], B: [0.45] }, peer: { A: [0.452], B: [0.452] } });

  it('computes each claim as its paired difference', () => {
    expect(seedDifference(r1, 'a')).toBeCloseTo(0.35, 12);
    expect(seedDifference(r1, 'b')).toBeCloseTo(0.5, 12);
    expect(seedDifference(r1, 'learns')).toBeCloseTo(0.15, 12);
    expect(seedDifference(r1, 'oracle')).toBeCloseTo(0.3, 12);
    expect(seedDifference(run(1, base, { self: { A: [0.1] } }), 'b')).toBeNaN();
  });

  it('a tie or a negative difference is not held', () => {
    expect(claimHeld(CLAIM_TIE)).toBe(true);
    expect(claimHeld(CLAIM_TIE - 1e-9)).toBe(false);
    expect(claimHeld(-0.2)).toBe(false);
    expect(claimHeld(NaN)).toBe(false);
  });

  it('counts in how many seeds each claim held', () => {
    const c = countSeedClaims([r1, r2]);
    expect(c.map((x) => [x.id, x.held, x.of])).toEqual([
      ['a', 1, 2], // r2: 0.45 - 0.45 = 0
      ['b', 1, 2], // r2: 0.002 is a tie
      ['learns', 1, 2], // r2: 0.452 - 0.45 = 0.002, a tie
      ['oracle', 2, 2],
    ]);
    expect(c[0].diffs[0]).toBeCloseTo(0.35, 12);
  });

  it('leaves out the claims whose arms a run lacks', () => {
    const c = countSeedClaims([run(1, base, { self: { A: [0.1] } })]);
    expect(c.map((x) => x.id)).toEqual(['a']);
    expect(countSeedClaims([])).toEqual([]);
  });
});
