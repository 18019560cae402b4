/** Vote counting for the rollout inspector (display only; the science's votes live in src/core/rewards). */

export interface Tally {
  answer: string;
  votes: number;
}

/** Parseable answers by count, most votes first (ties in first-seen order); null answers cast no vote. */
export function voteTally(answers: readonly (string | null)[]): { tally: Tally[]; malformed: number } {
  const counts = new Map<string, number>();
  let malformed = 0;
  for (const a of answers) {
    if (a == null) malformed++;
    else counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  const tally = [...counts.entries()].map(([answer, votes]) => ({ answer, votes }));
  tally.sort((x, y) => y.votes - x.votes); // stable: ties keep first-seen order
  return { tally, malformed };
}

/** Index of the sample step to show: the chosen step if still kept, else the latest. */
export function sampleIndex(steps: readonly number[], chosen: number | null): number {
  if (steps.length === 0) return -1;
  if (chosen == null) return steps.length - 1;
  const i = steps.indexOf(chosen);
  return i >= 0 ? i : steps.length - 1;
}
