/**
 * A reference run (src/share/reference.ts) as chart columns (store/series.ts): the seed means in
 * the layout a live run fills step by step, so the same chart code draws it, dashed behind the
 * live curves (a compare layer) or alone (the run the page shows, referenceRunState). Pure.
 */
import type { BaseEvaluation, BasePair } from '../../core/experiment/events';
import type { ReferenceFile, SeriesStat } from '../../share/reference';
import { REFERENCE_MEMBER_EVAL_METRICS, REFERENCE_MEMBER_METRICS, REFERENCE_PAIR_EVAL_METRICS, REFERENCE_PAIR_METRICS } from '../../share/reference';
import { initialRunState, type RunState } from '../store/runSlice';
import { type ArmSeries, byId, type Column, MEMBER_METRICS, type MemberSeries, PAIR_METRICS, type PairSeries, type RunSeries } from '../store/series';

const nulls = (n: number): Column => new Array<number | null>(n).fill(null);

/** The means of `stat` at the positions `at` of a column of length n (eval metrics sit at their steps). */
function placed(stat: SeriesStat | undefined, n: number, at: readonly number[]): Column {
  const col = nulls(n);
  if (stat) at.forEach((i, j) => (col[i] = stat.mean[j] ?? null));
  return col;
}

/**
 * The chart columns of a reference: x is its steps; per arm, member and pair the seed means of the
 * metrics it holds, at their steps (eval metrics at the evaluation steps), null elsewhere and for
 * every metric a reference does not hold (loss, KL, ...). New arrays each call: a layer's columns
 * are never shared with the live run's, which are mutated in place.
 */
export function referenceSeries(ref: ReferenceFile): RunSeries {
  const n = ref.steps.length;
  const every = ref.steps.map((_, i) => i);
  const index = new Map(ref.steps.map((s, i) => [s, i]));
  const evalAt = ref.evalSteps.map((s) => index.get(s) ?? -1).filter((i) => i >= 0);
  const arms: ArmSeries[] = ref.arms.map((arm) => {
    const members = byId<MemberSeries>();
    for (const m of arm.members) {
      const cols = {} as MemberSeries;
      for (const k of MEMBER_METRICS) cols[k] = nulls(n);
      for (const k of REFERENCE_MEMBER_METRICS) cols[k] = placed(m[k], n, every);
      for (const k of REFERENCE_MEMBER_EVAL_METRICS) cols[k] = placed(m[k], n, evalAt);
      members[m.id] = cols;
    }
    const pairs: PairSeries[] = arm.pairs.map((p) => {
      const cols = { a: p.a, b: p.b } as PairSeries;
      for (const k of PAIR_METRICS) cols[k] = nulls(n);
      for (const k of REFERENCE_PAIR_METRICS) cols[k] = placed(p[k], n, every);
      for (const k of REFERENCE_PAIR_EVAL_METRICS) cols[k] = placed(p[k], n, evalAt);
      return cols;
    });
    return { armId: arm.id, scheme: arm.scheme, memberIds: arm.members.map((m) => m.id), members, pairs, ensembleMajAtG: placed(arm.ensembleMajAtG, n, evalAt) };
  });
  return { x: [...ref.steps], arms };
}

/** The base (warm-started) evaluations as the seed means: members without a mean are left out. */
export function referenceBase(ref: ReferenceFile): { base: BaseEvaluation[]; baseKappa: BasePair[] } {
  const base = ref.base.members.filter((m) => m.passAt1.mean != null && m.majAtG.mean != null).map((m) => ({ memberId: m.id, passAt1: m.passAt1.mean!, majAtG: m.majAtG.mean! }));
  const baseKappa = ref.base.pairs
    .filter((p) => p.bothWrongSame.mean != null)
    .map((p): BasePair => ({ a: p.a, b: p.b, kappa: p.kappa.mean, bothWrongSame: p.bothWrongSame.mean!, ...(p.pooledMajAtG.mean != null ? { pooledMajAtG: p.pooledMajAtG.mean } : {}) }));
  return { base, baseKappa };
}

/**
 * The run state that shows a reference alone, as the page's run (never trained: phase idle, no
 * step received, nothing to export or resume). `runId` must be no worker's (negative).
 */
export function referenceRunState(ref: ReferenceFile, runId: number): RunState {
  const { base, baseKappa } = referenceBase(ref);
  return { ...initialRunState(), runId, spec: structuredClone(ref.spec), steps: ref.spec.steps, series: referenceSeries(ref), base, baseKappa, version: 1 };
}
