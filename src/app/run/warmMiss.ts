/**
 * What the page says of a warm start that missed its target, pure. A miss is said every time it
 * happens, once, with one figure for the best reached (missedTargetText, the same words and
 * figure the stopping sentence has):
 *   - a run that stopped at the miss: its error is the sentence, and the run bar says the warm
 *     start missed, never "Stopped by an error";
 *   - a run that went on from the best reached (warmStart.onMiss 'continue', set by "Go on from
 *     the best reached" and kept for later runs): one line per member that missed, from the members'
 *     records (MemberInfo.warmStartReached false), which the run carries from its base evaluation on.
 */
import type { MemberInfo } from '../../core/experiment/events';
import { missedTargetText } from '../../core/experiment/missWords';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { isWarmStartMiss } from '../../engine/protocol';

/** The member a miss's sentence names ("Member A's warm start ...", "member A did not reach ..."), or null. */
export function missedMemberOf(message: string): string | null {
  if (!isWarmStartMiss(message)) return null;
  return /^member (\S+?)(?:'s | did not)/i.exec(message)?.[1] ?? null;
}

/** The run bar's phase for a run that stopped at a miss (null: the error was something else). */
export function missPhaseText(error: { message: string } | null): string | null {
  if (!error || !isWarmStartMiss(error.message)) return null;
  const member = missedMemberOf(error.message);
  return `Stopped before RL: ${member ? `member ${member}` : 'a member'} missed its warm-start target`;
}

/** One sentence per member that missed its target in a run that went on from the best reached. */
export function continuedMisses(spec: ExperimentSpec | null, members: readonly MemberInfo[]): string[] {
  return members
    .filter((m) => m.warmStartReached === false)
    .map((m) => {
      const planned = spec?.members.find((x) => x.id === m.id);
      const best = m.warmStartBest ?? m.warmStartLast ?? null;
      const steps = m.warmStartSteps ?? planned?.warmStartSteps ?? 0;
      const head = missedTargetText({ memberId: m.id, best, target: planned?.warmStartTarget ?? 0, steps });
      return `${head}: it missed, and this run went on from the best it reached, so every arm starts from a model that had not learnt the task.`;
    });
}
