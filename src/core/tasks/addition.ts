/**
 * n-digit + n-digit addition: `47+85=` -> `132`.
 *
 * Operands are zero-padded to n digits so every prompt has the same length. The answer is the
 * plain decimal sum with no leading zeros ("0" for 00+00), so each number has exactly one
 * spelling and string equality is correctness; "0132" is not well formed and casts no vote.
 *
 * The scratchpad works the columns from the least significant, writing each column's sum digit
 * then its carry: 47+85 -> `21,31` (7+5=12: digit 2 carry 1; 4+8+1=13: digit 3 carry 1), so the
 * answer is the final carry followed by the column digits read backwards.
 */
import type { Rng } from '../random';
import { checkDifficulty, randomDigits } from './digits';
import type { Problem, Task } from './types';

const RANGE: [number, number] = [1, 6];

/** The problem `a+b=` for two zero-padded operands of equal length (e.g. "47", "85"). */
export function additionProblem(a: string, b: string): Problem {
  if (a.length !== b.length) throw new Error(`addition: operands ${a} and ${b} differ in length`);
  const columns: string[] = [];
  let answerDigits = '';
  let carry = 0;
  for (let i = a.length - 1; i >= 0; i--) {
    const total = Number(a[i]) + Number(b[i]) + carry;
    const digit = total % 10;
    carry = total >= 10 ? 1 : 0;
    columns.push(`${digit}${carry}`);
    answerDigits = String(digit) + answerDigits;
  }
  if (carry) answerDigits = '1' + answerDigits;
  return {
    prompt: `${a}+${b}=`,
    answer: answerDigits.replace(/^0+(?=.)/, ''), // strip leading zeros, keep a lone "0"
    scratchpad: columns.join(','),
  };
}

export const additionTask: Task = {
  id: 'addition',
  title: 'Multi-digit addition',
  description:
    'Add two n-digit numbers (zero-padded, like 07+45=52). The scratchpad works the columns ' +
    'right to left, writing each column digit and its carry, so longer numbers mean longer answers.',
  difficultyRange: RANGE,
  defaultDifficulty: 2,

  // Two n-digit operands, '+', '='.
  promptLength(n) {
    checkDifficulty('addition', RANGE, n);
    return 2 * n + 2;
  },

  // n two-character columns with n-1 commas, '>', and at most n+1 answer digits.
  maxCompletionLength(n) {
    checkDifficulty('addition', RANGE, n);
    return 3 * n - 1 + 1 + (n + 1);
  },

  problemCount(n) {
    checkDifficulty('addition', RANGE, n);
    return 10 ** (2 * n);
  },

  generate(rng: Rng, n) {
    checkDifficulty('addition', RANGE, n);
    return additionProblem(randomDigits(rng, n), randomDigits(rng, n));
  },

  // 1 to n+1 digits, no leading zero except "0" itself (the canonical spelling).
  isWellFormedAnswer(s, n) {
    checkDifficulty('addition', RANGE, n);
    return /^(0|[1-9][0-9]*)$/.test(s) && s.length <= n + 1;
  },
};
