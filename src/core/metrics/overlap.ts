/**
 * Error overlap between two models (docs/METHOD.md; Co-RL arXiv 2608.17253 reports Cohen's kappa of
 * per-prompt correctness: 0.31-0.42 across families vs >= 0.51 within one family). Low overlap is
 * the diversity that lets peer rewards beat self rewards.
 */
import type { Answer } from '../rewards/vote';

/**
 * Cohen's kappa of two raters' binary judgements (here: is model A right on prompt b, is model B):
 *   p_o = (n11 + n00) / n,  p_e = pA pB + (1 - pA)(1 - pB),  kappa = (p_o - p_e) / (1 - p_e)
 * with pA, pB the fractions judged true. 1 = identical, 0 = chance-level agreement, < 0 = less
 * than chance. When p_e = 1 (both raters constant and equal, e.g. both always right) kappa is 0/0:
 * we return NaN, as scikit-learn's cohen_kappa_score does by default. NaN also for empty input.
 */
export function cohenKappa(correctA: readonly boolean[], correctB: readonly boolean[]): number {
  if (correctA.length !== correctB.length) throw new RangeError('cohenKappa: lengths differ');
  const n = correctA.length;
  if (n === 0) return NaN;
  let agree = 0;
  let a1 = 0;
  let b1 = 0;
  for (let i = 0; i < n; i++) {
    if (correctA[i] === correctB[i]) agree++;
    if (correctA[i]) a1++;
    if (correctB[i]) b1++;
  }
  const po = agree / n;
  const pA = a1 / n;
  const pB = b1 / n;
  const pe = pA * pB + (1 - pA) * (1 - pB);
  if (pe === 1) return NaN;
  return (po - pe) / (1 - pe);
}

/**
 * The fraction of prompts on which both models are wrong with the same (parseable) answer: the
 * shared systematic errors a peer cannot correct. One answer per model per prompt (e.g. each model's
 * plurality label or greedy answer); two malformed answers are not "the same answer".
 */
export function bothWrongSameAnswer(
  answersA: readonly Answer[],
  answersB: readonly Answer[],
  truths: readonly string[],
): number {
  if (answersA.length !== truths.length || answersB.length !== truths.length) {
    throw new RangeError('bothWrongSameAnswer: one answer per model per prompt');
  }
  if (truths.length === 0) return NaN;
  let n = 0;
  truths.forEach((t, b) => {
    const a = answersA[b];
    if (a !== null && a === answersB[b] && a !== t) n++;
  });
  return n / truths.length;
}

/**
 * Error overlap from per-problem correctness probabilities: the Pearson correlation, over problems,
 * of two models' sample accuracies (the fraction of their G samples that are right). Kappa reads one
 * plurality per problem, a coin flip near 50%; the sample accuracies use every sample, so the
 * overlap of two models can be told apart on fewer problems. NaN when either is constant.
 */
export function passRateCorrelation(rateA: readonly number[], rateB: readonly number[]): number {
  if (rateA.length !== rateB.length) throw new RangeError(`passRateCorrelation: lengths ${rateA.length} and ${rateB.length} differ`);
  const n = rateA.length;
  if (n < 2) return NaN;
  const ma = rateA.reduce((s, x) => s + x, 0) / n;
  const mb = rateB.reduce((s, x) => s + x, 0) / n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const a = rateA[i] - ma;
    const b = rateB[i] - mb;
    sab += a * b;
    saa += a * a;
    sbb += b * b;
  }
  return saa === 0 || sbb === 0 ? NaN : sab / Math.sqrt(saa * sbb);
}
