/**
 * Paired statistics for the science claims (docs/RESULTS.md, "How the verdicts are read"). Every
 * claim compares two things measured on the same seed (two arms trained from the same warm-started
 * weights on the same prompts, or one arm at its start and end), so the unit of evidence is the
 * per-seed difference d_s. Over n seeds:
 *   mean d, standard error sd(d)/sqrt(n), and the 95% Student-t interval mean ± t(n-1) se;
 *   per seed a win (d >= +TIE), a tie (|d| < TIE) or a loss (d <= -TIE), TIE = 0.005, half the
 *   0.01 the tables print: two numbers that print the same are a tie.
 * Verdict: "shown" when the interval lies above 0, "contradicted" when it lies below 0, otherwise
 * "not shown" (the difference is inside its noise). One held-out evaluation of 100 problems has a
 * standard error of about 0.03 on its own, which is why single seeds are never a verdict.
 */

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
  };
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
