/**
 * Which lines each chart draws, derived from the run's columns: pure functions, so the same arm
 * gets the same colour and the same member the same dash in every panel.
 */
import type { BaseEvaluation, BasePair } from '../../core/experiment/events';
import { withAlpha } from '../lib/colors';
import type { ArmSeries, Column, MemberMetric, RunSeries } from '../store/series';

/** One line of a chart, as UPlotChart.tsx draws it. */
export interface SeriesDef {
  label: string;
  color: string;
  dash?: number[];
  width?: number;
  /** Draw points (for sparse, eval-only series). */
  points?: boolean;
  /** Join values across nulls (eval-only series); default false: a null is a gap. */
  spanGaps?: boolean;
  /** A constant guide line (oracle 1.0, base maj@G): not counted as data. */
  reference?: boolean;
  /** The raw line under a smoothed one: drawn faint and left out of the legend. */
  raw?: boolean;
  /** For the legend keys (ChartLegend.tsx): the arm whose colour it has, the member whose dash, what it measures. */
  armId?: string;
  memberId?: string;
  kind?: string;
}

export interface Styles {
  arm: Record<string, string>;
  dash: Record<string, number[]>;
}

export interface ChartLines {
  series: SeriesDef[];
  ys: Column[];
}

export const REFERENCE_COLOR = '#8a8f98';

/** The colour of "what is actually correct" in every collapse chart (apart from every arm colour for colour-blind viewers too). */
export const TRUTH_COLOR = '#0a8a1c';

export function lineLabel(armId: string, memberId: string): string {
  return `${armId} · ${memberId}`;
}

export function empty(): ChartLines {
  return { series: [], ys: [] };
}

/** One line per arm and member for `metric`; `eval` metrics are sparse, so they join gaps and show points. */
export function memberLines(run: RunSeries, metric: MemberMetric, styles: Styles, arms?: (a: ArmSeries) => boolean): ChartLines {
  const sparse = metric === 'evalPassAt1' || metric === 'evalMajAtG';
  const out = empty();
  for (const arm of run.arms) {
    if (arms && !arms(arm)) continue;
    for (const id of arm.memberIds) {
      const col = arm.members[id][metric];
      out.series.push({
        label: lineLabel(arm.armId, id),
        color: styles.arm[arm.armId] ?? REFERENCE_COLOR,
        dash: styles.dash[id] ?? [],
        points: sparse,
        spanGaps: sparse,
      });
      out.ys.push(col);
    }
  }
  return out;
}

/** A horizontal guide line as a column the length of x. */
export function constant(x: readonly number[], v: number): Column {
  return x.map(() => v);
}

/** Guide lines at each member's base (warm-started) maj@G, in the reference grey with the member's dash. */
export function baseLines(x: readonly number[], base: readonly BaseEvaluation[], styles: Styles, metric: 'majAtG' | 'passAt1' = 'majAtG'): ChartLines {
  const out = empty();
  for (const b of base) {
    out.series.push({ label: `base ${metric === 'majAtG' ? 'maj@G' : 'pass@1'} · ${b.memberId}`, color: REFERENCE_COLOR, dash: styles.dash[b.memberId] ?? [], width: 1.5, reference: true });
    out.ys.push(constant(x, b[metric]));
  }
  return out;
}

export function concat(...parts: ChartLines[]): ChartLines {
  return { series: parts.flatMap((p) => p.series), ys: parts.flatMap((p) => p.ys) };
}

/** Disagreement rate 1 - agreement, one line per arm and member pair. */
export function disagreementLines(run: RunSeries, styles: Styles): ChartLines {
  const out = empty();
  for (const arm of run.arms) {
    arm.pairs.forEach((p, i) => {
      out.series.push({ label: `${arm.armId} · ${p.a}–${p.b}`, color: styles.arm[arm.armId] ?? REFERENCE_COLOR, dash: [[], [8, 4], [2, 3], [10, 3, 2, 3]][i % 4] });
      out.ys.push(p.agreement.map((v) => (v == null ? null : 1 - v)));
    });
  }
  return out;
}

