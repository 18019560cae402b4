/**
 * Exponential smoothing as TensorBoard's scalar charts do it: an exponential moving average with
 * weight w in [0, 0.99], debiased so the first points are not dragged towards 0 (the average is
 * divided by 1 - w^n after n values). Gaps (null) stay gaps and do not advance the average.
 * Pure; the charts draw the smoothed line over the raw one, drawn faint.
 */
import type { Column } from '../store/series';
import { clampSmoothing } from '../store/smoothingWeight';

export { MAX_SMOOTHING, clampSmoothing } from '../store/smoothingWeight';

/** The debiased EMA of a column (weight 0 returns a copy of it). */
export function emaSmooth(col: readonly (number | null)[], weight: number): Column {
  const w = clampSmoothing(weight);
  let last = 0;
  let n = 0;
  return col.map((v) => {
    if (v == null || !Number.isFinite(v)) return v ?? null;
    last = last * w + (1 - w) * v;
    n += 1;
    const debias = 1 - w ** n;
    return last / debias;
  });
}
