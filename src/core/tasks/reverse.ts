/**
 * Reverse a digit string: `R3841=` -> `1483`.
 *
 * The task where systematic errors depend on the architecture (docs/METHOD.md asks for one): a
 * transformer's attention can look back at any prompt position and copy it; a GRU must hold the
 * whole string in its state and replay it backwards; an MLP over a short window cannot see the
 * early digits at all when it writes the late ones. There is no natural scratchpad (writing one
 * would already be the answer), so the scratchpad is empty.
 */
import type { Rng } from '../random';
import { checkDifficulty, randomDigits } from './digits';
import type { Problem, Task } from './types';

const RANGE: [number, number] = [3, 8];

/** The problem that reverses `digits` (e.g. "3841"). */
export function reverseProblem(digits: string): Problem {
  return { prompt: `R${digits}=`, answer: digits.split('').reverse().join(''), scratchpad: '' };
}

export const reverseTask: Task = {
  id: 'reverse',
  title: 'Reverse the digits',
  description:
    'Write the n digits after R in reverse order (R3841= gives 1483). Attention can copy any ' +
    'earlier digit, a GRU must remember the whole string, and a short-window MLP cannot see it.',
  difficultyRange: RANGE,
  defaultDifficulty: 4,

  // 'R', n digits, '='.
  promptLength(n) {
    checkDifficulty('reverse', RANGE, n);
    return n + 2;
  },

  // '>' and n digits.
  maxCompletionLength(n) {
    checkDifficulty('reverse', RANGE, n);
    return n + 1;
  },

  problemCount(n) {
    checkDifficulty('reverse', RANGE, n);
    return 10 ** n;
  },

  generate(rng: Rng, n) {
    checkDifficulty('reverse', RANGE, n);
    return reverseProblem(randomDigits(rng, n));
  },

  // Exactly n digits; leading zeros are part of the answer ("R0012=" -> "2100").
  isWellFormedAnswer(s, n) {
    checkDifficulty('reverse', RANGE, n);
    return s.length === n && /^[0-9]+$/.test(s);
  },
};
