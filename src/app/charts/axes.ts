/**
 * Y axes that do not mislead, and a chart that says in words when its data is flat. Pure.
 *
 *   rate    accuracies, rewards on a 0-1 scale, kappa, agreement, fractions: always [0, 1]
 *   length  tokens per completion: from 0 to the run's completion cap (the runner's lengthCap)
 *   nonneg  a quantity >= 0 on no fixed scale (entropy): from 0 to a round number above the data
 *   auto    anything else (the intrinsic rewards): the data's range, never narrower than a
 *           minimum span, so float noise on a flat line is not blown up to fill the chart
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { resolveTask } from '../../core/tasks/index';
import type { Column } from '../store/series';

export type AxisKind = 'rate' | 'length' | 'nonneg' | 'auto';

/** The smallest of 1, 2, 2.5, 5 x 10^k that is >= v (v > 0). */
export function niceCeil(v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-12)) return m * p;
  return 10 * p;
}

/** The completion length cap of a run: grpo.maxNewTokens, or the task's longest answer + 2 (runner.ts lengthCap). */
export function lengthAxisMax(spec: Pick<ExperimentSpec, 'task' | 'grpo'>): number {
  if (spec.grpo.maxNewTokens > 0) return spec.grpo.maxNewTokens;
  return resolveTask(spec.task).maxCompletionLength(spec.task.difficulty) + 2;
}

/** The y range of a chart, from uPlot's data min and max (null: no data yet). */
export function yRange(kind: AxisKind, dataMin: number | null, dataMax: number | null, lengthMax = 0): [number, number] {
  const has = dataMin != null && dataMax != null && Number.isFinite(dataMin) && Number.isFinite(dataMax);
  switch (kind) {
    case 'rate':
      return [0, 1];
    case 'length':
      return [0, Math.max(lengthMax, has ? (dataMax as number) : 0, 1)];
    case 'nonneg':
      return [0, has && (dataMax as number) > 0 ? niceCeil((dataMax as number) * 1.05) : 1];
    case 'auto': {
      if (!has) return [0, 1];
      const lo = dataMin as number;
      const hi = dataMax as number;
      const mid = (lo + hi) / 2;
      const minSpan = 0.1 * Math.max(1, Math.abs(mid));
      if (hi - lo < minSpan) return [mid - minSpan / 2, mid + minSpan / 2];
      const pad = (hi - lo) * 0.05;
      return [lo - pad, hi + pad];
    }
  }
}

/** A value for notes and tables: 2 decimals, or 3 significant digits when that would print 0.00. */
export function fmtValue(v: number | null | undefined): string {
  if (v == null || !Number.isFinite(v)) return '—';
  if (v !== 0 && Math.abs(v) < 0.005) return v.toPrecision(3);
  return v.toFixed(2);
}

/** Every non-null value of the columns, if they are all equal within `tol` (relative), and at least two. */
export function constantValue(cols: readonly Column[], tol = 1e-6): number | null {
  let lo = Infinity;
  let hi = -Infinity;
  let n = 0;
  for (const col of cols) {
    for (const v of col) {
      if (v == null || !Number.isFinite(v)) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      n++;
    }
  }
  if (n < 2) return null;
  return hi - lo <= tol * Math.max(1, Math.abs(lo), Math.abs(hi)) ? (lo + hi) / 2 : null;
}

/**
 * What to say about a chart whose data lines are flat: "constant at 6.00" when they all hold one
 * value, "every line is constant: A at 6.00, B at 5.00" when each holds its own; null otherwise
 * (or with fewer than two values: one point is not a line).
 */
export function constantNote(lines: readonly { label: string; col: Column }[], tol = 1e-6): string | null {
  const withData = lines.filter((l) => l.col.some((v) => v != null));
  if (withData.length === 0) return null;
  const all = constantValue(withData.map((l) => l.col), tol);
  if (all != null) return `constant at ${fmtValue(all)}`;
  if (withData.length < 2) return null;
  const each = withData.map((l) => ({ label: l.label, v: constantValue([l.col], tol) }));
  if (each.some((e) => e.v == null)) return null;
  return `every line is constant: ${each.map((e) => `${e.label} at ${fmtValue(e.v)}`).join(', ')}`;
}
