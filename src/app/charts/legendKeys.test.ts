import { describe, expect, it } from 'vitest';
import type { DrawnSeries } from './chartModel';
import { INK, MAX_KEY_ENTRIES, legendKeys } from './legendKeys';

const styles = { arm: { oracle: '#8a8f98', self: '#e4572e', peer: '#2e86de' }, dash: { A: [], B: [8, 4] } };
const line = (label: string, extra: Partial<DrawnSeries> = {}): DrawnSeries => ({ label, color: '#000', role: 'data', ...extra });

describe('legend keys', () => {
  it('3 arms x 2 members: 3 colours and 2 line styles, not 6 entries', () => {
    const series = ['oracle', 'self', 'peer'].flatMap((a) => ['A', 'B'].map((m) => line(`${a} · ${m}`)));
    const keys = legendKeys(series, styles);
    expect(keys.colors.map((e) => [e.label, e.color])).toEqual([['oracle', '#8a8f98'], ['self', '#e4572e'], ['peer', '#2e86de']]);
    expect(keys.styles.map((e) => [e.label, e.dash])).toEqual([['member A', []], ['member B', [8, 4]]]);
  });
  it('what a line measures in its own colour is a colour entry; raw and per-seed lines are not listed; a band says what it is', () => {
    const series = [
      line('reward · A (raw)', { raw: true, role: 'raw' }),
      line('reward · A', { color: '#e4572e' }),
      line('held-out pass@1 · A', { color: '#0a8a1c', points: true }),
      line('seed 1 · reward · A', { raw: true, role: 'seed' }),
    ];
    const keys = legendKeys(series, styles, [{ fill: 'rgba(0,0,0,0.2)', label: 'hacking gap' }]);
    expect(keys.colors.map((e) => e.label)).toEqual(['reward', 'held-out pass@1']);
    expect(keys.colors[1]).toMatchObject({ color: '#0a8a1c', points: true });
    expect(keys.styles.map((e) => e.label)).toEqual(['member A', 'hacking gap']);
    expect(keys.styles[1]).toMatchObject({ band: true });
  });
  it('a compare layer is one dashed entry, whatever it draws; a seed mean counts as its line', () => {
    const series = [
      line('reference · self · A', { role: 'compare', layer: 'reference', dash: [3, 3] }),
      line('reference · peer · B', { role: 'compare', layer: 'reference', dash: [3, 3] }),
      line('mean of 3 seeds · self · A', { role: 'seed-mean' }),
      line('self · ensemble', { dash: [1, 3], points: true }),
      line('self · A–B', { dash: [8, 4] }),
    ];
    const keys = legendKeys(series, styles);
    expect(keys.colors.map((e) => e.label)).toEqual(['self']);
    expect(keys.styles.map((e) => e.label)).toEqual(['reference', 'member A', 'ensemble', 'pair A–B']);
    expect(keys.styles[0]).toMatchObject({ color: INK, dash: [3, 3] });
    expect(keys.styles[2]).toMatchObject({ color: INK, dash: [1, 3] });
  });

  it("the maj@G chart with a reference, an overlaid run and several seeds keeps each key within the limit", () => {
    const series = [
      ...['oracle', 'self', 'peer'].flatMap((arm) => ['A', 'B'].map((m) => line(`${arm} · ${m}`))),
      ...['oracle', 'self', 'peer'].map((arm) => line(`${arm} · ensemble`, { dash: [1, 3], points: true })),
      line('untrained pair pooled · peer', { dash: [6, 3], reference: true }),
      line('base maj@G · A', { reference: true }),
      line('reference · self · A', { role: 'compare', layer: 'reference', dash: [3, 3] }),
      line('saved run 2 · self · A', { role: 'compare', layer: 'saved run 2', dash: [3, 3] }),
    ];
    const keys = legendKeys(series, styles, [{ label: 'min–max over 3 seeds', fill: 'red' }]);
    expect(keys.styles.map((e) => e.label)).toEqual(['member A', 'member B', 'ensemble', 'untrained pair pooled', '2 compared runs', 'min–max over 3 seeds']);
    expect(keys.colors.length).toBeLessThanOrEqual(MAX_KEY_ENTRIES);
    expect(keys.styles.length).toBeLessThanOrEqual(MAX_KEY_ENTRIES);
  });
});
