import { describe, expect, it } from 'vitest';
import { PNG_STYLE, chartImageLayout, legendLayout, pngFileName, stackLayout, wrapText } from './pngLayout';

const S = PNG_STYLE;
const item = (w: number) => S.swatch + S.swatchGap + w;

describe('legendLayout', () => {
  it('puts items on one row while they fit, then wraps', () => {
    const max = item(50) + S.itemGap + item(50) + 10;
    const l = legendLayout([50, 50, 50], max);
    expect(l.items).toEqual([
      { x: 0, y: 0 },
      { x: item(50) + S.itemGap, y: 0 },
      { x: 0, y: S.rowHeight + S.rowGap },
    ]);
    expect(l.height).toBe(2 * S.rowHeight + S.rowGap);
  });

  it('keeps an item wider than the row on a row of its own, and is empty without items', () => {
    expect(legendLayout([500, 10], 100).items).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: S.rowHeight + S.rowGap },
    ]);
    expect(legendLayout([], 100)).toEqual({ items: [], height: 0 });
  });
});

describe('chartImageLayout', () => {
  it('stacks title, plot and legend inside the padding, nothing overlapping', () => {
    const l = chartImageLayout(400, 200, [60, 60]);
    expect(l.width).toBe(400 + 2 * S.pad);
    expect(l.title).toEqual({ x: S.pad, y: S.pad });
    expect(l.plot).toEqual({ x: S.pad, y: S.pad + S.titlePx + S.titleGap, w: 400, h: 200 });
    // Legend below the plot; the image ends one pad below the legend.
    expect(l.legend[0].y).toBe(l.plot.y + 200 + S.legendGap);
    expect(l.height).toBe(l.legend[0].y + S.rowHeight + S.pad);
    for (const p of l.legend) expect(p.x + 60).toBeLessThanOrEqual(l.width - S.pad);
  });

  it('moves the plot down for a title on more lines', () => {
    const one = chartImageLayout(300, 100, []);
    const two = chartImageLayout(300, 100, [], PNG_STYLE, 2);
    expect(two.plot.y - one.plot.y).toBe(S.titlePx + 4);
    expect(two.height - one.height).toBe(S.titlePx + 4);
  });

  it('has no legend gap without a legend', () => {
    const l = chartImageLayout(300, 100, []);
    expect(l.height).toBe(l.plot.y + 100 + S.pad);
  });
});

describe('stackLayout', () => {
  it('stacks blocks with a gap, as wide as the widest', () => {
    const s = stackLayout([{ w: 300, h: 50 }, { w: 500, h: 100 }], 10, 5);
    expect(s.positions).toEqual([
      { x: 5, y: 5 },
      { x: 5, y: 65 },
    ]);
    expect(s).toMatchObject({ width: 510, height: 170 });
  });
});

describe('pngFileName', () => {
  it('slugs a title', () => {
    expect(pngFileName('Held-out pass@1 per arm and member')).toBe('cohort-lab-held-out-pass-1-per-arm-and-member.png');
    expect(pngFileName('???')).toBe('cohort-lab-chart.png');
  });
});

describe('wrapText', () => {
  const measure = (s: string) => s.length * 10;
  it('breaks between words so no line passes the width', () => {
    expect(wrapText('the reward rises as accuracy falls', 120, measure)).toEqual(['the reward', 'rises as', 'accuracy', 'falls']);
    expect(wrapText('short', 120, measure)).toEqual(['short']);
    expect(wrapText('', 120, measure)).toEqual([]);
  });
  it('keeps a word longer than the width whole, on its own line', () => {
    expect(wrapText('a verylongwordindeed b', 50, measure)).toEqual(['a', 'verylongwordindeed', 'b']);
  });
});
