import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from '../store/fixtures';
import { appendStep, emptySeries } from '../store/series';
import { hasLabels, labelAccuracyColumn, labelVsOwnVoteLines, mechanismRateLines } from './mechanismDefs';
import type { Styles } from './seriesDefs';

const styles: Styles = { arm: { peer: '#2e86de', oracle: '#8a8f98' }, dash: { A: [], B: [8, 4] } };

function arm(scheme: Parameters<typeof armMetrics>[1]) {
  const s = emptySeries();
  appendStep(s, stepEvent(1, [armMetrics(scheme, scheme, { A: { pseudoLabelAccuracy: 0.75, ownVoteAccuracy: 0.5, rescueRate: 0.6, misleadRate: 0.1, sharedErrorRate: 0.2 }, B: { ownVoteAccuracy: 0.4 } })]));
  appendStep(s, stepEvent(2, [armMetrics(scheme, scheme, { A: { pseudoLabelAccuracy: null, ownVoteAccuracy: 0.25, rescueRate: null, misleadRate: null, sharedErrorRate: null }, B: {} })]));
  return s.arms[0];
}

describe('labelVsOwnVoteLines', () => {
  it('pairs each member label accuracy (strong) with its own-vote accuracy (faint), in the member dash', () => {
    const lines = labelVsOwnVoteLines(arm('peer'), styles);
    expect(lines.series.map((l) => l.label)).toEqual(['label · A', 'own vote · A', 'label · B', 'own vote · B']);
    expect(lines.ys[0]).toEqual([0.75, null]);
    expect(lines.ys[1]).toEqual([0.5, 0.25]);
    expect(lines.ys[3]).toEqual([0.4, 0.5]);
    expect(lines.series[0].color).toBe('#2e86de');
    expect(lines.series[1].color).toBe('rgba(46, 134, 222, 0.5)');
    expect(lines.series[1].width).toBeLessThan(lines.series[0].width ?? 2);
    expect(lines.series.map((l) => l.dash)).toEqual([[], [], [8, 4], [8, 4]]);
  });

  it("gives the oracle's label (the truth) accuracy 1 wherever the member was measured", () => {
    const a = arm('oracle');
    expect(labelAccuracyColumn(a, 'A')).toEqual([1, 1]);
    a.members.A.ownVoteAccuracy[1] = null;
    expect(labelAccuracyColumn(a, 'A')).toEqual([1, null]);
    expect(labelAccuracyColumn(arm('self'), 'A')).toEqual([0.75, null]);
  });
});

describe('mechanismRateLines', () => {
  it('draws rescue, mislead and shared error per member, nulls as gaps', () => {
    const lines = mechanismRateLines(arm('peer'), styles);
    expect(lines.series.map((l) => l.label)).toEqual(['rescue · A', 'mislead · A', 'shared error · A', 'rescue · B', 'mislead · B', 'shared error · B']);
    expect(lines.ys.slice(0, 3)).toEqual([
      [0.6, null],
      [0.1, null],
      [0.2, null],
    ]);
    expect(lines.series[3].dash).toEqual([8, 4]);
  });
});

describe('hasLabels', () => {
  it('is false only for the intrinsic schemes', () => {
    expect(['oracle', 'self', 'self-soft', 'peer', 'ring', 'cohort', 'teacher'].every((scheme) => hasLabels({ scheme } as never))).toBe(true);
    expect(hasLabels({ scheme: 'entropy' })).toBe(false);
    expect(hasLabels({ scheme: 'certainty' })).toBe(false);
  });
});
