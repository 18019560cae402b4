/**
 * Paired statistics for the science claims and the page's verdicts (docs/RESULTS.md, "How the verdicts are read"). Every
 * claim compares two things measured on the same seed (two arms trained from the same warm-started
 * weights on the same prompts, or one arm at its start and end), so the unit of evidence is the
 * per-seed difference d_s. Over n seeds:
 *   mean d, standard error sd(d)/sqrt(n), and the 95% Student-t interval mean ± t(n-1) se;
 *   per seed a win (d >= +TIE), a tie (|d| < TIE) or a loss (d <= -TIE), TIE = 0.005, half the
 *   0.01 the tables print: two numbers that print the same are a tie.
 * Verdict: "shown" when the interval lies above 0, "contradicted" when it lies below 0, otherwise
 * "not shown" (the difference is inside its noise). One held-out evaluation of 100 problems has a
 * standard error of about 0.03 on its own, which is why single seeds are never a verdict.
 *
 * Multiplicity: a preset's claims are read together, so each claim also gets the
 * two-sided p-value of the same paired t-test (t = mean / se, n - 1 degrees of freedom), and the
 * claims of one preset and block of seeds get Holm-Bonferroni adjusted p-values and a Holm verdict
 * (holmAdjust, holmVerdicts): the chance that any claim of the family is called shown or
 * contradicted by noise alone stays at most 5%.
 */

import { median } from '../median';

export const TIE = 0.005;

export type Verdict = 'shown' | 'not shown' | 'contradicted';

export interface Paired {
  n: number;
  mean: number;
  /** Standard error of the mean (NaN for n < 2). */
  se: number;
  /** 95% interval of the mean difference. */
  lo: number;
  hi: number;
  wins: number;
  ties: number;
  losses: number;
  verdict: Verdict;
  /** Two-sided p-value of the paired t-test of mean 0 (NaN for n < 2). */
  p: number;
}

/** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(df: number): number {
  if (df < 1) return NaN;
  return df <= T975.length ? T975[df - 1] : 1.96;
}

/** The paired statistics of per-seed differences (non-finite entries are dropped). */
export function paired(differences: readonly number[]): Paired {
  const d = differences.filter((x) => Number.isFinite(x));
  const n = d.length;
  const mean = n ? d.reduce((s, x) => s + x, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : NaN;
  const se = n > 1 ? sd / Math.sqrt(n) : NaN;
  const half = tQuantile975(n - 1) * se;
  const lo = mean - half;
  const hi = mean + half;
  const verdict: Verdict = !(n > 1) || Number.isNaN(half) ? 'not shown' : lo > 0 ? 'shown' : hi < 0 ? 'contradicted' : 'not shown';
  return {
    n,
    mean,
    se,
    lo,
    hi,
    wins: d.filter((x) => x >= TIE).length,
    ties: d.filter((x) => Math.abs(x) < TIE).length,
    losses: d.filter((x) => x <= -TIE).length,
    verdict,
    p: n > 1 ? (se === 0 ? (mean === 0 ? 1 : 0) : twoSidedP(mean / se, n - 1)) : NaN,
  };
}

/** ln Gamma(x), x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const y = x - 1;
  let a = c[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes' betacf). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(|T| >= |t|) for Student's t with df degrees of freedom: I_{df / (df + t^2)}(df / 2, 1 / 2). */
export function twoSidedP(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * Holm-Bonferroni adjusted p-values, in the order given (Holm 1979): sort the m p-values up, the
 * k-th smallest (k = 1..m) becomes min(1, max over j <= k of (m - j + 1) p_(j)). A claim whose
 * adjusted p is below alpha is rejected at family-wise level alpha; the same as comparing p_(k)
 * with alpha / (m - k + 1) and stopping at the first that fails. NaN counts as 1 (no evidence).
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [Number.isNaN(p) ? 1 : p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}

/** The family-wise level of the Holm verdicts (the per-claim intervals are 95%: the same 5%). */
export const FAMILY_ALPHA = 0.05;

export interface HolmVerdict {
  /** Holm-adjusted p-value within the family. */
  pAdjusted: number;
  verdict: Verdict;
}

/**
 * Holm verdicts of a family of claims: "shown" where the adjusted p is below 5% and the mean is
 * above 0, "contradicted" where it is below 5% and the mean is below 0, else "not shown". A family
 * of one is the per-claim test (up to the third decimal of the t table the interval uses).
 */
export function holmVerdicts(family: readonly Paired[]): HolmVerdict[] {
  const adjusted = holmAdjust(family.map((s) => s.p));
  return family.map((s, i) => {
    const significant = adjusted[i] < FAMILY_ALPHA;
    return { pAdjusted: adjusted[i], verdict: significant && s.mean > 0 ? 'shown' : significant && s.mean < 0 ? 'contradicted' : 'not shown' };
  });
}

/** A p-value in two significant digits: "0.50", "0.031", "0.0012", "< 0.0001", "1.0". */
export function fmtP(p: number): string {
  if (!Number.isFinite(p)) return '-';
  if (p < 1e-4) return '< 0.0001';
  if (p >= 0.995) return '1.0';
  return p.toPrecision(2);
}

/** +0.12 / −0.12; a value that rounds to zero prints +0.00, never −0.00. */
const signed = (x: number) => (Number.isFinite(x) ? `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '-');

/** "+0.12 [95% CI +0.05, +0.19], 7 wins, 1 tie, 0 losses of 8 seeds". */
export function describePaired(p: Paired): string {
  const plural = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : w.endsWith('s') ? 'es' : 's'}`;
  return `${signed(p.mean)} [95% CI ${signed(p.lo)}, ${signed(p.hi)}], ${plural(p.wins, 'win')}, ${plural(p.ties, 'tie')}, ${plural(p.losses, 'loss')} of ${p.n} seeds`;
}

/** A change (end − start) in words: "rises" / "falls" where its interval excludes 0, else "no change shown". */
export function changeWord(p: Paired): string {
  return p.verdict === 'shown' ? 'rises' : p.verdict === 'contradicted' ? 'falls' : 'no change shown';
}

/**
 * The link's seed (docs/RESULTS.md, "The link's seed"): of a block of seeds, the one whose
 * headline difference is nearest the block's median (ties to the lower seed), so the run a
 * student opens first is a typical one, chosen by a rule and not by the outcome hoped for.
 */
export function nearestMedianSeed(perSeed: readonly { seed: number; d: number }[]): number {
  if (perSeed.length === 0) throw new Error('nearestMedianSeed: no seeds');
  const m = median(perSeed.map((x) => x.d));
  return [...perSeed].sort((x, y) => Math.abs(x.d - m) - Math.abs(y.d - m) || x.seed - y.seed)[0].seed;
}
