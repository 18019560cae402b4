/**
 * How much two members' errors overlap, measured finely enough to tell the dial's levels apart
 * (docs/METHOD.md, "Overlap dial"). The runner's base kappa reads one plurality per problem on
 * 100 held-out problems: a twin measured anywhere from 0.11 to 0.51 on it. The one-sample kappa
 * here pools every sample pair instead: sample j of one member against sample j of the other,
 * for all G samples of every problem (G times the judgements; samples are independent given the
 * problem, so it estimates the kappa of one sample each).
 */
import type { Evaluation } from '../evaluate';
import { checkAnswer } from '../tasks/extract';
import { bothWrongSameAnswer, cohenKappa, passRateCorrelation } from '../metrics/overlap';

export interface DialOverlap {
  /** Cohen's kappa of plurality correctness (as the runner's base pair measures). */
  kappa: number;
  /** Cohen's kappa of one-sample correctness, over every (problem, sample j) pair. */
  sampleKappa: number;
  /** The share of problems both pluralities get wrong with the same answer. */
  bothWrongSame: number;
  /** Pearson correlation of the per-problem pass rates. */
  passCorrelation: number;
}

type Scored = Pick<Evaluation, 'answers' | 'plurality' | 'majCorrect' | 'sampleAccuracy'>;

export function dialOverlap(a: Scored, b: Scored, truths: readonly string[]): DialOverlap {
  const ca: boolean[] = [];
  const cb: boolean[] = [];
  a.answers.forEach((group, i) => {
    const other = b.answers[i];
    const n = Math.min(group.length, other.length);
    for (let j = 0; j < n; j++) {
      ca.push(checkAnswer(group[j], truths[i]));
      cb.push(checkAnswer(other[j], truths[i]));
    }
  });
  return {
    kappa: cohenKappa(a.majCorrect, b.majCorrect),
    sampleKappa: cohenKappa(ca, cb),
    bothWrongSame: bothWrongSameAnswer(a.plurality, b.plurality, truths),
    passCorrelation: passRateCorrelation(a.sampleAccuracy, b.sampleAccuracy),
  };
}
