/**
 * The overlap preset's numbers per seed (docs/PREREG-overlap.md): for each peer arm of the anchor
 * (one per dial level, plus the partner of another shape), the partner's measured base overlap
 * with the anchor and the anchor's held-out gain in that arm; the anchor's gain alone (self) and
 * on the labels (oracle); and how the pair's overlap and the anchor's rescue rate moved during RL.
 * The CLI writes it into the result file (`overlap`), `npm run science` reads it, and the page's
 * panel draws the points. Plain data in and out.
 *
 * The anchor is the spec's first member; a level is a peer arm of the anchor and one partner.
 * Same-family levels have the anchor's shape (family, width, layers, window), in spec order (the
 * dial's order, least overlapping by design first); the others are cross-family partners.
 */
import type { MemberHistoryEntry, RunSummary } from './events';
import type { ExperimentSpec, MemberSpec } from './spec';

export interface OverlapPoint {
  step: number;
  /** The pair's held-out kappa and both-wrong-same share at this evaluation. */
  kappa: number | null;
  bothWrongSame: number | null;
  /** The anchor's mean rescue rate over the steps since the previous evaluation. */
  rescue: number | null;
}

export interface OverlapLevel {
  arm: string;
  partner: string;
  /** 'dial' mode and share, 'twin' (the anchor's weights), or 'own' (its own seeds). */
  kind: string;
  sameFamily: boolean;
  /** The pair's base measures (runner: 100 held-out problems, G samples each). */
  baseKappa: number | null;
  baseBothWrongSame: number | null;
  basePassCorrelation: number | null;
  /** The anchor's held-out pass@1 at the end minus at the base, in this arm. */
  gainA: number | null;
  /** The partner's held-out pass@1 at the base, and its own gain in the arm. */
  partnerStart: number | null;
  partnerGain: number | null;
  /** Over the run: the accuracy of the partner's votes as the anchor's labels, and its rescue rate. */
  pseudoLabelAccuracy: number | null;
  rescueRate: number | null;
  overRun: OverlapPoint[];
}

export interface OverlapSeed {
  seed: number;
  anchor: string;
  startA: number | null;
  selfGain: number | null;
  oracleGain: number | null;
  levels: OverlapLevel[];
  /** Least-squares slope of gainA on baseKappa over the same-family levels (null: fewer than 2 points, or no spread). */
  slope: number | null;
  /** gainA of the first same-family level minus the last (least minus most overlapping by design). */
  leastMinusMost: number | null;
}

const mean = (xs: (number | null | undefined)[]): number | null => {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
};

const shape = (m: MemberSpec) => `${m.family}/${m.dModel}/${m.layers}/${m.window}`;

/** Least-squares slope of y on x over the finite pairs; null without two points or spread in x. */
export function slopeOf(xs: (number | null)[], ys: (number | null)[]): number | null {
  const pts = xs.map((x, i) => [x, ys[i]] as const).filter((p): p is readonly [number, number] => p[0] !== null && p[1] !== null && Number.isFinite(p[0]) && Number.isFinite(p[1]));
  if (pts.length < 2) return null;
  const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
  const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return sxx === 0 ? null : pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx;
}

function endGain(history: MemberHistoryEntry[], start: number | null): number | null {
  const evals = history.filter((e) => e.evalPassAt1 !== undefined);
  return start === null || !evals.length ? null : evals[evals.length - 1].evalPassAt1! - start;
}

function kindOf(m: MemberSpec, anchor: MemberSpec): string {
  if (m.dial) return `${m.dial.mode} ${m.dial.share}`;
  return m.initSeed === anchor.initSeed && m.dataSeed === anchor.dataSeed && shape(m) === shape(anchor) ? 'twin' : 'own';
}

/** The overlap numbers of one run of `spec`; null when the spec has no peer arm of its first member. */
export function overlapOfRun(spec: ExperimentSpec, run: RunSummary): OverlapSeed | null {
  const anchor = spec.members[0];
  const byId = new Map(spec.members.map((m) => [m.id, m]));
  const startOf = (id: string) => run.base.find((b) => b.memberId === id)?.passAt1 ?? null;
  const startA = startOf(anchor.id);
  const armGain = (scheme: string) => {
    const arm = run.arms.find((a) => a.scheme === scheme && a.members.some((m) => m.id === anchor.id));
    const m = arm?.members.find((x) => x.id === anchor.id);
    return m ? endGain(m.history, startA) : null;
  };
  const levels: OverlapLevel[] = [];
  for (const arm of run.arms) {
    if (arm.scheme !== 'peer' || arm.members.length !== 2 || !arm.members.some((m) => m.id === anchor.id)) continue;
    const a = arm.members.find((m) => m.id === anchor.id)!;
    const p = arm.members.find((m) => m.id !== anchor.id)!;
    const partner = byId.get(p.id)!;
    const base = run.baseKappa.find((k) => (k.a === anchor.id && k.b === p.id) || (k.a === p.id && k.b === anchor.id));
    const overRun: OverlapPoint[] = [];
    let since = 0;
    for (const e of arm.pairs.filter((x) => x.evalKappa !== undefined)) {
      overRun.push({
        step: e.step,
        kappa: e.evalKappa ?? null,
        bothWrongSame: e.evalBothWrongSame ?? null,
        rescue: mean(a.history.filter((h) => h.step > since && h.step <= e.step).map((h) => h.rescueRate)),
      });
      since = e.step;
    }
    levels.push({
      arm: arm.id,
      partner: p.id,
      kind: kindOf(partner, anchor),
      sameFamily: shape(partner) === shape(anchor),
      baseKappa: base?.kappa ?? null,
      baseBothWrongSame: base?.bothWrongSame ?? null,
      basePassCorrelation: base?.passCorrelation ?? null,
      gainA: endGain(a.history, startA),
      partnerStart: startOf(p.id),
      partnerGain: endGain(p.history, startOf(p.id)),
      pseudoLabelAccuracy: mean(a.history.map((h) => h.pseudoLabelAccuracy)),
      rescueRate: mean(a.history.map((h) => h.rescueRate)),
      overRun,
    });
  }
  if (!levels.length) return null;
  const same = levels.filter((l) => l.sameFamily);
  const least = same[0]?.gainA ?? null;
  const most = same.length >= 2 ? same[same.length - 1].gainA : null;
  return {
    seed: run.seed,
    anchor: anchor.id,
    startA,
    selfGain: armGain('self'),
    oracleGain: armGain('oracle'),
    levels,
    slope: slopeOf(same.map((l) => l.baseKappa), same.map((l) => l.gainA)),
    leastMinusMost: least !== null && most !== null ? least - most : null,
  };
}
