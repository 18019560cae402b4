import { describe, expect, it } from 'vitest';
import type { RunSeries } from '../store/series';
import { emptySeries } from '../store/series';
import { HERO_LABELS, MAX_HERO_ARMS, ceilingArm, classHeroArms, heroArms, heroGrid, heroLeftOut, heroLines, meanColumn } from './heroLines';
import { TRUTH_COLOR } from '../charts/seriesDefs';

const styles = { arm: { oracle: '#8a8f98', self: '#e4572e', peer: '#2e86de' }, dash: { A: [], B: [8, 4] } };

/** A run of 3 steps: each arm's members A and B with the given reward and pass@1 columns. */
function run(cols: Record<string, { reward: (number | null)[][]; pass: (number | null)[][] }>): RunSeries {
  const r = emptySeries();
  r.x = [1, 2, 3];
  for (const [armId, c] of Object.entries(cols)) {
    const members: RunSeries['arms'][number]['members'] = {};
    ['A', 'B'].forEach((id, i) => {
      members[id] = { reward: c.reward[i], evalPassAt1: c.pass[i] } as never;
    });
    r.arms.push({ armId, scheme: armId as never, memberIds: ['A', 'B'], members, pairs: [], ensembleMajAtG: [] });
  }
  return r;
}

describe('hero arms', () => {
  it('self first, then the peer arm; never the oracle, which is the ceiling', () => {
    const arms = [{ id: 'oracle', scheme: 'oracle' }, { id: 'peer', scheme: 'peer' }, { id: 'self', scheme: 'self' }];
    expect(heroArms(arms).map((a) => a.id)).toEqual(['self', 'peer']);
    expect(ceilingArm(arms)).toBe('oracle');
  });
  it('at most three, in the order of the schemes, ties in the spec order', () => {
    const arms = [{ id: 'p2', scheme: 'peer' }, { id: 'c', scheme: 'cohort' }, { id: 'p1', scheme: 'peer' }, { id: 's', scheme: 'self' }];
    expect(heroArms(arms).map((a) => a.id)).toEqual(['s', 'p2', 'p1']);
    expect(ceilingArm(arms)).toBeNull();
  });
  // The overlap preset's arms: self and six peer arms, one per partner.
  const overlap = [
    { id: 'oracle', scheme: 'oracle' },
    { id: 'self', scheme: 'self' },
    ...['S', 'B0', 'B50', 'B80', 'T', 'X'].map((p) => ({ id: `peer-${p}`, scheme: 'peer' })),
  ];
  it("the lab's page draws three and names the others it leaves out", () => {
    expect(heroArms(overlap).map((a) => a.id)).toEqual(['self', 'peer-S', 'peer-B0']);
    expect(heroLeftOut(overlap).map((a) => a.id)).toEqual(['peer-B50', 'peer-B80', 'peer-T', 'peer-X']);
    expect(heroLeftOut(overlap.slice(0, 4))).toEqual([]);
    expect(heroArms(overlap).length + heroLeftOut(overlap).length).toBe(overlap.length - 1);
    expect(MAX_HERO_ARMS).toBe(3);
  });
  it('the class view draws every arm a run of the class trained, peer-T included, and only those', () => {
    const all = classHeroArms(overlap, [overlap, overlap]);
    expect(all.arms.map((a) => a.id)).toEqual(['self', 'peer-S', 'peer-B0', 'peer-B50', 'peer-B80', 'peer-T', 'peer-X']);
    expect(all.ceiling).toBe('oracle');
    // Runs of some arms only (a pair's run is its peer arm; a seat of one partner level): the union, in the room's order.
    const some = classHeroArms(overlap, [[overlap[6]], [overlap[2], overlap[0]]]);
    expect(some.arms.map((a) => a.id)).toEqual(['peer-S', 'peer-T']);
    expect(some.ceiling).toBe('oracle');
    expect(classHeroArms(overlap, [[overlap[6]]]).ceiling).toBeNull();
    // An arm no run of the room's experiment has is not the room's: never drawn.
    expect(classHeroArms(overlap.slice(0, 3), [overlap]).arms.map((a) => a.id)).toEqual(['self', 'peer-S']);
    // Before the first results: the room's arms, all of them.
    expect(classHeroArms(overlap, []).arms).toHaveLength(7);
  });
  it('the class grid: four charts side by side at most, rows as even as they go', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => heroGrid(n))).toEqual([
      { cols: 1, rows: 1 },
      { cols: 2, rows: 1 },
      { cols: 3, rows: 1 },
      { cols: 4, rows: 1 },
      { cols: 3, rows: 2 },
      { cols: 3, rows: 2 },
      { cols: 4, rows: 2 },
      { cols: 4, rows: 2 },
      { cols: 3, rows: 3 },
    ]);
    expect(heroGrid(0)).toEqual({ cols: 1, rows: 1 });
  });
});

describe('hero lines', () => {
  it('the mean over members, null where no member has a value', () => {
    expect(meanColumn([[0.2, null, 0.5], [0.4, null, null]])).toEqual([0.30000000000000004, null, 0.5]);
  });
  it('reward in the arm colour, held-out pass@1 in green dots, the oracle pass@1 as the ceiling', () => {
    const r = run({
      oracle: { reward: [[1, 1, 1], [1, 1, 1]], pass: [[0.4, null, 0.6], [0.5, null, 0.6]] },
      self: { reward: [[0.5, 0.7, 0.9], [0.5, 0.6, 0.9]], pass: [[0.4, null, 0.2], [0.5, null, 0.3]] },
    });
    const l = heroLines(r, 'self', 'oracle', styles);
    expect(l.series.map((s) => s.label)).toEqual([HERO_LABELS.ceiling, HERO_LABELS.reward, HERO_LABELS.pass]);
    expect(l.series[1].color).toBe('#e4572e');
    expect(l.series[2]).toMatchObject({ color: TRUTH_COLOR, points: true, spanGaps: true });
    expect(l.ys[0]).toEqual([0.45, null, 0.6]);
    expect(l.ys[1]).toEqual([0.5, 0.6499999999999999, 0.9]);
    expect(l.ys[2]).toEqual([0.45, null, 0.25]);
  });
  it('without an oracle arm there is no ceiling; an arm not in the run draws nothing of its own', () => {
    const r = run({ self: { reward: [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]], pass: [[0.4, null, 0.4], [0.4, null, 0.4]] } });
    expect(heroLines(r, 'self', null, styles).series.map((s) => s.label)).toEqual([HERO_LABELS.reward, HERO_LABELS.pass]);
    expect(heroLines(r, 'peer', null, styles).series).toEqual([]);
  });
});
