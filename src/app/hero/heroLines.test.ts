import { describe, expect, it } from 'vitest';
import type { RunSeries } from '../store/series';
import { emptySeries } from '../store/series';
import { HERO_LABELS, ceilingArm, heroArms, heroLines, meanColumn } from './heroLines';
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
