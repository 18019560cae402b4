/**
 * A run's metrics as files for a spreadsheet or a notebook, built from the chart columns
 * (store/series.ts), so they hold exactly the numbers the charts draw:
 *
 *   members CSV  one row per step x arm x member: step, arm, scheme, member, then every metric of
 *                MEMBER_METRICS, then the arm's ensembleMajAtG (the compute-matched control, an
 *                arm-level value repeated on each member row of the arm);
 *   pairs CSV    one row per step x arm x pair: step, arm, scheme, a, b, then every PAIR_METRICS;
 *   JSON         { format: 'cohort-lab-metrics', version: 1, name, steps: [...], arms: [...] }
 *                with the same columns as arrays aligned with `steps`.
 * An empty cell (CSV) or null (JSON) is a value the run did not report at that step (eval-only
 * metrics between evaluations, an undefined rate). Numbers are written in JavaScript's shortest
 * round-trip form, so Number(cell) gives back the exact double. CSV follows RFC 4180 (CRLF rows,
 * quoted cells where needed).
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { MEMBER_METRICS, PAIR_METRICS, type RunSeries } from '../store/series';

export type Cell = string | number | null | undefined;

/** One CSV cell: numbers as shortest round-trip text, null/undefined/NaN empty, text quoted when needed. */
export function csvCell(v: Cell): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  // A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP: CSV injection).
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly (readonly Cell[])[]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export const MEMBER_CSV_HEADER = ['step', 'arm', 'scheme', 'member', ...MEMBER_METRICS, 'ensembleMajAtG'] as const;
export const PAIR_CSV_HEADER = ['step', 'arm', 'scheme', 'a', 'b', ...PAIR_METRICS] as const;

export function memberMetricsCsv(series: RunSeries): string {
  const rows: Cell[][] = [[...MEMBER_CSV_HEADER]];
  series.x.forEach((step, i) => {
    for (const arm of series.arms) {
      for (const id of arm.memberIds) {
        const m = arm.members[id];
        rows.push([step, arm.armId, arm.scheme, id, ...MEMBER_METRICS.map((k) => m[k][i]), arm.ensembleMajAtG[i]]);
      }
    }
  });
  return toCsv(rows);
}

export function pairMetricsCsv(series: RunSeries): string {
  const rows: Cell[][] = [[...PAIR_CSV_HEADER]];
  series.x.forEach((step, i) => {
    for (const arm of series.arms) {
      for (const p of arm.pairs) rows.push([step, arm.armId, arm.scheme, p.a, p.b, ...PAIR_METRICS.map((k) => p[k][i])]);
    }
  });
  return toCsv(rows);
}

export interface MetricsFile {
  format: 'cohort-lab-metrics';
  version: 1;
  name: string;
  spec: ExperimentSpec | null;
  backend: string | null;
  steps: number[];
  arms: {
    id: string;
    scheme: string;
    members: Record<string, Record<string, (number | null)[]>>;
    pairs: ({ a: string; b: string } & Record<string, (number | null)[] | string>)[];
    ensembleMajAtG: (number | null)[];
  }[];
}

export function metricsFile(series: RunSeries, meta: { name: string; spec: ExperimentSpec | null; backend: string | null }): MetricsFile {
  return {
    format: 'cohort-lab-metrics',
    version: 1,
    ...meta,
    steps: [...series.x],
    arms: series.arms.map((arm) => ({
      id: arm.armId,
      scheme: arm.scheme,
      members: Object.fromEntries(arm.memberIds.map((id) => [id, Object.fromEntries(MEMBER_METRICS.map((k) => [k, [...arm.members[id][k]]]))])),
      pairs: arm.pairs.map((p) => ({ a: p.a, b: p.b, ...Object.fromEntries(PAIR_METRICS.map((k) => [k, [...p[k]]])) })),
      ensembleMajAtG: [...arm.ensembleMajAtG],
    })),
  };
}

/** The metrics file as JSON text (NaN, never in the columns, would be null). */
export function metricsJson(series: RunSeries, meta: { name: string; spec: ExperimentSpec | null; backend: string | null }): string {
  return JSON.stringify(metricsFile(series, meta), null, 1);
}

/** A file name from a run name: lower-case letters, digits and dashes, never empty. */
export function fileStem(name: string): string {
  const stem = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return `cohort-lab-${stem || 'run'}`;
}
