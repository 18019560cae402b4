/**
 * The chart read-out (tap or hover) names each value's arm and source (a
 * student's phone read "label-free reward 0.88 · label-free reward 0.92", two values, one name).
 */
import { describe, expect, it } from 'vitest';
import { buildChartModel, seedMeanLabel } from './chartModel';
import { aggregateSeedLines } from './seedAggregate';
import { readoutText } from './UPlotChart';
import type { ChartLinesWithBands } from './chartModel';

const reward = (v: number): ChartLinesWithBands => ({ series: [{ label: 'label-free reward', color: '#ff7f0e', width: 3, kind: 'reward', armId: 'peer' }], ys: [[v, v]] });

describe('chart read-out', () => {
  it("a student's run beside the class: 'you' and the class's mean, each with its arm", () => {
    const seeds = aggregateSeedLines([{ x: [1, 2], lines: reward(0.92) }, { x: [1, 2], lines: reward(0.9) }], 'browser');
    const model = buildChartModel([1, 2], reward(0.88), [], 0, seeds);
    const text = readoutText({ data: [model.x, ...model.ys] as never }, model.series, 1, 'RL step');
    expect(text).toBe(`RL step 2: ${seedMeanLabel(2, 'label-free reward', 'browser')} (peer) 0.91 · you · label-free reward (peer) 0.88`);
    const names = text.replace(/^RL step 2: /, '').split(/ \d\.\d\d(?: · |$)/).filter(Boolean);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a run alone: its lines named by their arm, no "you"', () => {
    const model = buildChartModel([1, 2], reward(0.88), [], 0);
    expect(readoutText({ data: [model.x, ...model.ys] as never }, model.series, 0, 'RL step')).toBe('RL step 1: label-free reward (peer) 0.88');
  });
});
