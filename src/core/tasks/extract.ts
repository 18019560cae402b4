/**
 * From sampled tokens to a vote. A completion is read as `scratchpad > answer EOS`; the answer is
 * the text after the LAST '>', so a model that restarts its working still has its final word
 * counted. Anything malformed returns null, and a null answer casts no vote (docs/METHOD.md): it is
 * never a pseudo-label and never matches the truth.
 */
import { EOS_ID, decode, type Vocabulary } from './tokenizer';
import type { Task } from './types';

/**
 * The decoded completion up to, not including, the first EOS; null when there is no EOS (the
 * sampler hit the length cap). `ids` are the sampled completion tokens only, without the prompt;
 * anything after the first EOS (usually PAD) is ignored.
 */
export function completionText(ids: ArrayLike<number>, vocab?: Vocabulary): string | null {
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === EOS_ID) return (vocab ? vocab.decode : decode)(Array.from(ids).slice(0, i));
  }
  return null;
}

/** The answer a completion votes for, or null when it casts no vote. */
export function extractAnswer(ids: ArrayLike<number>, task: Task, difficulty: number): string | null {
  const text = completionText(ids, task.vocabulary);
  if (text === null) return null;
  const cut = text.lastIndexOf('>');
  if (cut < 0) return null;
  const written = text.slice(cut + 1);
  // A custom task compares answers after its normalisation (custom/normalise.ts); every built-in
  // task's answers are digit strings as written, and the task then checks length and form.
  const answer = task.normaliseAnswer ? task.normaliseAnswer(written) : /^[0-9]+$/.test(written) ? written : null;
  if (answer === null) return null;
  return task.isWellFormedAnswer(answer, difficulty) ? answer : null;
}

/** Exact string match against the truth; a missing answer is wrong. */
export function checkAnswer(answer: string | null, truth: string): boolean {
  return answer !== null && answer === truth;
}
