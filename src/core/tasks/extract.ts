/**
 * From sampled tokens to a vote. A completion is read as `scratchpad > answer EOS`; the answer is
 * the text after the LAST '>', so a model that restarts its working still has its final word
 * counted. Anything malformed returns null, and a null answer casts no vote (docs/METHOD.md): it is
 * never a pseudo-label and never matches the truth.
 */
import { EOS_ID, decode } from './tokenizer';
import type { Task } from './types';

/**
 * The decoded completion up to, not including, the first EOS; null when there is no EOS (the
 * sampler hit the length cap). `ids` are the sampled completion tokens only, without the prompt;
 * anything after the first EOS (usually PAD) is ignored.
 */
export function completionText(ids: ArrayLike<number>): string | null {
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === EOS_ID) return decode(Array.from(ids).slice(0, i));
  }
  return null;
}

/** The answer a completion votes for, or null when it casts no vote. */
export function extractAnswer(ids: ArrayLike<number>, task: Task, difficulty: number): string | null {
  const text = completionText(ids);
  if (text === null) return null;
  const cut = text.lastIndexOf('>');
  if (cut < 0) return null;
  const answer = text.slice(cut + 1);
  // Every task's answers are digit strings; the task then checks length and form.
  if (!/^[0-9]+$/.test(answer)) return null;
  return task.isWellFormedAnswer(answer, difficulty) ? answer : null;
}

/** Exact string match against the truth; a missing answer is wrong. */
export function checkAnswer(answer: string | null, truth: string): boolean {
  return answer !== null && answer === truth;
}
