/**
 * Where things go in an exported PNG, in CSS pixels (pngExport.ts draws them, scaled by the
 * device pixel ratio). Pure: text widths come from a measure function, so tests need no canvas.
 *
 *   one chart   title on top, the uPlot canvas (plot and axes), the legend wrapped in rows below
 *   the report  blocks (the scoreboard, then every chart) stacked with a gap, on one background
 */

export interface LegendEntry {
  label: string;
  color: string;
  dash: number[];
  width: number;
}

export const PNG_STYLE = {
  pad: 16,
  titlePx: 18,
  titleGap: 8,
  legendPx: 13,
  legendGap: 10,
  /** A legend item: swatch line, gap, label; items apart by itemGap, rows by rowGap. */
  swatch: 28,
  swatchGap: 6,
  itemGap: 18,
  rowHeight: 18,
  rowGap: 4,
  blockGap: 24,
} as const;

export type Style = typeof PNG_STYLE;

export interface Point {
  x: number;
  y: number;
}

/** Legend items left to right, wrapping to a new row when the next would pass maxWidth. */
export function legendLayout(labelWidths: readonly number[], maxWidth: number, style: Style = PNG_STYLE): { items: Point[]; height: number } {
  const items: Point[] = [];
  let x = 0;
  let row = 0;
  for (const w of labelWidths) {
    const itemW = style.swatch + style.swatchGap + w;
    if (x > 0 && x + itemW > maxWidth) {
      row += 1;
      x = 0;
    }
    items.push({ x, y: row * (style.rowHeight + style.rowGap) });
    x += itemW + style.itemGap;
  }
  const rows = labelWidths.length ? row + 1 : 0;
  return { items, height: rows ? rows * style.rowHeight + (rows - 1) * style.rowGap : 0 };
}

export interface ChartImageLayout {
  width: number;
  height: number;
  title: Point;
  plot: Point & { w: number; h: number };
  /** Top-left of each legend item (swatch first). */
  legend: Point[];
}

/** Height of one title line (the title wraps to the plot's width: titleLines). */
export function titleLineHeight(style: Style = PNG_STYLE): number {
  return style.titlePx + 4;
}

/** One chart's image: title (on `titleLines` lines), the plot canvas at its CSS size, the legend under it. */
export function chartImageLayout(plotW: number, plotH: number, legendLabelWidths: readonly number[], style: Style = PNG_STYLE, titleLines = 1): ChartImageLayout {
  const width = plotW + 2 * style.pad;
  const title = { x: style.pad, y: style.pad };
  const titleH = style.titlePx + (Math.max(1, titleLines) - 1) * titleLineHeight(style);
  const plot = { x: style.pad, y: style.pad + titleH + style.titleGap, w: plotW, h: plotH };
  const legend = legendLayout(legendLabelWidths, plotW, style);
  const legendTop = plot.y + plotH + (legend.height ? style.legendGap : 0);
  return {
    width,
    height: legendTop + legend.height + style.pad,
    title,
    plot,
    legend: legend.items.map((p) => ({ x: style.pad + p.x, y: legendTop + p.y })),
  };
}

/** Blocks stacked top to bottom, left-aligned, `gap` apart, inside `pad`. */
export function stackLayout(blocks: readonly { w: number; h: number }[], gap: number = PNG_STYLE.blockGap, pad: number = PNG_STYLE.pad): { width: number; height: number; positions: Point[] } {
  const positions: Point[] = [];
  let y = pad;
  let width = 0;
  blocks.forEach((b, i) => {
    if (i > 0) y += gap;
    positions.push({ x: pad, y });
    y += b.h;
    width = Math.max(width, b.w);
  });
  return { width: width + 2 * pad, height: y + pad, positions };
}

/** A file name from a title: lower case, dashes, no more than 60 characters. */
export function pngFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `cohort-lab-${slug || 'chart'}.png`;
}

/** Words into lines no wider than maxWidth (a word wider than that gets a line of its own). */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(next) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}
