/**
 * Members the lab picks on its own after a measured miss (docs/TASKS.md, "Members that can learn
 * the task"): when a run of a task of one's own stops because a member missed its warm-start
 * target, and the cause measured is one a member can answer (a window that cannot see, a member
 * that did not learn even its training rows, or one that learnt part of the rule), the experiment
 * takes the member refitAfterMiss picks and starts again, and the page says which and why. The
 * picked members are written into the experiment (the link and the saved run carry them), so a
 * link reproduces the run that followed. A block of seeds (seedRuns.ts) takes its first seed's miss
 * the same way; trainingWorker.ts a plain Start's. Bounded: at most MAX_FIT_TRIES restarts per Start, each
 * within FIT_LIMITS (width 128, 800 warm-start steps).
 */
import { FIT_LIMITS, refitAfterMiss, type MeasuredMiss } from '../../core/experiment/fitMembers';
import type { ExperimentSpec } from '../../core/experiment/spec';

/** The most members the lab tries on its own per Start (each a warm start of one member again). */
export const MAX_FIT_TRIES = 2;

/** The budget in words, as the page and docs/TASKS.md state it. */
export const FIT_BUDGET =
  `After a miss, the lab tries at most ${MAX_FIT_TRIES} other members on its own (twice the width or twice the warm-start steps, ` +
  `up to width ${FIT_LIMITS.width} and ${FIT_LIMITS.steps} steps); each try trains that member's warm start again.`;

export interface AutoFit {
  /** The experiment to start next, and the note that says why; null: nothing more to try. */
  next: { spec: ExperimentSpec; note: string } | null;
}

let tries = 0;

/** A Start by the user: the budget is whole again. */
export function resetFitTries(): void {
  tries = 0;
}

/** The next try after `miss` in a run of `draft`, counted against the budget; null when there is none. */
export function nextFit(draft: ExperimentSpec, miss: MeasuredMiss): AutoFit['next'] {
  const { next } = afterMiss(draft, miss, tries);
  if (next) tries++;
  return next;
}

/** What to do after `miss` in a run of `draft`, `tries` restarts already made since the user's Start. */
export function afterMiss(draft: ExperimentSpec, miss: MeasuredMiss, tries: number): AutoFit {
  if (draft.task.id !== 'custom' || tries >= MAX_FIT_TRIES) return { next: null };
  const r = refitAfterMiss(draft, miss);
  if (!r) return { next: null };
  return { next: { spec: r.spec, note: `${r.fit.why} (try ${tries + 1} of ${MAX_FIT_TRIES}).` } };
}
