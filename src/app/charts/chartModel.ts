/**
 * What one chart draws, from the lines its panel defines (seriesDefs.ts, mechanismDefs.ts) applied
 * to the live run and to every compare layer, and the smoothing weight. Pure; UPlotChart draws it.
 *
 *   - compare layers come first, so uPlot draws them behind the live curves: lighter, dashed,
 *     labelled "<layer> · <line>", without their reference (guide) lines
 *   - with smoothing > 0, each dense live line is drawn twice: raw (faint, thin, not in the legend)
 *     and smoothed over it; sparse lines (held-out evaluations, drawn as dots) are not smoothed
 *   - the steps of the live run and the layers are merged into one x column (uPlot has one)
 *   - the table holds the same numbers: every line raw, and smoothed where it is drawn smoothed
 *   - several seeds (seedAggregate.ts) come after the layers and before the live run: each seed
 *     faint and thin, then per line a shaded min–max band and the mean over it, labelled
 *     "mean of N seeds · <line>"; smoothed like the live lines; the table gets mean, min and max
 *   - a run that stopped on a non-finite number (RunState.halt) gets a marker at that step: the x
 *     column reaches it (every line a gap there, so the table has no row for it) and the chart
 *     draws a labelled vertical line
 */
import { withAlpha } from '../lib/colors';
import type { Column } from '../store/series';
import type { SeedAggregate, SeedUnit } from './seedAggregate';
import { emaSmooth } from './smoothing';
import type { ChartLines } from './seriesDefs';
import type { SeriesDef } from './seriesDefs';

export interface Band {
  upper: number;
  lower: number;
  fill: string;
  /** What the shaded area means, for the legend ("hacking gap", "min–max over 3 seeds"). */
  label?: string;
}

/** A chart's lines, with the shaded bands some charts draw between two of them. */
export interface ChartLinesWithBands extends ChartLines {
  bands?: Band[];
}

/** One compare layer's lines (the same chart definition applied to its run). */
export interface CompareLines {
  label: string;
  x: readonly number[];
  lines: ChartLines;
}

export type SeriesRole = 'data' | 'raw' | 'reference' | 'compare' | 'seed' | 'seed-band' | 'seed-mean';

export interface DrawnSeries extends SeriesDef {
  role: SeriesRole;
  /** The compare layer a 'compare' line belongs to. */
  layer?: string;
}

export interface TableColumn {
  label: string;
  col: Column;
}

/** A labelled vertical line at one step. */
export interface ChartMarker {
  step: number;
  label: string;
}

/** The marker of a run that stopped on a NaN or an infinity: "step 37: loss NaN". */
export function haltMarker(halt: { step: number; quantity: string; value: string } | null): ChartMarker | null {
  return halt ? { step: halt.step, label: `step ${halt.step}: ${halt.quantity} ${halt.value}` } : null;
}

export interface ChartModel {
  x: number[];
  /** Where the run stopped on a non-finite number (null: it did not). */
  marker: ChartMarker | null;
  series: DrawnSeries[];
  ys: Column[];
  bands: Band[];
  table: TableColumn[];
  /** The live data lines, raw (what data-points, data-series and the constant note read). */
  live: TableColumn[];
  /** Labels of the compare lines drawn, in order. */
  compareLabels: string[];
  /** Seeds drawn as mean and band (0: none), and the labels of their mean lines. */
  seeds: number;
  seedLabels: string[];
}

/** "mean of 3 seeds" (the legend's prefix of a seed-mean line); a class room's: "mean of 12 browsers". */
export function seedMeanLabel(seeds: number, label: string, unit: SeedUnit = 'seed'): string {
  return `mean of ${seeds} ${unit}${seeds === 1 ? '' : 's'} · ${label}`;
}

/** The legend's name of the shaded range of several seeds (say what a band is). */
export function seedBandLabel(seeds: number, unit: SeedUnit = 'seed'): string {
  return `min–max over ${seeds} ${unit}s`;
}

/** Dash of every compare line: short and even, unlike any member dash. */
export const COMPARE_DASH = [3, 3];
/**
 * A class room's mean where this browser's own run is drawn too (a student's page): long dashes,
 * so "you" (solid) and "class: mean of N" are two different lines, not two bold lines of one
 * colour.
 */
