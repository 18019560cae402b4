/**
 * The science claims of one seed, as paired differences of held-out pass@1 (pure, no tfjs): the
 * CLI reads them over many seeds with intervals (cli/science/science-claims.ts), the lab counts in how
 * many seeds each one held ("Run N seeds"). Arm values are means over the arm's members; an arm's
 * start is its members' base (warm-started) evaluation, its end their last held-out evaluation.
 *
 *   a       self collapses: self start − self end
 *   b       peer ends above self: peer end − self end
 *   learns  peer ends above its start: peer end − peer start
 *   oracle  oracle ends above peer: oracle end − peer end
 *
 * A claim holds in a seed when its difference is at least CLAIM_TIE: a tie (|difference| below
 * it) or a negative difference counts as not held.
 */
import type { RunSummary } from './events';

/** Differences smaller than this are ties: the claim did not hold. */
export const CLAIM_TIE = 0.005;

export type SeedClaimId = 'a' | 'b' | 'learns' | 'oracle';

export interface SeedClaimDef {
  id: SeedClaimId;
  /** The arms (by id) it needs. */
  arms: readonly string[];
  /** What held, in a few words: "self fell (end pass@1 below start)". */
  text: string;
  /** The difference that decides it. */
  measure: string;
}

export const SEED_CLAIMS: readonly SeedClaimDef[] = [
  { id: 'a', arms: ['self'], text: 'self fell (end pass@1 below start)', measure: 'self start − self end' },
  { id: 'b', arms: ['peer', 'self'], text: 'peer ended above self', measure: 'peer end − self end' },
  { id: 'learns', arms: ['peer'], text: 'peer ended above its start', measure: 'peer end − peer start' },
  { id: 'oracle', arms: ['oracle', 'peer'], text: 'oracle ended above peer', measure: 'oracle end − peer end' },
];

const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/**
 * Held-out pass@1 of an arm at the start and the end, means over its members (NaN where a member
 * has no base evaluation; the end is the base when the member was never evaluated after it).
 * Null when the run has no such arm.
 */
export function armPassAt1(run: RunSummary, armId: string): { start: number; end: number } | null {
  const arm = run.arms.find((a) => a.id === armId);
  if (!arm) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of arm.members) {
    const base = run.base.find((b) => b.memberId === m.id)?.passAt1 ?? NaN;
    let end = base;
    for (const e of m.history) if (e.evalPassAt1 !== undefined) end = e.evalPassAt1;
    starts.push(base);
    ends.push(end);
  }
  return { start: avg(starts), end: avg(ends) };
}

/** One seed's difference for a claim; NaN when the run lacks one of its arms. */
export function seedDifference(run: RunSummary, id: SeedClaimId): number {
  const p = (armId: string) => armPassAt1(run, armId) ?? { start: NaN, end: NaN };
  switch (id) {
    case 'a':
      return p('self').start - p('self').end;
    case 'b':
      return p('peer').end - p('self').end;
    case 'learns':
      return p('peer').end - p('peer').start;
    case 'oracle':
      return p('oracle').end - p('peer').end;
  }
}

/** Whether a difference says the claim held: at least CLAIM_TIE (ties and NaN do not). */
export function claimHeld(diff: number): boolean {
  return Number.isFinite(diff) && diff >= CLAIM_TIE;
}

export interface SeedClaimCount extends SeedClaimDef {
  /** Per seed, in the order given. */
  diffs: number[];
  held: number;
  of: number;
}

/** The claims whose arms every run has, each with its per-seed differences and how many held. */
export function countSeedClaims(runs: readonly RunSummary[]): SeedClaimCount[] {
  if (runs.length === 0) return [];
  const present = (armId: string) => runs.every((r) => r.arms.some((a) => a.id === armId));
  return SEED_CLAIMS.filter((c) => c.arms.every(present)).map((c) => {
    const diffs = runs.map((r) => seedDifference(r, c.id));
    return { ...c, diffs, held: diffs.filter(claimHeld).length, of: runs.length };
  });
}
