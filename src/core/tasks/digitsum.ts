/**
 * Sum of n digits mod 10: `8+3+9+7=` -> `7`.
 *
 * The scratchpad writes the running sum mod 10 after each of the first n-1 digits
 * (`8,1,0`), so each step is a one-digit addition the model can see. Without it neither a tiny
 * transformer nor a GRU generalised beyond chance in the PyTorch probe; with it both reached
 * held-out pass@1 ~0.4 (docs/METHOD.md, "Toy scale").
 */
import type { Rng } from '../random';
import { checkDifficulty, randomDigits } from './digits';
import type { Problem, Task } from './types';

const RANGE: [number, number] = [2, 8];

/** The problem whose operands are the digits of `digits` (e.g. "8397"). */
export function digitsumProblem(digits: string): Problem {
  const running: number[] = [];
  let sum = 0;
  for (const ch of digits) {
    sum = (sum + Number(ch)) % 10;
    running.push(sum);
  }
  return {
    prompt: digits.split('').join('+') + '=',
    answer: String(sum),
    // The last running sum is the answer itself, so the scratchpad stops one step earlier.
    scratchpad: running.slice(0, -1).join(','),
  };
}

export const digitsumTask: Task = {
  id: 'digitsum',
  title: 'Digit sum mod 10',
  description:
    'Add n single digits and keep the last digit of the total (8+3+9+7=27, answer 7). ' +
    'The scratchpad writes the running total mod 10 after each digit.',
  difficultyRange: RANGE,
  defaultDifficulty: 4,

  // n digits and n-1 '+' signs, then '='.
  promptLength(n) {
    checkDifficulty('digitsum', RANGE, n);
    return 2 * n;
  },

  // n-1 one-digit running sums with n-2 commas, then '>' and one digit.
  maxCompletionLength(n) {
    checkDifficulty('digitsum', RANGE, n);
    return 2 * (n - 1) - 1 + 2;
  },

  problemCount(n) {
    checkDifficulty('digitsum', RANGE, n);
    return 10 ** n;
  },

  generate(rng: Rng, n) {
    checkDifficulty('digitsum', RANGE, n);
    return digitsumProblem(randomDigits(rng, n));
  },

  isWellFormedAnswer(s, n) {
    checkDifficulty('digitsum', RANGE, n);
    return /^[0-9]$/.test(s);
  },
};
