import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from '../store/fixtures';
import { type RunSeries, appendStep, emptySeries } from '../store/series';
import { COMPARE_DASH, alignColumn, buildChartModel, chartTable, fmtCell, haltMarker, legendEntries, seedBandLabel, seedMeanLabel, unionX } from './chartModel';
import { aggregateSeedLines } from './seedAggregate';
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

describe('buildChartModel with the marker of a run stopped by a NaN', () => {
  const marker = haltMarker({ step: 4, quantity: 'loss', value: 'NaN' });

  it('labels the step and the quantity; none without a halt', () => {
    expect(marker).toEqual({ step: 4, label: 'step 4: loss NaN' });
    expect(haltMarker(null)).toBeNull();
    const live = run([1, 2, 3], (s) => s / 10);
    expect(buildChartModel(live.x, memberLines(live, 'reward', styles), [], 0).marker).toBeNull();
  });

  it('reaches the step that never came (a gap in every line) and gives the table no row for it', () => {
    const live = run([1, 2, 3], (s) => s / 10);
    const lines = concat(memberLines(live, 'reward', styles), guide);
    const m = buildChartModel(live.x, lines, [], 0.5, null, marker);
    expect(m.marker).toEqual(marker);
    expect(m.x).toEqual([1, 2, 3, 4]);
    expect(m.ys.map((col) => col[3])).toEqual(m.ys.map(() => null));
    const t = chartTable('RL step', m.x, m.table);
    expect(t.rows.map((r) => r[0])).toEqual(['1', '2', '3']);
    expect(t.rows.flat().filter((c) => /NaN|Infinity/.test(c))).toEqual([]);
  });

  it('keeps the x column when the step is already on it (a compare layer ran longer)', () => {
    const live = run([1, 2, 3], (s) => s / 10);
    const saved = run([1, 2, 3, 4, 5], () => 0.9);
    const def = (r: RunSeries) => memberLines(r, 'reward', styles);
    const m = buildChartModel(live.x, def(live), [{ label: 'saved', x: saved.x, lines: def(saved) }], 0, null, marker);
    expect(m.x).toEqual([1, 2, 3, 4, 5]);
    expect(m.marker?.step).toBe(4);
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

describe('buildChartModel with several seeds', () => {
  it('draws each seed faint, a min–max band and the mean between the layers and the live run', () => {
    const live = run([1, 2, 3], (s) => s / 10);
    const seed1 = run([1, 2, 3], () => 0.2);
    const seed2 = run([1, 2, 3, 4], () => 0.6);
    const def = (r: RunSeries) => concat(memberLines(r, 'reward', styles), guide);
    const seeds = aggregateSeedLines([seed1, seed2].map((r) => ({ x: r.x, lines: def(r) })));
    const m = buildChartModel(live.x, def(live), [{ label: 'saved', x: seed1.x, lines: def(seed1) }], 0, seeds);
    expect(m.series.map((s) => [s.label, s.role])).toEqual([
      ['saved · self · A', 'compare'],
      ['seed 1 · self · A', 'seed'],
      ['seed 2 · self · A', 'seed'],
      ['mean of 2 seeds · self · A', 'seed-mean'],
      ['min–max over 2 seeds · self (max)', 'seed-band'],
      ['min–max over 2 seeds · self (min)', 'seed-band'],
      ['self · A', 'data'],
      ['oracle 1.0', 'reference'],
    ]);
    expect(m.seeds).toBe(2);
    expect(m.seedLabels).toEqual(['mean of 2 seeds · self · A']);
    expect(m.bands).toEqual([{ upper: 4, lower: 5, fill: 'rgba(228, 87, 46, 0.1)', label: 'min–max over 2 seeds' }]);
    expect(m.x).toEqual([1, 2, 3, 4]);
    expect(m.ys[4]).toEqual([0.6, 0.6, 0.6, 0.6]);
    expect(m.ys[5]).toEqual([0.2, 0.2, 0.2, 0.6]);
    expect(m.ys[3].map((v) => Number(v?.toFixed(6)))).toEqual([0.4, 0.4, 0.4, 0.6]);
    // The seeds' singles are out of the legend (raw), the mean is in it.
    expect(legendEntries(m).map((e) => e.label)).toEqual(['saved · self · A', 'mean of 2 seeds · self · A', 'self · A', 'oracle 1.0']);
    expect(m.table.map((c) => c.label)).toEqual(['self · A', 'oracle 1.0', 'saved · self · A', 'mean of 2 seeds · self · A', 'mean of 2 seeds · self · A (min)', 'mean of 2 seeds · self · A (max)']);
    // The live lines are what data-points counts, seeds or not.
    expect(m.live.map((l) => l.label)).toEqual(['self · A']);
  });

  it("draws one band per arm: the envelope of its members' seeds, so two arms' bands never stack four deep", () => {
    // Two arms of two members; member B always 0.1 above A; seed 2 is 0.3 above seed 1.
    const seed = (lift: number) => {
      const s = emptySeries();
      for (const step of [1, 2]) {
        const members = { A: { reward: 0.2 + lift }, B: { reward: 0.3 + lift } };
        appendStep(s, stepEvent(step, [armMetrics('self', 'self', members), armMetrics('peer', 'peer', members)]));
      }
      return s;
    };
    const lines = (r: RunSeries) => memberLines(r, 'reward', styles);
    const seeds = aggregateSeedLines([seed(0), seed(0.3)].map((r) => ({ x: r.x, lines: lines(r) })));
    expect(seeds.lines.length).toBe(4);
    const m = buildChartModel([1, 2], lines(seed(0)), [], 0, seeds);
    const seedBands = m.bands.filter((b) => b.label === 'min–max over 2 seeds');
    expect(seedBands.length).toBe(2);
    // Each band spans its arm's lowest member's lowest seed to its highest member's highest seed.
    for (const b of seedBands) {
      expect(m.ys[b.upper].map((v) => Number(v?.toFixed(6)))).toEqual([0.6, 0.6]);
      expect(m.ys[b.lower].map((v) => Number(v?.toFixed(6)))).toEqual([0.2, 0.2]);
    }
    expect(new Set(seedBands.map((b) => b.fill)).size).toBe(2);
  });

  it('keeps the live bands on their lines after the seed bands, and smooths mean and band like a live line', () => {
    const live = emptySeries();
    appendStep(live, stepEvent(1, [armMetrics('self', 'self', { A: {} })]));
    appendStep(live, stepEvent(2, [armMetrics('self', 'self', { A: { reward: 0.9 } })]));
    const lines = armCollapseLines(live.arms[0], styles);
    const seeds = aggregateSeedLines([{ x: live.x, lines }]);
    const m = buildChartModel(live.x, lines, [], 0.5, seeds);
    const roles = m.series.map((s) => s.role);
    // 3 lines, each: 1 seed, 1 mean; then one band per colour (the reward in the arm's colour, the
    // two accuracies in green: 2 bands, 2 edges each); then the live lines.
    expect(roles.slice(0, 10)).toEqual([...Array.from({ length: 3 }, () => ['seed', 'seed-mean']).flat(), ...Array(4).fill('seed-band')]);
    expect(m.bands.length).toBe(3);
    expect(m.bands[2]).toMatchObject({ upper: 11, lower: 13, label: 'hacking gap' });
    expect(m.ys[1]).toEqual(emaSmooth(live.arms[0].members.A.reward, 0.5));
    expect(m.ys[6]).toEqual(emaSmooth(live.arms[0].members.A.reward, 0.5));
    expect(m.seedLabels[0]).toBe('mean of 1 seed · reward · A');
  });
});

describe('a class room drawn as seeds', () => {
  it('names its lines and band by browser', () => {
    expect(seedMeanLabel(12, 'self · A', 'browser')).toBe('mean of 12 browsers · self · A');
    expect(seedBandLabel(12, 'browser')).toBe('min–max over 12 browsers');
    expect(seedMeanLabel(3, 'self · A')).toBe('mean of 3 seeds · self · A');
  });
});
