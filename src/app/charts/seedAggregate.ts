/**
 * Several seeds of one experiment as one picture (pure): the chart's lines built from each seed's
 * RunSeries, matched by label, and per line and step the mean and the band min–max over the seeds
 * that have a value at that step (a seed that stopped early, or an eval-only step, leaves a gap in
 * its own column only). Min–max is the band: "every seed lay in here" needs no statistics.
 */
import type { Column, SeedUnit } from '../store/series';
import type { ChartLines } from './seriesDefs';
import type { SeriesDef } from './seriesDefs';

export interface SeedLines {
  x: readonly number[];
  lines: ChartLines;
}

export interface AggregatedColumns {
  mean: Column;
  min: Column;
  max: Column;
  /** Seeds with a value at each step. */
  count: number[];
}

export interface AggregatedLine extends AggregatedColumns {
  def: SeriesDef;
  /** Each seed's column on the common x (all-null for a seed without this line). */
  singles: Column[];
}

/** What one run of a band is (store/series.ts, where the store reads it too). */
export type { SeedUnit };

export interface SeedAggregate {
  /** How many seeds. */
  seeds: number;
  /** What they are called (absent: seeds). */
  unit?: SeedUnit;
  x: number[];
  lines: AggregatedLine[];
}

/** The sorted union of step columns. */
function union(xs: readonly (readonly number[])[]): number[] {
  const set = new Set<number>();
  for (const x of xs) for (const v of x) set.add(v);
  return [...set].sort((a, b) => a - b);
}

function align(fromX: readonly number[], col: Column, toX: readonly number[]): Column {
  const at = new Map<number, number | null>();
  fromX.forEach((x, i) => at.set(x, col[i] ?? null));
  return toX.map((x) => at.get(x) ?? null);
}

/** Per index, the mean, min and max of the columns' non-null values (null where none has one). */
export function aggregateColumns(cols: readonly Column[], length: number): AggregatedColumns {
  const out: AggregatedColumns = { mean: [], min: [], max: [], count: [] };
  for (let i = 0; i < length; i++) {
    let n = 0;
    let sum = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (const c of cols) {
      const v = c[i];
      if (v == null || !Number.isFinite(v)) continue;
      n++;
      sum += v;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    out.count.push(n);
    out.mean.push(n ? sum / n : null);
    out.min.push(n ? lo : null);
    out.max.push(n ? hi : null);
  }
  return out;
}

/**
 * The seeds' lines aggregated: one line per label (in first-seen order), reference (guide) lines
 * left out (they belong to the run on screen). `through` (null: none): no mean or band after that step.
 */
export function aggregateSeedLines(seeds: readonly SeedLines[], unit: SeedUnit = 'seed', through: number | null = null): SeedAggregate {
  const x = union(seeds.map((s) => s.x));
  const defs = new Map<string, SeriesDef>();
  for (const s of seeds) for (const d of s.lines.series) if (!d.reference && !defs.has(d.label)) defs.set(d.label, d);
  const lines = [...defs.entries()].map(([label, def]) => {
    const singles = seeds.map((s) => {
      const i = s.lines.series.findIndex((d) => d.label === label && !d.reference);
      return i < 0 ? x.map(() => null) : align(s.x, s.lines.ys[i], x);
    });
    const agg = aggregateColumns(singles, x.length);
    // `through`: the mean and band stop at the step every run still training has reached (a class
    // room), so they never jump when a slow run is left out; each run's own line goes on faint.
    if (through !== null) {
      x.forEach((step, i) => {
        if (step > through) agg.mean[i] = agg.min[i] = agg.max[i] = null;
      });
    }
    return { def, singles, ...agg };
  });
  return { seeds: seeds.length, unit, x, lines };
}
