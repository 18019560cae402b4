/**
 * The points of the panel "Does a more different partner teach more?" (OverlapPanel.tsx): one per
 * finished run and dial level, the partner's measured base kappa with the anchor against the
 * anchor's held-out gain next to it (core/experiment/overlapResult.ts), and the least-squares line
 * through them. Pure, so it is tested without a page.
 */
import type { RunSummary } from '../../core/experiment/events';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { overlapOfRun, slopeOf } from '../../core/experiment/overlapResult';

export interface OverlapDot {
  seed: number;
  arm: string;
  partner: string;
  sameFamily: boolean;
  kappa: number;
  gain: number;
}

/** A spec the panel reads: one with an overlap dial (the `overlap` preset or a variant of it). */
export function isOverlapSpec(spec: ExperimentSpec | null): spec is ExperimentSpec {
  return spec !== null && spec.members.some((m) => m.dial !== undefined);
}

/** The dots of finished runs, one per run (the first of a seed when a seed repeats) and level. */
export function overlapDots(runs: { spec: ExperimentSpec; summary: RunSummary }[]): OverlapDot[] {
  const seen = new Set<string>();
  const dots: OverlapDot[] = [];
  for (const { spec, summary } of runs) {
    const key = `${summary.seed}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const o = overlapOfRun(spec, summary);
    for (const l of o?.levels ?? []) {
      if (l.baseKappa === null || l.gainA === null) continue;
      dots.push({ seed: summary.seed, arm: l.arm, partner: l.partner, sameFamily: l.sameFamily, kappa: l.baseKappa, gain: l.gainA });
    }
  }
  return dots;
}

/** The least-squares line of gain on kappa through the same-family dots (null: fewer than 2 or no spread). */
export function fitLine(dots: readonly { kappa: number; gain: number; sameFamily?: boolean }[]): { slope: number; intercept: number } | null {
  const same = dots.filter((d) => d.sameFamily !== false);
  const slope = slopeOf(same.map((d) => d.kappa), same.map((d) => d.gain));
  if (slope === null) return null;
  const mx = same.reduce((s, d) => s + d.kappa, 0) / same.length;
  const my = same.reduce((s, d) => s + d.gain, 0) / same.length;
  return { slope, intercept: my - slope * mx };
}

/**
 * What RESULTS tests of the dose-response, read off the points: per seed with both, A's gain next
 * to the least overlapping partner (by design) minus next to the most; their mean and in how many
 * seeds it was above 0. Null: no seed has both. (The graded slope over the levels is not shown in
 * RESULTS, so the panel draws no line through the points.)
 */
export function endsContrast(dots: readonly Pick<OverlapDot, 'seed' | 'arm' | 'gain'>[], least: string, most: string): { seeds: number; mean: number; above: number } | null {
  const bySeed = new Map<number, { least?: number; most?: number }>();
  for (const d of dots) {
    if (d.arm !== least && d.arm !== most) continue;
    const e = bySeed.get(d.seed) ?? {};
    if (d.arm === least) e.least = d.gain;
    else e.most = d.gain;
    bySeed.set(d.seed, e);
  }
  const diffs = [...bySeed.values()].filter((e) => e.least !== undefined && e.most !== undefined).map((e) => e.least! - e.most!);
  if (diffs.length === 0) return null;
  return { seeds: diffs.length, mean: diffs.reduce((s, x) => s + x, 0) / diffs.length, above: diffs.filter((x) => x > 0).length };
}

/**
 * The two ends when no seed has both (a paired class room: each pair trains one level, with its
 * own seed): A's mean gain next to each end over the runs that have it. Different seeds, so the
 * seed-to-seed noise is in the difference; the panel says so and draws no conclusion. Null: an
 * end has no run.
 */
export function endsApart(dots: readonly Pick<OverlapDot, 'arm' | 'gain'>[], least: string, most: string): { least: { mean: number; runs: number }; most: { mean: number; runs: number } } | null {
  const of = (arm: string) => {
    const gains = dots.filter((d) => d.arm === arm).map((d) => d.gain);
    return gains.length === 0 ? null : { mean: gains.reduce((s, x) => s + x, 0) / gains.length, runs: gains.length };
  };
  const l = of(least);
  const m = of(most);
  return l && m ? { least: l, most: m } : null;
}
