import { describe, expect, it } from 'vitest';
import type { BasePair } from '../../core/experiment/events';
import { armMetrics, stepEvent } from '../store/fixtures';
import { type RunSeries, appendStep, emptySeries } from '../store/series';
import { type Styles, armCollapseLines, ensembleLines, isIntrinsic, untrainedPairLines } from './seriesDefs';

const styles: Styles = { arm: { self: '#e4572e', peer: '#2e86de', entropy: '#b5651d', solo: '#17a589' }, dash: { A: [], B: [8, 4] } };

function run(...arms: Parameters<typeof armMetrics>[]): RunSeries {
  const s = emptySeries();
  appendStep(s, stepEvent(1, arms.map((a) => armMetrics(...a))));
  appendStep(s, stepEvent(2, arms.map((a) => armMetrics(...a))));
  return s;
}

describe('untrainedPairLines', () => {
  const pairs: BasePair[] = [
    { a: 'A', b: 'B', kappa: 0.4, bothWrongSame: 0.1, pooledMajAtG: 0.625 },
    { a: 'A', b: 'C', kappa: 0.3, bothWrongSame: 0.1 },
  ];

  it('draws one dashed reference line per arm with a pair, at the base pair pooled maj@G', () => {
    const s = run(['self', 'self', { A: {}, B: {} }], ['peer', 'peer', { A: {}, B: {} }], ['solo', 'self', { A: {} }]);
    const lines = untrainedPairLines(s, pairs, styles);
    expect(lines.series.map((l) => l.label)).toEqual(['untrained pair pooled · self', 'untrained pair pooled · peer']);
    expect(lines.series.every((l) => l.reference && l.dash && l.dash.length > 0)).toBe(true);
    expect(lines.ys).toEqual([
      [0.625, 0.625],
      [0.625, 0.625],
    ]);
    // One per arm that also has an ensemble line.
    expect(ensembleLines(s, styles).series).toHaveLength(2);
  });

  it('finds the pair in either order and follows the spec order of the arm', () => {
    const s = run(['peer', 'peer', { B: {}, A: {} }]);
    expect(untrainedPairLines(s, pairs, styles).ys).toEqual([[0.625, 0.625]]);
    expect(untrainedPairLines(s, pairs, styles, { peer: ['A', 'C'] }).series).toEqual([]);
  });

  it('draws nothing where the pooled value is absent (older results) or there is no base event yet', () => {
    const s = run(['peer', 'peer', { A: {}, C: {} }]);
    expect(untrainedPairLines(s, pairs, styles).series).toEqual([]);
    expect(untrainedPairLines(run(['peer', 'peer', { A: {}, B: {} }]), [], styles).series).toEqual([]);
  });
});

describe('armCollapseLines', () => {
  it('shades the hacking gap between reward and batch correctness per member of a vote arm', () => {
    const s = run(['self', 'self', { A: {}, B: {} }]);
    const lines = armCollapseLines(s.arms[0], styles);
    expect(lines.series.map((l) => l.label)).toEqual([
      'reward · A',
      'correct (batch) · A',
      'held-out pass@1 · A',
      'reward · B',
      'correct (batch) · B',
      'held-out pass@1 · B',
    ]);
    expect(lines.bands.map((b) => [b.upper, b.lower])).toEqual([
      [0, 1],
      [3, 4],
    ]);
  });

  it('draws no band for the intrinsic schemes, whose reward is not a 0-1 label match', () => {
    for (const scheme of ['entropy', 'certainty'] as const) {
      const s = run(['entropy', scheme, { A: { rewardGap: null, rewardAccuracy: null }, B: {} }]);
      const lines = armCollapseLines(s.arms[0], styles);
      expect(lines.series).toHaveLength(6);
      expect(lines.bands).toEqual([]);
      expect(isIntrinsic(scheme)).toBe(true);
    }
    expect(isIntrinsic('peer')).toBe(false);
    expect(isIntrinsic('oracle')).toBe(false);
  });
});
