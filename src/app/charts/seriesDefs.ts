/**
 * Which lines each chart draws, derived from the run's columns: pure functions, so the same arm
 * gets the same colour and the same member the same dash in every panel.
 */
import type { BaseEvaluation } from '../../core/experiment/events';
import type { ArmSeries, Column, MemberMetric, RunSeries } from '../store/series';
import type { SeriesDef } from './UPlotChart';

export interface Styles {
  arm: Record<string, string>;
  dash: Record<string, number[]>;
}

export interface ChartLines {
  series: SeriesDef[];
  ys: Column[];
}

export const REFERENCE_COLOR = '#8a8f98';

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

/** Schemes whose reward comes from a vote, so a pseudo-label exists. */
export function hasPseudoLabels(arm: ArmSeries): boolean {
  return arm.scheme !== 'oracle' && arm.scheme !== 'entropy' && arm.scheme !== 'certainty';
}
