/**
 * Charts redraw at a bounded rate, and only where they can be seen.
 *
 * A chart asks for a redraw when its data changed; the scheduler draws every dirty, visible chart
 * together in one animation frame, at most once per MIN_REDRAW_MS. A chart off screen or in a
 * folded panel stays dirty and is drawn when it comes into view (ChartCard watches that with an
 * IntersectionObserver) or when something reads its pixels (the PNG export calls `flush`).
 */
import { timeChart } from '../perf/mainThread';

export const MIN_REDRAW_MS = 250;

export interface RedrawJob {
  visible: boolean;
  dirty: boolean;
  draw(): void;
}

const waiting = new Set<RedrawJob>();
let pending = false;
let lastRun = -Infinity;

function runDue(): void {
  pending = false;
  lastRun = performance.now();
  for (const job of [...waiting]) {
    if (!job.visible) continue;
    waiting.delete(job);
    drawNow(job);
  }
}

function schedule(): void {
  if (pending) return;
  pending = true;
  const wait = Math.max(0, lastRun + MIN_REDRAW_MS - performance.now());
  setTimeout(() => requestAnimationFrame(runDue), wait);
}

function drawNow(job: RedrawJob): void {
  if (!job.dirty) return;
  job.dirty = false;
  timeChart(() => job.draw());
}

/** The chart's data changed: draw it soon if it is visible, else when it becomes visible. */
export function requestRedraw(job: RedrawJob): void {
  job.dirty = true;
  waiting.add(job);
  if (job.visible) schedule();
}

/** The chart came into view or left it. */
export function setVisible(job: RedrawJob, visible: boolean): void {
  job.visible = visible;
  if (visible && job.dirty) schedule();
}

/** Draw now whatever is pending for this chart (before its pixels are read). */
export function flush(job: RedrawJob): void {
  waiting.delete(job);
  drawNow(job);
}

/** Forget a chart (unmounted). */
export function cancel(job: RedrawJob): void {
  waiting.delete(job);
}
