/**
 * The overlap preset's two primary claims (docs/PREREG-overlap.md), read on its runs as
 * `npm run science -- --overlap overlap` reads them and cli/science/science-overlap.ts prints them:
 *   slope  the gain falls steadily with overlap: minus the per-seed least-squares slope of the
 *          anchor's held-out gain on the partner's base kappa, over the same-family levels (P1);
 *   ends   a more different partner teaches more: the anchor's gain next to the least overlapping
 *          same-family partner minus next to the most overlapping one (P2).
 * Positive is the papers' direction. The two form one Holm family. Pure functions over per-seed
 * numbers, so the same reading runs on result files (overlapOfRun) and on the panel's generated
 * reference points (src/app/panels/overlapReference.ts), which is how the docs are checked.
 */
import { overlapOfRun, slopeOf, type OverlapSeed } from '../../src/core/experiment/overlapResult';
import type { RunSummary } from '../../src/core/experiment/events';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { paired } from './science-paired';
import type { ClaimResult } from './science-claims';

/** What the two claims read of one seed. */
export type OverlapReading = Pick<OverlapSeed, 'seed' | 'slope' | 'leastMinusMost'>;

/** One point of a seed: a level's partner, its base kappa with the anchor and the anchor's gain next to it. */
export interface OverlapLevelPoint {
  seed: number;
  arm: string;
  sameFamily: boolean;
  kappa: number;
  gain: number;
}

export const OVERLAP_CLAIM_IDS = ['slope', 'ends'] as const;
export type OverlapClaimId = (typeof OVERLAP_CLAIM_IDS)[number];

const sign = (x: number | null) => (x === null || !Number.isFinite(x) ? '-' : `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`);

/** The readings of the runs of an overlap spec (a run without peer arms of the anchor is left out). */
export function overlapReadings(spec: ExperimentSpec, runs: readonly RunSummary[]): OverlapReading[] {
  return runs.map((r) => overlapOfRun(spec, r)).filter((o): o is OverlapSeed => o !== null);
}

/** The readings from per-level points (the same-family levels in the dial's order, least overlapping first). */
export function readingsFromPoints(points: readonly OverlapLevelPoint[]): OverlapReading[] {
  const seeds = [...new Set(points.map((p) => p.seed))].sort((a, b) => a - b);
  return seeds.map((seed) => {
    const same = points.filter((p) => p.seed === seed && p.sameFamily);
    return {
      seed,
      slope: slopeOf(same.map((p) => p.kappa), same.map((p) => p.gain)),
      leastMinusMost: same.length >= 2 ? same[0].gain - same[same.length - 1].gain : null,
    };
  });
}

/** One claim over the seeds' readings. */
export function overlapClaim(id: OverlapClaimId, seeds: readonly OverlapReading[]): ClaimResult {
  const lines = (d: (number | null)[]) => seeds.map((o, i) => `seed ${o.seed}: ${sign(d[i])}`);
  if (id === 'slope') {
    const d = seeds.map((o) => (o.slope === null ? null : -o.slope));
    const stats = paired(d.map((x) => x ?? NaN));
    return {
      id,
      title: "the gain falls steadily with overlap: A's held-out gain drops as its partner's base kappa rises, over the five same-family partners",
      measure: "minus the slope of A's gain on the partner's base kappa",
      stats,
      verdict: stats.verdict,
      lines: lines(d),
    };
  }
  const d = seeds.map((o) => o.leastMinusMost);
  const stats = paired(d.map((x) => x ?? NaN));
  return {
    id,
    title: "a more different partner teaches more: A gains more next to its least overlapping partner than next to its most",
    measure: "A's gain next to the least minus the most overlapping partner, pass@1",
    stats,
    verdict: stats.verdict,
    lines: lines(d),
  };
}
