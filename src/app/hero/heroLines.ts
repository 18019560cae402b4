/**
 * The hero view's lines: per label-free arm, its reward and its held-out pass@1, each
 * the mean over the arm's members, with the oracle arm's held-out pass@1 as the ceiling. The
 * "scissors" of a collapse is the reward rising while the pass@1 under it falls. Pure: the same
 * definition draws the live run, the reference run (dashed, as a compare layer) and every seed.
 */
import type { ChartLinesWithBands } from '../charts/chartModel';
import { REFERENCE_COLOR, type Styles, TRUTH_COLOR } from '../charts/seriesDefs';
import type { ArmSeries, Column, MemberMetric, RunSeries } from '../store/series';

/** Self-rewarding schemes first (they collapse), then the peer-like ones, then the rest. */
const ORDER: Record<string, number> = { self: 0, 'self-soft': 1, peer: 2, ring: 3, cohort: 4, teacher: 5, entropy: 6, certainty: 7 };

/** At most this many hero charts: three fit side by side on a laptop. */
export const MAX_HERO_ARMS = 3;

export interface HeroArm {
  id: string;
  scheme: string;
}

/**
 * The arms the hero view draws (never the oracle: it is every chart's ceiling), in reading order,
 * at most `limit` of them (the lab's page: MAX_HERO_ARMS; its key names the rest, heroLeftOut).
 */
export function heroArms(arms: readonly HeroArm[], limit = MAX_HERO_ARMS): HeroArm[] {
  return arms
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => a.scheme !== 'oracle')
    .sort((p, q) => (ORDER[p.a.scheme] ?? 9) - (ORDER[q.a.scheme] ?? 9) || p.i - q.i)
    .slice(0, limit)
    .map(({ a }) => a);
}

/** The label-free arms of `arms` that the hero view leaves out (beyond MAX_HERO_ARMS), in reading order. */
export function heroLeftOut(arms: readonly HeroArm[]): HeroArm[] {
  return heroArms(arms, Infinity).slice(MAX_HERO_ARMS);
}

/**
 * The class view's arms (the projector): every arm of the room's experiment that at least one of
 * the class's runs trained, none left out (a run may train some arms only: a pair's run is its
 * peer arm), and the oracle among them as the ceiling. Before any run has results: the room's arms.
 */
export function classHeroArms(roomArms: readonly HeroArm[], runArms: readonly (readonly HeroArm[])[]): { arms: HeroArm[]; ceiling: string | null } {
  const trained = new Set(runArms.flatMap((arms) => arms.map((a) => a.id)));
  const shown = runArms.length ? roomArms.filter((a) => trained.has(a.id)) : roomArms;
  return { arms: heroArms(shown, Infinity), ceiling: ceilingArm(shown) };
}

/** The class view's grid: at most four charts side by side, as many rows as that takes, the rows as even as they go. */
export function heroGrid(charts: number): { cols: number; rows: number } {
  const rows = Math.max(1, Math.ceil(charts / 4));
  return { cols: Math.max(1, Math.ceil(charts / rows)), rows };
}

/** The first oracle arm, whose held-out pass@1 is the ceiling line (null: none in this experiment). */
export function ceilingArm(arms: readonly HeroArm[]): string | null {
  return arms.find((a) => a.scheme === 'oracle')?.id ?? null;
}

/** Per step, the mean of the values present (null where no member has one). */
export function meanColumn(cols: readonly Column[]): Column {
  const n = Math.max(0, ...cols.map((c) => c.length));
  const out: Column = [];
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let k = 0;
    for (const c of cols) {
      const v = c[i];
      if (v != null && Number.isFinite(v)) {
        sum += v;
        k += 1;
      }
    }
    out.push(k ? sum / k : null);
  }
  return out;
}

function armMean(arm: ArmSeries, metric: MemberMetric): Column {
  return meanColumn(arm.memberIds.map((id) => arm.members[id][metric]));
}

export const HERO_LABELS = {
  reward: 'label-free reward',
  pass: 'held-out pass@1',
  ceiling: 'oracle arm: held-out pass@1 (ceiling)',
} as const;

/** One hero chart: the arm's reward and held-out pass@1, and the oracle's pass@1 as the ceiling. */
export function heroLines(run: RunSeries, armId: string, oracleId: string | null, styles: Styles): ChartLinesWithBands {
  const out: ChartLinesWithBands = { series: [], ys: [] };
  const arm = run.arms.find((a) => a.armId === armId);
  const oracle = oracleId ? run.arms.find((a) => a.armId === oracleId) : undefined;
  if (oracle) {
    out.series.push({ label: HERO_LABELS.ceiling, color: styles.arm[oracle.armId] ?? REFERENCE_COLOR, width: 2, spanGaps: true, kind: 'ceiling' });
    out.ys.push(armMean(oracle, 'evalPassAt1'));
  }
  if (!arm) return out;
  out.series.push({ label: HERO_LABELS.reward, color: styles.arm[armId] ?? REFERENCE_COLOR, width: 3, kind: 'reward', armId });
  out.ys.push(armMean(arm, 'reward'));
  out.series.push({ label: HERO_LABELS.pass, color: TRUTH_COLOR, width: 3, points: true, spanGaps: true, kind: 'held-out pass@1' });
  out.ys.push(armMean(arm, 'evalPassAt1'));
  return out;
}
