/**
 * The figure of one results file (see cli/science/figures.ts): one panel per arm; per member the held-out
 * pass@1 (solid, mean over seeds, faint single seeds) and chosen per-step metrics (dashed, 5-step
 * moving average of the mean over seeds).
 */
import { lineFigure, type Panel, type Series } from './science-svg';
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
export const STYLE: Record<string, { dash: string; label: string }> = {
  reward: { dash: '6 4', label: 'reward' },
  entropy: { dash: '2 3', label: 'entropy (nats)' },
  topAnswerShare: { dash: '8 3 2 3', label: 'top-answer share' },
  pseudoLabelAccuracy: { dash: '12 4', label: 'pseudo-label acc.' },
  length: { dash: '1 2', label: 'length (tokens ÷ 10)' },
};
export type Metric = 'reward' | 'entropy' | 'topAnswerShare' | 'pseudoLabelAccuracy' | 'length';

/** Metrics drawn on the rate axis [0, 1] after scaling (response length: tokens / 10). */
const SCALE: Partial<Record<Metric, number>> = { length: 0.1 };

function movingAverage(points: [number, number][], k: number): [number, number][] {
  return points.map((p, i) => {
    const w = points.slice(Math.max(0, i - k + 1), i + 1);
    return [p[0], w.reduce((s, q) => s + q[1], 0) / w.length];
  });
}

/** Held-out pass@1 of a member over steps, the base as step 0. */
function passSeries(run: RunSummary, armId: string, memberId: string): [number, number][] {
  const m = run.arms.find((a) => a.id === armId)!.members.find((x) => x.id === memberId)!;
  const base = run.base.find((b) => b.memberId === memberId);
  const pts: [number, number][] = base ? [[0, base.passAt1]] : [];
  for (const h of m.history) if (h.evalPassAt1 !== undefined) pts.push([h.step, h.evalPassAt1]);
  return pts;
}

function metricSeries(run: RunSummary, armId: string, memberId: string, key: Metric): [number, number][] {
  const m = run.arms.find((a) => a.id === armId)!.members.find((x) => x.id === memberId)!;
  return m.history
    .filter((h: MemberHistoryEntry) => typeof h[key] === 'number' && Number.isFinite(h[key] as number))
    .map((h) => [h.step, (h[key] as number) * (SCALE[key] ?? 1)]);
}

/** Pointwise mean of series sampled at the same x values (runs of one spec share their steps). */
function meanSeries(all: [number, number][][]): [number, number][] {
  const byX = new Map<number, number[]>();
  for (const s of all) for (const [x, y] of s) (byX.get(x) ?? byX.set(x, []).get(x)!).push(y);
  return [...byX.entries()].sort((a, b) => a[0] - b[0]).map(([x, ys]) => [x, ys.reduce((s, y) => s + y, 0) / ys.length]);
}

/**
 * rank: instead of by id, line members up by their base pass@1 within each seed (the "stronger" and
 * the "weaker" member), so seeds in which A and B swap strength average sensibly.
 */
/** The arm's first two members pooled by maj@G (the compute-matched control) over steps. */
function ensembleSeries(run: RunSummary, armId: string): [number, number][] {
  return run.arms.find((a) => a.id === armId)!.ensemble.map((e) => [e.step, e.majAtG]);
}

/**
 * ensemble: also draw each arm's pooled maj@G (black, mean over seeds; faint single seeds), the
 * compute-matched control of the ensemble-control preset.
 */
export function figureSvg(file: ExperimentResultFile, show: Metric[], title?: string, rank = false, ensemble = false): string {
  const runs = file.runs;
  const idAt = (run: RunSummary, armId: string, i: number): string => {
    const ids = run.arms.find((a) => a.id === armId)!.members.map((m) => m.id);
    if (!rank) return ids[i];
    const base = (id: string) => run.base.find((b) => b.memberId === id)?.passAt1 ?? 0;
    return [...ids].sort((x, y) => base(y) - base(x))[i];
  };
  const RANKS = ['stronger', 'weaker', 'third', 'fourth', 'fifth', 'sixth'];
  const panels: Panel[] = runs[0].arms.map((arm) => {
    const series: Series[] = [];
    arm.members.forEach((m, i) => {
      const color = COLORS[i % COLORS.length];
      const name = rank ? `${RANKS[i]} at base` : `${m.id} (${m.family})`;
      const perSeed = runs.map((r) => passSeries(r, arm.id, idAt(r, arm.id, i)));
      if (runs.length > 1) {
        for (const s of perSeed) series.push({ label: `${name} seed`, color, points: s, width: 1, opacity: 0.25, hideInLegend: true });
      }
      series.push({ label: `${name} held-out pass@1`, color, points: meanSeries(perSeed), width: 2.5 });
      for (const key of show) {
        const pts = meanSeries(runs.map((r) => metricSeries(r, arm.id, idAt(r, arm.id, i), key)));
        series.push({ label: `${name} ${STYLE[key].label}`, color, points: movingAverage(pts, 5), dash: STYLE[key].dash, width: 1.5 });
      }
    });
    if (ensemble && arm.ensemble.length > 0) {
      const perSeed = runs.map((r) => ensembleSeries(r, arm.id));
      if (runs.length > 1) {
        for (const s of perSeed) series.push({ label: 'pooled seed', color: '#222222', points: s, width: 1, opacity: 0.2, hideInLegend: true });
      }
      series.push({ label: 'pair pooled maj@G', color: '#222222', points: meanSeries(perSeed), width: 2.5 });
    }
    return { title: `${arm.id} (${arm.scheme})`, series };
  });
  const seeds = runs.map((r) => r.seed).join(', ');
  return lineFigure(panels, {
    title: title ?? `Held-out pass@1${show.length ? ' and ' + show.map((k) => STYLE[k].label).join(', ') : ''} per arm`,
    subtitle: `task ${file.spec.task.id} n=${file.spec.task.difficulty}, B ${file.spec.grpo.promptsPerStep}, G ${file.spec.grpo.groupSize}, lr ${file.spec.grpo.learningRate}; mean over seeds ${seeds} (faint: single seeds; dashed: 5-step moving average)`,
    xLabel: 'RL step',
    yLabel: 'rate',
    yMin: 0,
    yMax: 1,
  });
}

