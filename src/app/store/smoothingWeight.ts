/**
 * The smoothing slider's weight (TensorBoard's debiased EMA, src/app/charts/smoothing.ts): the
 * store keeps it clamped, the charts read it. Here, not in charts/, so the store depends on no
 * chart module (the charts depend on the store).
 */
export const MAX_SMOOTHING = 0.99;

/** A weight the slider may hold: a finite number in [0, 0.99] (anything else is 0). */
export function clampSmoothing(w: number): number {
  if (!Number.isFinite(w) || w <= 0) return 0;
  return Math.min(MAX_SMOOTHING, w);
}
