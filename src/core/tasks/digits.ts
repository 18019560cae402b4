/** Small helpers the three digit tasks share. */
import type { Rng } from '../random';

/** `n` uniformly random decimal digits as a string (leading zeros kept). */
export function randomDigits(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(rng.int(10));
  return s;
}

/** Throws a RangeError unless `difficulty` is an integer in the task's inclusive range. */
export function checkDifficulty(taskId: string, range: [number, number], difficulty: number): void {
  const [lo, hi] = range;
  if (!Number.isInteger(difficulty) || difficulty < lo || difficulty > hi) {
    throw new RangeError(`${taskId}: difficulty must be an integer in [${lo}, ${hi}], got ${difficulty}`);
  }
}
