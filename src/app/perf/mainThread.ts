/**
 * The page's main-thread time while a run trains (the page must not steal the
 * worker's core). Two costs are ours: folding worker events into the store (with the React commit
 * it causes) and drawing charts. Both are timed with performance.now() where they run; long tasks
 * (over 50 ms, anyone's) are counted by a PerformanceObserver where the browser has one.
 *
 *   window.cohortLab.perf()   // { storeMs, chartMs, draws, flushes, steps, perStepMs, longTasks, longTaskMs }
 *
 * `npm run bench -- --page` and e2e/perf.spec.ts read it; nothing here changes what is drawn.
 */

export interface MainThreadStats {
  /** Time spent folding events into the store, React's render and commit included. */
  storeMs: number;
  /** Time spent in uPlot drawing. */
  chartMs: number;
  flushes: number;
  draws: number;
  /** RL steps folded into the store since the last reset. */
  steps: number;
  longTasks: number;
  longTaskMs: number;
}

const stats: MainThreadStats = { storeMs: 0, chartMs: 0, flushes: 0, draws: 0, steps: 0, longTasks: 0, longTaskMs: 0 };

export function addStoreTime(ms: number, steps: number): void {
  stats.storeMs += ms;
  stats.flushes += 1;
  stats.steps += steps;
}

export function addChartTime(ms: number): void {
  stats.chartMs += ms;
  stats.draws += 1;
}

export function resetMainThreadStats(): void {
  Object.assign(stats, { storeMs: 0, chartMs: 0, flushes: 0, draws: 0, steps: 0, longTasks: 0, longTaskMs: 0 });
}

/** The figures so far, with the page's own time per RL step (store + charts; null before a step). */
export function mainThreadStats(): MainThreadStats & { perStepMs: number | null } {
  return { ...stats, perStepMs: stats.steps > 0 ? (stats.storeMs + stats.chartMs) / stats.steps : null };
}

/** Run `fn` and add its time to the chart total. */
export function timeChart<T>(fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    addChartTime(performance.now() - t0);
  }
}

let observing = false;

/** Count long tasks on the main thread (Chromium); and put the figures on window.cohortLab. */
export function startMainThreadWatch(): void {
  if (observing || typeof window === 'undefined') return;
  observing = true;
  try {
    if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          stats.longTasks += 1;
          stats.longTaskMs += e.duration;
        }
      }).observe({ type: 'longtask', buffered: true });
    }
  } catch {
    /* no long-task timing here: the own timings still count */
  }
  const w = window as unknown as { cohortLab?: Record<string, unknown> };
  w.cohortLab = { ...(w.cohortLab ?? {}), perf: mainThreadStats, resetPerf: resetMainThreadStats };
}
