import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from '../store/fixtures';
import { type RunSeries, appendStep, emptySeries } from '../store/series';
import { COMPARE_DASH, alignColumn, buildChartModel, chartTable, fmtCell, unionX } from './chartModel';
import { type Styles, armCollapseLines, concat, memberLines } from './seriesDefs';
import { emaSmooth } from './smoothing';

const styles: Styles = { arm: { self: '#e4572e', peer: '#2e86de' }, dash: { A: [], B: [8, 4] } };

function run(steps: number[], reward: (step: number) => number): RunSeries {
  const s = emptySeries();
  for (const step of steps) appendStep(s, stepEvent(step, [armMetrics('self', 'self', { A: { reward: reward(step), evalPassAt1: step % 2 === 0 ? 0.4 : undefined } })]));
  return s;
}

const guide = { series: [{ label: 'oracle 1.0', color: '#8a8f98', reference: true }], ys: [[1, 1, 1]] };

describe('unionX and alignColumn', () => {
  it('merges steps and re-indexes a column onto them', () => {
    expect(unionX([1, 2, 3], [2, 4], [])).toEqual([1, 2, 3, 4]);
    expect(alignColumn([2, 4], [0.5, null], [1, 2, 3, 4])).toEqual([null, 0.5, null, null]);
  });
});

describe('buildChartModel', () => {
  it('without layers or smoothing draws the lines as they are (the same arrays, no copy)', () => {
    const live = run([1, 2, 3], (s) => s / 10);
    const lines = concat(memberLines(live, 'reward', styles), guide);
    const m = buildChartModel(live.x, lines, [], 0);
    expect(m.x).toBe(live.x);
    expect(m.ys[0]).toBe(live.arms[0].members.A.reward);
    expect(m.series.map((s) => s.role)).toEqual(['data', 'reference']);
    expect(m.live.map((l) => l.label)).toEqual(['self · A']);
    expect(m.table.map((c) => c.label)).toEqual(['self · A', 'oracle 1.0']);
  });

  it('draws each compare layer behind the live lines, lighter and dashed, labelled, without its guide lines', () => {
    const live = run([1, 2, 3], (s) => s / 10);
    const saved = run([1, 2, 3, 4], () => 0.9);
    const def = (r: RunSeries) => concat(memberLines(r, 'reward', styles), guide);
    const m = buildChartModel(live.x, def(live), [{ label: 'saved run 1', x: saved.x, lines: def(saved) }], 0);
    expect(m.series.map((s) => s.label)).toEqual(['saved run 1 · self · A', 'self · A', 'oracle 1.0']);
    expect(m.series[0]).toMatchObject({ role: 'compare', dash: COMPARE_DASH, color: 'rgba(228, 87, 46, 0.5)' });
    expect(m.compareLabels).toEqual(['saved run 1 · self · A']);
    // One x for all: the layer ran one step longer.
    expect(m.x).toEqual([1, 2, 3, 4]);
    expect(m.ys[0]).toEqual([0.9, 0.9, 0.9, 0.9]);
    expect(m.ys[1]).toEqual([0.1, 0.2, 0.3, null]);
    expect(m.live[0].col).toEqual([0.1, 0.2, 0.3, null]);
    expect(m.table.map((c) => c.label)).toEqual(['self · A', 'oracle 1.0', 'saved run 1 · self · A']);
  });

  it('with smoothing, draws the raw line faint under the smoothed one and leaves sparse eval lines alone', () => {
    const live = run([1, 2, 3, 4], (s) => (s % 2) * 0.8);
    const lines = concat(memberLines(live, 'reward', styles), memberLines(live, 'evalPassAt1', styles));
    const m = buildChartModel(live.x, lines, [], 0.6);
    expect(m.series.map((s) => [s.label, s.role, s.raw ?? false])).toEqual([
      ['self · A (raw)', 'raw', true],
      ['self · A', 'data', false],
      ['self · A', 'data', false],
    ]);
    expect(m.series[0].color).toBe('rgba(228, 87, 46, 0.3)');
    expect(m.ys[0]).toEqual([0.8, 0, 0.8, 0]);
    expect(m.ys[1]).toEqual(emaSmooth([0.8, 0, 0.8, 0], 0.6));
    expect(m.ys[2]).toEqual([null, 0.4, null, 0.4]);
    // The table has the same numbers: raw and smoothed.
    expect(m.table.map((c) => c.label)).toEqual(['self · A', 'self · A (smoothed)', 'self · A']);
    expect(m.live.map((c) => c.col)).toEqual([
      [0.8, 0, 0.8, 0],
      [null, 0.4, null, 0.4],
    ]);
  });

  it('keeps the bands between the lines they were defined on, smoothed or not', () => {
    const live = emptySeries();
    appendStep(live, stepEvent(1, [armMetrics('self', 'self', { A: {} })]));
    const lines = armCollapseLines(live.arms[0], styles);
    expect(lines.bands[0]).toMatchObject({ upper: 0, lower: 1 });
    const plain = buildChartModel(live.x, lines, [], 0);
    expect(plain.bands[0]).toMatchObject({ upper: 0, lower: 1 });
    const smooth = buildChartModel(live.x, lines, [], 0.5);
    // reward raw, reward smoothed, correct raw, correct smoothed, pass@1 (dots)
    expect(smooth.series.map((s) => s.role)).toEqual(['raw', 'data', 'raw', 'data', 'data']);
    expect(smooth.bands[0]).toMatchObject({ upper: 1, lower: 3 });
    const layered = buildChartModel(live.x, lines, [{ label: 'old', x: live.x, lines }], 0);
    expect(layered.bands[0]).toMatchObject({ upper: 3, lower: 4 });
  });
});

describe('chartTable', () => {
  it('prints one row per step with a value, 3 decimals, a dash for gaps', () => {
    const t = chartTable('RL step', [1, 2, 3], [
      { label: 'a', col: [0.12345, null, 1] },
      { label: 'b', col: [null, null, 250.4] },
    ]);
    expect(t.head).toEqual(['RL step', 'a', 'b']);
    expect(t.rows).toEqual([
      ['1', '0.123', '—'],
      ['3', '1.000', '250'],
    ]);
    expect(fmtCell(undefined)).toBe('—');
  });
});
