/**
 * A warm-start miss in a student's words, the part every place that says it shares (the run's
 * stopping sentence, warmStartCohort.ts outOfReach; the page's notice when a run went on from the
 * best reached). No tfjs here: the page imports it.
 */

/**
 * A warm start's validation value (the chance of writing a reference completion exactly) as a
 * student reads it: one way of writing it for every place that says it (the miss's sentence, the
 * page's curves), so the best reached is one figure wherever it is shown.
 */
export function warmStartPercent(x: number): string {
  return x < 0.001 ? 'under 0.1%' : `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;
}

/**
 * "Member A's warm start reached at best 19% against its target of 50% in 400 steps": how every
 * miss begins, whether it stops the run or the run goes on from the best reached.
 */
export function missedTargetText(m: { memberId: string; best: number | null; target: number; steps: number }): string {
  const best = m.best === null ? 'nothing measurable' : `at best ${warmStartPercent(m.best)}`;
  return `Member ${m.memberId}'s warm start reached ${best} against its target of ${warmStartPercent(m.target)} in ${m.steps} steps`;
}
