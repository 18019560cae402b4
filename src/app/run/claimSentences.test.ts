import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../core/experiment/events';
import { claimSentences } from './claimSentences';

/** A summary whose arms' members A and B start at `start` and end at the given pass@1. */
function summary(ends: Record<string, [number, number]>, start = 0.46): RunSummary {
  return {
    seed: 1,
    base: [{ memberId: 'A', passAt1: start, majAtG: 0.6 }, { memberId: 'B', passAt1: start, majAtG: 0.6 }] as RunSummary['base'],
    baseKappa: [],
    medianStepMs: 0,
    backend: 'wasm',
    arms: Object.entries(ends).map(([id, [a, b]]) => ({
      id,
      scheme: id as never,
      pairs: [],
      ensemble: [],
      members: [
        { id: 'A', family: 'mlp', params: 1, collapseStep: null, history: [{ step: 80, evalPassAt1: a } as never] },
        { id: 'B', family: 'mlp', params: 1, collapseStep: null, history: [{ step: 80, evalPassAt1: b } as never] },
      ],
    })),
  };
}

describe('claim sentences', () => {
  // The default link's seed 1 as it once ran: oracle 0.46 -> 0.57, self and peer 0.46 -> 0.34.
  const seed1 = summary({ oracle: [0.56, 0.58], self: [0.34, 0.34], peer: [0.33, 0.35] });

  it('says what this seed showed, computed from its numbers, next to the 8-seed result', () => {
    const s = claimSentences(seed1, 'collapse');
    expect(s.map((x) => x.id)).toEqual(['a', 'b', 'learns', 'oracle']);
    expect(s[0].thisSeed).toBe("self's held-out pass@1 fell by 0.12: 0.46 to 0.34 (−0.12).");
    expect(s[0].held).toBe(true);
    expect(s[1].thisSeed).toBe('peer ended level with self (0.34 against 0.34), within the 0.03 one evaluation varies by.');
    expect(s[1].held).toBe(false);
    expect(s[1].overSeeds).toBe('Over 8 seeds no one tuned on (101-108), peer ended above self in 8, mean +0.13: shown.');
    expect(s[2].thisSeed).toBe("peer's held-out pass@1 fell by 0.12: 0.46 to 0.34 (−0.12).");
    expect(s[3].thisSeed).toBe('oracle ended above peer (0.57 against 0.34).');
  });

  it('reads a change against the band of its held-out set: 0.07 of 14 problems is one answer, level', () => {
    // A run no arm learnt on a task of one's own with 14 held-out problems: self 0.07 -> 0.00.
    const s = claimSentences(summary({ oracle: [0.07, 0.07], self: [0, 0], peer: [0.07, 0.07] }, 0.07), null, 14);
    expect(s[0].thisSeed).toBe("self's held-out pass@1 stayed level, within the 0.08 one evaluation varies by: 0.07 to 0.00 (−0.07).");
    expect(s[0].held).toBe(false);
    // The same run read at 100 held-out problems passes the band: the band, not the wording, decides.
    expect(claimSentences(summary({ oracle: [0.07, 0.07], self: [0, 0], peer: [0.07, 0.07] }, 0.07), null, 100)[0].held).toBe(true);
    // 6 held-out problems: the band is 0.12, so 0.13 apart reads as above and 0.10 apart as level.
    const r = claimSentences(summary({ oracle: [0.23, 0.23], self: [0, 0], peer: [0.1, 0.1] }, 0.1), null, 6);
    expect(r[3].thisSeed).toBe('oracle ended above peer (0.23 against 0.10).');
    expect(claimSentences(summary({ oracle: [0.2, 0.2], self: [0, 0], peer: [0.1, 0.1] }, 0.1), null, 6)[3].thisSeed).toBe(
      'oracle ended level with peer (0.20 against 0.10), within the 0.12 one evaluation varies by.',
    );
  });

  it('the default is quoted from its confirmation seeds, and says so', () => {
    const s = claimSentences(summary({ oracle: [0.8, 0.8], self: [0.3, 0.3], peer: [0.6, 0.6] }), 'peers-learn');
    expect(s[2].overSeeds).toBe("Over 8 seeds no one tuned on (109-116), peer's held-out pass@1 rose in 8, mean change +0.16: shown.");
    expect(s[0].overSeeds).toBe("Over 8 seeds no one tuned on (109-116), self's held-out pass@1 fell in 6, mean change −0.15: shown.");
  });

  it('says so where the claim read with its preset\'s others (Holm) is not what it is alone', () => {
    const s = claimSentences(summary({ oracle: [0.6, 0.6], self: [0.3, 0.3], peer: [0.5, 0.5] }), 'peers-teach');
    expect(s[2].overSeeds).toBe(
      "Over 8 seeds no one tuned on (101-108), peer's held-out pass@1 rose in 6, mean change +0.07: shown on its own, not shown read with the preset's other claims (Holm).",
    );
  });

  it('another seed reads differently: nothing about the outcome is fixed', () => {
    const s = claimSentences(summary({ oracle: [0.6, 0.6], self: [0.5, 0.5], peer: [0.55, 0.55] }), 'collapse');
    expect(s[0].thisSeed).toBe("self's held-out pass@1 rose by 0.04: 0.46 to 0.50 (+0.04).");
    expect(s[1].thisSeed).toBe('peer ended above self (0.55 against 0.50).');
    expect(s[1].held).toBe(true);
  });

  it('a difference that 2 decimals would print as equal is shown with 3, and read as level by the page\'s one rule', () => {
    // 0.444 against 0.437: 0.007 apart, both 0.44 at 2 decimals; under the 0.03 band (changeRule.ts), so level and no ✓.
    const s = claimSentences(summary({ oracle: [0.444, 0.444], self: [0.4, 0.4], peer: [0.437, 0.437] }), 'quick');
    expect(s[3].thisSeed).toBe('oracle ended level with peer (0.444 against 0.437), within the 0.03 one evaluation varies by.');
    expect(s[3].held).toBe(false);
    expect(s[3].overSeeds).toBeNull(); // quick has no 8-seed claims quoted
  });

  it('an edited experiment gets no 8-seed figure; a run without a self arm no claim that needs one', () => {
    const s = claimSentences(summary({ oracle: [0.6, 0.6], peer: [0.5, 0.5] }), null);
    expect(s.map((x) => x.id)).toEqual(['learns', 'oracle']);
    expect(s.every((x) => x.overSeeds === null)).toBe(true);
  });
});

describe('claim sentences of a member part (a paired room: this browser trains one member of the peer arm)', () => {
  // What a paired seat's page holds at the end: the summary has every arm of
  // the room's spec, but only member A has a base evaluation, and only the peer arm's A trained.
  const part: RunSummary = {
    ...summary({ oracle: [0.6, 0.6], self: [0.3, 0.3], peer: [0.55, 0.5] }),
    base: [{ memberId: 'A', passAt1: 0.4, majAtG: 0.6 }] as RunSummary['base'],
  };
  for (const arm of part.arms) {
    for (const m of arm.members) if (arm.id !== 'peer' || m.id !== 'A') m.history = [];
  }

  it('reads only the claims of the arm it trained, from its own member: no NaN, no self claim', () => {
    const s = claimSentences(part, 'peers-learn');
    expect(s.map((x) => x.id)).toEqual(['learns']);
    expect(s[0].thisSeed).toBe("peer's held-out pass@1 rose by 0.15: 0.40 to 0.55 (+0.15).");
    expect(s[0].held).toBe(true);
    for (const x of s) expect(`${x.thisSeed} ${x.overSeeds}`).not.toMatch(/NaN/);
  });
});
