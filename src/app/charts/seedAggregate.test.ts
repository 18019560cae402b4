import { describe, expect, it } from 'vitest';
import { aggregateColumns, aggregateSeedLines } from './seedAggregate';

describe('aggregateColumns', () => {
  it('takes mean and min–max over the seeds that have a value at each step', () => {
    const a = aggregateColumns(
      [
        [0.2, 0.4, null, 0.6],
        [0.4, null, null, 0.2],
        [0.6, 0.8, null],
      ],
      4,
    );
    expect(a.count).toEqual([3, 2, 0, 2]);
    expect(a.mean[0]).toBeCloseTo(0.4, 12);
    expect(a.mean[1]).toBeCloseTo(0.6, 12);
    expect(a.mean[2]).toBeNull();
    expect(a.mean[3]).toBeCloseTo(0.4, 12);
    expect(a.min).toEqual([0.2, 0.4, null, 0.2]);
    expect(a.max).toEqual([0.6, 0.8, null, 0.6]);
  });
});

describe('aggregateSeedLines', () => {
  const def = (label: string, reference = false) => ({ label, color: '#e4572e', reference });

  it('matches lines by label across seeds of different lengths and leaves out guide lines', () => {
    const agg = aggregateSeedLines([
      { x: [1, 2, 3], lines: { series: [def('self · A'), def('oracle 1.0', true)], ys: [[0.1, 0.2, 0.3], [1, 1, 1]] } },
      { x: [1, 2], lines: { series: [def('peer · A'), def('self · A')], ys: [[0.5, 0.5], [0.3, 0.4]] } },
    ]);
    expect(agg.seeds).toBe(2);
    expect(agg.x).toEqual([1, 2, 3]);
    expect(agg.lines.map((l) => l.def.label)).toEqual(['self · A', 'peer · A']);
    const self = agg.lines[0];
    expect(self.singles).toEqual([
      [0.1, 0.2, 0.3],
      [0.3, 0.4, null],
    ]);
    expect(self.mean[0]).toBeCloseTo(0.2, 12);
    expect(self.mean[1]).toBeCloseTo(0.3, 12);
    expect(self.mean[2]).toBeCloseTo(0.3, 12); // the first seed alone
    expect(self.min).toEqual([0.1, 0.2, 0.3]);
    expect(self.max).toEqual([0.3, 0.4, 0.3]);
    // A line only one seed drew: that seed's values, the other seed a gap.
    expect(agg.lines[1].singles[0]).toEqual([null, null, null]);
    expect(agg.lines[1].mean).toEqual([0.5, 0.5, null]);
  });
});