/** The compute-matched ensemble (first two members pooled by maj@G), one line per arm that has it. */
export function ensembleLines(run: RunSeries, styles: Styles): ChartLines {
  const out = empty();
  for (const arm of run.arms) {
    if (arm.memberIds.length < 2) continue; // the runner pools the first two members
    out.series.push({ label: `${arm.armId} · ensemble`, color: styles.arm[arm.armId] ?? REFERENCE_COLOR, dash: [1, 3], width: 3, points: true, spanGaps: true });
    out.ys.push(arm.ensembleMajAtG);
  }
  return out;
}

/**
 * The untrained (warm-started) pair pooled by maj@G, as a horizontal dashed line per arm with a
 * pooled pair (its first two members, as the runner pools them): the baseline the ensemble line is
 * read against. `order` gives each arm's members in spec order (default: the order reported).
 * Arms whose base pair has no `pooledMajAtG` (results saved before it was measured) get no line.
 */
export function untrainedPairLines(run: RunSeries, baseKappa: readonly BasePair[], styles: Styles, order: Record<string, readonly string[]> = {}): ChartLines {
  const out = empty();
  for (const arm of run.arms) {
    const ids = order[arm.armId] ?? arm.memberIds;
    if (ids.length < 2) continue;
    const [a, b] = ids;
    const pair = baseKappa.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
    if (pair?.pooledMajAtG == null) continue;
    const color = withAlpha(styles.arm[arm.armId] ?? REFERENCE_COLOR, 0.8);
    out.series.push({ label: `untrained pair pooled · ${arm.armId}`, color, dash: [6, 3], width: 1.5, reference: true });
    out.ys.push(constant(run.x, pair.pooledMajAtG));
  }
  return out;
}

/** Schemes whose reward comes from a vote, so a pseudo-label exists. */
export function hasPseudoLabels(arm: ArmSeries): boolean {
  return arm.scheme !== 'oracle' && !isIntrinsic(arm.scheme);
}

/** The intrinsic schemes: their reward (minus entropy, self-certainty) is not a 0-1 label match. */
export function isIntrinsic(scheme: ArmSeries['scheme']): boolean {
  return scheme === 'entropy' || scheme === 'certainty';
}

export interface CollapseLines extends ChartLines {
  /** Shaded bands between two series (indices into `series`). */
  bands: { upper: number; lower: number; fill: string; label?: string }[];
}

/**
 * One arm's collapse chart: per member its label-free reward (arm colour), the share correct in
 * the batch and held-out pass@1 (green). Where the reward is a 0-1 label match, the band between
 * reward and batch correctness is the hacking gap; the intrinsic schemes get no band (their
 * reward is on another scale, so the difference means nothing).
 */
export function armCollapseLines(arm: ArmSeries, styles: Styles): CollapseLines {
  const out: CollapseLines = { ...empty(), bands: [] };
  const color = styles.arm[arm.armId] ?? REFERENCE_COLOR;
  const gap = !isIntrinsic(arm.scheme);
  for (const id of arm.memberIds) {
    const m = arm.members[id];
    const dash = styles.dash[id] ?? [];
    const reward = out.series.length;
    out.series.push({ label: `reward · ${id}`, color, dash });
    out.ys.push(m.reward);
    const correct = out.series.length;
    out.series.push({ label: `correct (batch) · ${id}`, color: TRUTH_COLOR, dash, width: 1.25 });
    out.ys.push(m.oracleReward);
    out.series.push({ label: `held-out pass@1 · ${id}`, color: TRUTH_COLOR, dash, width: 2.5, points: true, spanGaps: true });
    out.ys.push(m.evalPassAt1);
    if (gap) out.bands.push({ upper: reward, lower: correct, fill: withAlpha(color, 0.22), label: 'hacking gap' });
  }
  return out;
}
