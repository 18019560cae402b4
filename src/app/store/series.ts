/**
 * Chart-ready columns of everything a run reports, built by folding 'step' events.
 *
 * The layout is uPlot's: one shared x column (RL step numbers) and, per arm, member and metric,
 * one y column of the same length with `null` where there is no value (an eval-only metric on a
 * non-eval step, an undefined rate). Columns are append-only and mutated in place, so a chart can
 * hand the same arrays to `uPlot.setData` after every step instead of copying 100k numbers; the
 * run slice bumps a `version` counter so React knows something changed.
 */
import type { ArmStepMetrics, MemberStepMetrics, PairMetrics, RunnerEvent } from '../../core/experiment/events';

export type Column = (number | null)[];

/** What one run of a band is: a seed of "Run N seeds", a class room's browser, or a paired room's pair of browsers. */
export type SeedUnit = 'seed' | 'browser' | 'pair';

/** Every numeric per-member metric the runner reports (MemberStepMetrics), charted or not. */
export const MEMBER_METRICS = [
  'reward',
  'oracleReward',
  'pseudoLabelAccuracy',
  'rewardAccuracy',
  'rewardGap',
  'ownVoteAccuracy',
  'rescueRate',
  'misleadRate',
  'sharedErrorRate',
  'labeledFraction',
  'majorityRatio',
  'tieRate',
  'entropy',
  'length',
  'capFraction',
  'malformedFraction',
  'rewardStd',
  'zeroStdFraction',
  'supervisionContainsTruth',
  'topAnswerShare',
  'loss',
  'kl',
  'clipFraction',
  'gradNorm',
  'evalPassAt1',
  'evalMajAtG',
] as const satisfies readonly (keyof MemberStepMetrics)[];
export type MemberMetric = (typeof MEMBER_METRICS)[number];

export const PAIR_METRICS = ['agreement', 'kappa', 'bothWrongSame', 'evalKappa', 'evalBothWrongSame'] as const satisfies readonly (keyof PairMetrics)[];
export type PairMetric = (typeof PAIR_METRICS)[number];

export type MemberSeries = Record<MemberMetric, Column>;

export interface PairSeries extends Record<PairMetric, Column> {
  a: string;
  b: string;
}

export interface ArmSeries {
  armId: string;
  scheme: ArmStepMetrics['scheme'];
  /** In the order the runner first reported them. */
  memberIds: string[];
  members: Record<string, MemberSeries>;
  pairs: PairSeries[];
  ensembleMajAtG: Column;
}

export interface RunSeries {
  /** RL step numbers, strictly increasing. */
  x: number[];
  arms: ArmSeries[];
}

export function emptySeries(): RunSeries {
  return { x: [], arms: [] };
}

/** Put `v` at index n-1 of `col`, padding any missing earlier entries with null. */
function put(col: Column, n: number, v: number | null | undefined): void {
  while (col.length < n - 1) col.push(null);
  if (col.length === n - 1) col.push(v == null || Number.isNaN(v) ? null : v);
}

function pad(col: Column, n: number): void {
  while (col.length < n) col.push(null);
}

function columns<K extends string>(keys: readonly K[]): Record<K, Column> {
  const out = {} as Record<K, Column>;
  for (const k of keys) out[k] = [];
  return out;
}

/**
 * An object keyed by ids that come from data (a member id in an event, possibly a classmate's):
 * without a prototype, so an id such as "constructor" or "toString" finds nothing inherited.
 */
export function byId<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function armFor(series: RunSeries, arm: ArmStepMetrics): ArmSeries {
  let s = series.arms.find((a) => a.armId === arm.armId);
  if (!s) {
    s = { armId: arm.armId, scheme: arm.scheme, memberIds: [], members: byId<MemberSeries>(), pairs: [], ensembleMajAtG: [] };
    series.arms.push(s);
  }
  return s;
}

/** Fold one step event into the columns (mutates `series`). Returns false for an out-of-order step. */
export function appendStep(series: RunSeries, ev: Extract<RunnerEvent, { type: 'step' }>): boolean {
  const last = series.x[series.x.length - 1];
  if (last !== undefined && ev.step <= last) return false;
  series.x.push(ev.step);
  const n = series.x.length;
  for (const arm of ev.arms) {
    const s = armFor(series, arm);
    for (const [memberId, metrics] of Object.entries(arm.members)) {
      let m = s.members[memberId];
      if (!m) {
        m = columns(MEMBER_METRICS);
        s.members[memberId] = m;
        s.memberIds.push(memberId);
      }
      for (const key of MEMBER_METRICS) put(m[key], n, metrics[key]);
    }
    for (const pair of arm.pairs) {
      let p = s.pairs.find((q) => q.a === pair.a && q.b === pair.b);
      if (!p) {
        p = { a: pair.a, b: pair.b, ...columns(PAIR_METRICS) };
        s.pairs.push(p);
      }
      for (const key of PAIR_METRICS) put(p[key], n, pair[key]);
    }
    put(s.ensembleMajAtG, n, arm.ensembleMajAtG);
  }
  // Arms, members or pairs missing from this event get a gap, so every column stays aligned with x.
  for (const s of series.arms) {
    for (const m of Object.values(s.members)) for (const key of MEMBER_METRICS) pad(m[key], n);
    for (const p of s.pairs) for (const key of PAIR_METRICS) pad(p[key], n);
    pad(s.ensembleMajAtG, n);
  }
  return true;
}

/** The last non-null value of a column, or null. */
export function lastValue(col: Column | undefined): number | null {
  if (!col) return null;
  for (let i = col.length - 1; i >= 0; i--) if (col[i] != null) return col[i];
  return null;
}

/** Number of non-null values in the given columns (what a chart reports as `data-points`). */
export function countPoints(cols: readonly Column[]): number {
  let n = 0;
  for (const c of cols) for (const v of c) if (v != null) n++;
  return n;
}

/** The latest kappa of a pair: held-out (evalKappa) if it was ever measured, else the training batch's. */
export function latestKappa(pair: PairSeries): { kappa: number | null; source: 'held-out' | 'batch' | null } {
  const held = lastValue(pair.evalKappa);
  if (held != null) return { kappa: held, source: 'held-out' };
  const batch = lastValue(pair.kappa);
  return batch != null ? { kappa: batch, source: 'batch' } : { kappa: null, source: null };
}

/** Per arm and member: the label-free reward, the oracle reward and the loss of one step. */
export interface StepRewards {
  step: number;
  arms: Record<string, Record<string, { reward: number | null; oracleReward: number | null; loss: number | null }>>;
}

/**
 * The last step's rewards, full precision: the page exposes them as JSON in a data attribute, so
 * a test can check that the same link on the same backend gives the same run.
 */
export function lastStepRewards(series: RunSeries): StepRewards | null {
  const n = series.x.length;
  if (n === 0) return null;
  const arms: StepRewards['arms'] = byId();
  for (const arm of series.arms) {
    arms[arm.armId] = byId();
    for (const id of arm.memberIds) {
      const m = arm.members[id];
      arms[arm.armId][id] = { reward: m.reward[n - 1], oracleReward: m.oracleReward[n - 1], loss: m.loss[n - 1] };
    }
  }
  return { step: series.x[n - 1], arms };
}