export const CLASS_DASH = [10, 5];

/** The sorted union of step columns. */
export function unionX(...xs: readonly (readonly number[])[]): number[] {
  const set = new Set<number>();
  for (const x of xs) for (const v of x) set.add(v);
  return [...set].sort((a, b) => a - b);
}

/** A column re-indexed from its own steps `fromX` onto `toX` (null where it has no value). */
export function alignColumn(fromX: readonly number[], col: Column, toX: readonly number[]): Column {
  const at = new Map<number, number | null>();
  fromX.forEach((x, i) => at.set(x, col[i] ?? null));
  return toX.map((x) => at.get(x) ?? null);
}

function lighter(color: string): string {
  return withAlpha(color, 0.5);
}

function smoothable(s: SeriesDef, smoothing: number): boolean {
  return smoothing > 0 && !s.reference && !s.points;
}

/** Pointwise min (or max) of two columns on the same x; a gap in one takes the other. */
function envelope(a: Column, b: Column, pick: (x: number, y: number) => number): Column {
  return a.map((v, i) => {
    const w = b[i];
    return v == null || Number.isNaN(v) ? w : w == null || Number.isNaN(w) ? v : pick(v, w);
  });
}

export function buildChartModel(
  x: number[],
  lines: ChartLinesWithBands,
  compare: readonly CompareLines[],
  smoothing: number,
  seeds: SeedAggregate | null = null,
  marker: ChartMarker | null = null,
): ChartModel {
  const withSeeds = seeds != null && seeds.seeds > 0 && seeds.lines.length > 0;
  const markerX = marker && !x.includes(marker.step) ? [[marker.step]] : [];
  const merged = compare.length === 0 && !withSeeds && markerX.length === 0;
  const X = merged ? x : unionX(x, ...compare.map((c) => c.x), ...(withSeeds ? [seeds.x] : []), ...markerX);
  const onX = (fromX: readonly number[], col: Column) => (merged ? col : alignColumn(fromX, col, X));
  const out: ChartModel = { x: X, marker, series: [], ys: [], bands: [], table: [], live: [], compareLabels: [], seeds: withSeeds ? seeds.seeds : 0, seedLabels: [] };

  for (const layer of compare) {
    layer.lines.series.forEach((s, i) => {
      if (s.reference) return;
      const label = `${layer.label} · ${s.label}`;
      const col = onX(layer.x, layer.lines.ys[i]);
      const smooth = smoothable(s, smoothing);
      const drawn = smooth ? emaSmooth(col, smoothing) : col;
      out.series.push({ ...s, label, color: lighter(s.color), dash: COMPARE_DASH, width: 1.5, role: 'compare', layer: layer.label });
      out.ys.push(drawn);
      out.compareLabels.push(label);
      out.table.push({ label, col });
      if (smooth) out.table.push({ label: `${label} (smoothed)`, col: drawn });
    });
  }

  const classBesideYou = withSeeds && seeds.unit != null && seeds.unit !== 'seed' && x.length > 0;
  if (withSeeds) {
    // One band per colour (an arm, or a measure drawn in its own colour): the envelope of its
    // lines' seeds, so an arm's members share one band and the arms' bands stay apart.
    const envelopes = new Map<string, { def: SeriesDef; smooth: boolean; min: Column; max: Column }>();
    for (const line of seeds.lines) {
      const s = line.def;
      const smooth = smoothable(s, smoothing);
      const drawn = (col: Column) => (smooth ? emaSmooth(col, smoothing) : col);
      line.singles.forEach((col, k) => {
        out.series.push({ ...s, label: `${seeds.unit ?? 'seed'} ${k + 1} · ${s.label}`, color: withAlpha(s.color, 0.22), width: 1, raw: true, role: 'seed' });
        out.ys.push(onX(seeds.x, col));
      });
      const label = seedMeanLabel(seeds.seeds, s.label, seeds.unit);
      const mean = onX(seeds.x, line.mean);
      out.series.push(classBesideYou ? { ...s, label, width: 2.5, dash: CLASS_DASH, role: 'seed-mean' } : { ...s, label, width: 3, role: 'seed-mean' });
      out.ys.push(drawn(mean));
      out.seedLabels.push(label);
      out.table.push({ label, col: mean }, { label: `${label} (min)`, col: onX(seeds.x, line.min) }, { label: `${label} (max)`, col: onX(seeds.x, line.max) });
      const env = envelopes.get(s.color);
      if (env) {
        env.min = envelope(env.min, line.min, Math.min);
        env.max = envelope(env.max, line.max, Math.max);
        env.smooth ||= smooth;
      } else envelopes.set(s.color, { def: s, smooth, min: line.min, max: line.max });
    }
    for (const { def, smooth, min, max } of envelopes.values()) {
      const drawn = (col: Column) => (smooth ? emaSmooth(col, smoothing) : col);
      const edge = { ...def, color: withAlpha(def.color, 0.45), width: 0.75, dash: [], points: false, raw: true, role: 'seed-band' as const };
      const upper = out.series.length;
      const label = seedBandLabel(seeds.seeds, seeds.unit);
      // Named by the first line of its colour ("self · A": the band of arm self).
      const of = def.label.split(' · ')[0];
      out.series.push({ ...edge, label: `${label} · ${of} (max)` });
      out.ys.push(drawn(onX(seeds.x, max)));
      out.series.push({ ...edge, label: `${label} · ${of} (min)` });
      out.ys.push(drawn(onX(seeds.x, min)));
      out.bands.push({ upper, lower: upper + 1, fill: withAlpha(def.color, 0.1), label });
    }
  }

  // Where each live line ends up among the drawn series (for the bands).
  const drawnIndex: number[] = [];
  const liveTable: TableColumn[] = [];
  lines.series.forEach((s, i) => {
    const col = onX(x, lines.ys[i]);
    if (s.reference) {
      drawnIndex.push(out.series.length);
      out.series.push({ ...s, role: 'reference' });
      out.ys.push(col);
      liveTable.push({ label: s.label, col });
      return;
    }
    out.live.push({ label: s.label, col });
    liveTable.push({ label: s.label, col });
    if (smoothable(s, smoothing)) {
      out.series.push({ ...s, label: `${s.label} (raw)`, color: withAlpha(s.color, 0.3), width: 1, raw: true, role: 'raw' });
      out.ys.push(col);
      drawnIndex.push(out.series.length);
      const smoothed = emaSmooth(col, smoothing);
      out.series.push({ ...s, role: 'data' });
      out.ys.push(smoothed);
      liveTable.push({ label: `${s.label} (smoothed)`, col: smoothed });
    } else {
      drawnIndex.push(out.series.length);
      out.series.push({ ...s, role: 'data' });
      out.ys.push(col);
    }
  });
  out.bands = [...out.bands, ...(lines.bands ?? []).map((b) => ({ ...b, upper: drawnIndex[b.upper], lower: drawnIndex[b.lower] }))];
  out.table = [...liveTable, ...out.table];
  return out;
}

/** A number as the table prints it: 3 decimals, whole numbers of 100 and more without; '—' for none. */
export function fmtCell(v: number | null | undefined): string {
  if (v == null || !Number.isFinite(v)) return '—';
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(3);
}

/** The chart as table rows: a header (x label, then each column) and one row per step with any value. */
export function chartTable(xLabel: string, x: readonly number[], columns: readonly TableColumn[]): { head: string[]; rows: string[][] } {
  const head = [xLabel, ...columns.map((c) => c.label)];
  const rows: string[][] = [];
  x.forEach((step, i) => {
    if (!columns.some((c) => c.col[i] != null)) return;
    rows.push([String(step), ...columns.map((c) => fmtCell(c.col[i]))]);
  });
  return { head, rows };
}

/** The legend of an exported image: every drawn line but the faint raw ones, as drawn. */
export function legendEntries(model: Pick<ChartModel, 'series'>): { label: string; color: string; dash: number[]; width: number }[] {
  return model.series.filter((s) => !s.raw).map((s) => ({ label: s.label, color: s.color, dash: s.dash ?? [], width: s.width ?? (s.reference ? 1 : 2) }));
}
