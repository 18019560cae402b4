/**
 * Task accuracy on the held-out evaluation set: pass@1, maj@G and the compute-matched ensemble
 * control (docs/METHOD.md "Controls": two members pooled by maj@G).
 *
 * maj@G uses the same plurality vote as training (rewards/vote.ts, tau = 0), so a tie is broken by
 * the seeded stream `rng.child('prompt' + b)`: the metric is reproducible for a given seed.
 */
import type { Rng } from '../random';
import { type Answer, pluralityVotes, poolBallots } from '../rewards/vote';

/** pass@1 estimated from samples: the fraction of sampled answers that are correct. NaN if empty. */
export function passAt1(correct: readonly boolean[]): number {
  if (correct.length === 0) return NaN;
  return correct.filter(Boolean).length / correct.length;
}

function checkSamples(answers: readonly Answer[], truths: readonly string[], G: number, what: string): void {
  if (answers.length !== truths.length * G) {
    throw new RangeError(`${what}: ${answers.length} answers for ${truths.length} prompts x G = ${G}`);
  }
}

/** maj@G: the fraction of prompts whose plurality over G samples (prompt-major) equals the truth. A prompt with no parseable sample counts as wrong. */
export function majAtG(answers: readonly Answer[], truths: readonly string[], G: number, rng: Rng): number {
  checkSamples(answers, truths, G, 'majAtG');
  if (truths.length === 0) return NaN;
  const votes = pluralityVotes(answers, truths.length, rng, 0);
  return votes.filter((v, b) => v.label === truths[b]).length / truths.length;
}

/**
 * Compute-matched ensemble control: pool both members' G samples per prompt (2G votes), take the
 * plurality, and score it against the truth. Compare two independently self-trained members pooled
 * this way with the peer-trained pair pooled the same way.
 */
export function ensembleMajAtG(
  answersA: readonly Answer[],
  answersB: readonly Answer[],
  truths: readonly string[],
  G: number,
  rng: Rng,
): number {
  checkSamples(answersA, truths, G, 'ensembleMajAtG A');
  checkSamples(answersB, truths, G, 'ensembleMajAtG B');
  if (truths.length === 0) return NaN;
  return majAtG(poolBallots([answersA, answersB], truths.length), truths, 2 * G, rng);
}
