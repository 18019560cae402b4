/**
 * Why a warm start missed its target, read from what was measured, not guessed. The measurements
 * (missMeasure.ts takes them from the member the warm start ended with):
 * - its window's ceiling (an MLP: windowReach.ts): the best any model reading that window can do;
 * - how well it writes the completions of the rows it **trained on** (fit), and of the labeled rows
 *   it did **not** train on (held out: the warm start's own validation value, its best);
 * - chance: the share of the most common completion, what a model that ignores the prompt can reach;
 * - how many rows it trained on and was checked on.
 *
 * The causes, in the order they are tested:
 * - `window`: the window's ceiling is below the target: it cannot see what the answer depends on.
 * - `underfit`: it does not reach the target even on the rows it trained on: too small, or too few steps.
 * - `few-rows`: it learnt its rows, but does no better than chance on rows it did not see, and it had
 *   fewer than MEANINGFUL.rows to learn from: a rule cannot show in so few (a tiny model memorises).
 * - `no-rule`: the same with plenty of rows: the answers do not follow from the prompts in any way
 *   this model finds, as random answers do (it fits its training rows and scores chance on held-out).
 * - `partial`: it learnt its rows and does better than chance on unseen ones, but not up to the target.
 */
import { MEANINGFUL } from '../tasks/custom/index';
import { targetCompletion } from '../tasks/index';
import type { Problem, ScratchpadMode } from '../tasks/types';
import { percent, windowShortfall } from './fitMembers';
import type { WindowReach } from './windowReach';

export type MissCauseId = 'window' | 'underfit' | 'few-rows' | 'no-rule' | 'partial';

export interface MissMeasurements {
  memberId: string;
  target: number;
  /** Warm-start steps it took (all of its budget: it missed). */
  steps: number;
  /** Its width (dModel). */
  width: number;
  /** The best validation value (labeled rows it did not train on); null when none was recorded. */
  heldOut: number | null;
  /** The same measure on (up to 200 of) the rows it trained on, with the weights it ended with. */
  fit: number;
  trainRows: number;
  heldOutRows: number;
  /** Share of the most common completion among the labeled rows (promptBlindChance). */
  chance: number;
  /** A generator's distinct problems (more rows come from wider ranges, not a longer file). */
  generatorProblems?: number;
  /** An MLP member's window, measured; and the narrowest window that covers the task (null: none up to 16). */
  reach?: WindowReach;
  cover?: number | null;
}

export interface MissCause {
  id: MissCauseId;
  /** What was measured, in one clause a sentence can hold. */
  why: string;
  /** What would help, for this cause only. */
  help: string[];
}

/**
 * The best a model that ignores the prompt can do on these problems by the warm start's measure:
 * always write the most common completion. (A model that samples the completions' frequencies does
 * worse: the sum of their squares.)
 */
export function promptBlindChance(problems: readonly Problem[], scratchpad: ScratchpadMode): number {
  if (problems.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const p of problems) {
    const c = targetCompletion(p, scratchpad !== 'never');
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return Math.max(...counts.values()) / problems.length;
}

/**
 * Is `value` on `n` rows within chance's own noise? Its binomial spread at 95% (at least the
 * spread of one row), so that 1 right answer in 6 is not read as learning.
 */
export function atChance(value: number, chance: number, n: number): boolean {
  const p = Math.min(Math.max(chance, 0.05), 0.95);
  return value <= chance + Math.max(1.96 * Math.sqrt((p * (1 - p)) / Math.max(n, 1)), 1 / Math.max(n, 1));
}

/** More rows, where they come from: a file's rows, or a generator's ranges. */
function moreRows(m: MissMeasurements): string {
  return m.generatorProblems !== undefined
    ? `more problems to learn from (the generator makes ${m.generatorProblems}: wider ranges make more; the task check warns below ${MEANINGFUL.rows})`
    : `more rows (hundreds: the task check warns below ${MEANINGFUL.rows})`;
}

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

export function missCause(m: MissMeasurements): MissCause {
  const held = m.heldOut ?? 0;
  if (m.reach && m.reach.ceiling < m.target) {
    return {
      id: 'window',
      why: `${windowShortfall(m.memberId, m.reach)}, below its target of ${percent(m.target)}`,
      help: [m.cover ? `a window of ${m.cover} characters, which sees what the answer depends on` : 'a transformer member, which reads the whole prompt'],
    };
  }
  if (m.fit < m.target) {
    return {
      id: 'underfit',
      why: `member ${m.memberId} did not learn even the ${rows(m.trainRows)} it trained on: it writes ${percent(m.fit)} of their completions exactly after ${m.steps} steps`,
      help: [
        ...(m.width < 256 ? [`a bigger model (width ${Math.min(256, 2 * m.width)} instead of ${m.width})`] : []),
        `more warm-start steps (${Math.min(20000, 2 * m.steps)} instead of ${m.steps})`,
      ],
    };
  }
  const seen = `member ${m.memberId} learnt the ${rows(m.trainRows)} it trained on (${percent(m.fit)}) but writes ${percent(held)} of the ${rows(m.heldOutRows)} it did not see`;
  const blind = `always writing the most common completion scores ${percent(m.chance)}`;
  if (atChance(held, m.chance, m.heldOutRows)) {
    if (m.trainRows < MEANINGFUL.rows) {
      return {
        id: 'few-rows',
        why: `${seen}, no better than chance (${blind}): ${rows(m.trainRows)} are too few for a rule to show, so it memorised them`,
        help: [moreRows(m)],
      };
    }
    return {
      id: 'no-rule',
      why: `${seen}, no better than chance (${blind}): the answers do not follow from the prompts in any way it finds (random answers look like this)`,
      help: ['answers that follow from their prompts by a rule (a generator, or a file made by one)'],
    };
  }
  return {
    id: 'partial',
    why: `${seen}: better than chance (${blind}) but below its target`,
    help: m.trainRows < MEANINGFUL.rows ? [moreRows(m), 'more warm-start steps'] : ['more warm-start steps', 'a bigger model'],
  };
}
