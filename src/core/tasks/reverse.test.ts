import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { reverseProblem, reverseTask as task } from './reverse';

describe('reverse by hand', () => {
  it('R3841= -> 1483, with no scratchpad', () => {
    expect(reverseProblem('3841')).toEqual({ prompt: 'R3841=', answer: '1483', scratchpad: '' });
  });

  it('keeps leading and trailing zeros', () => {
    expect(reverseProblem('0012').answer).toBe('2100');
    expect(task.isWellFormedAnswer('2100', 4)).toBe(true);
  });

  it('lengths: prompt n+2, completion n+1 (>1483 is 5)', () => {
    expect(task.promptLength(4)).toBe(6);
    expect(task.maxCompletionLength(4)).toBe(5);
    expect(task.problemCount(3)).toBe(1000);
  });

  it('accepts exactly n digits', () => {
    expect(task.isWellFormedAnswer('148', 4)).toBe(false);
    expect(task.isWellFormedAnswer('14830', 4)).toBe(false);
    expect(task.isWellFormedAnswer('', 4)).toBe(false);
  });

  it('rejects a difficulty outside [3, 8]', () => {
    expect(task.difficultyRange).toEqual([3, 8]);
    expect(task.defaultDifficulty).toBe(4);
    expect(() => task.generate(new Rng(1), 2)).toThrow(RangeError);
  });
});

describe('reverse properties', () => {
  it('generated problems are correct and have the promised lengths', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 3, max: 8 }), (seed, n) => {
        const p = task.generate(new Rng(seed), n);
        expect(p.prompt).toHaveLength(task.promptLength(n));
        expect(p.prompt).toMatch(new RegExp(`^R[0-9]{${n}}=$`));
        const digits = p.prompt.slice(1, -1);
        for (let i = 0; i < n; i++) expect(p.answer[i]).toBe(digits[n - 1 - i]);
        expect(p.answer).toHaveLength(n);
        expect(`>${p.answer}`.length).toBeLessThanOrEqual(task.maxCompletionLength(n));
      }),
    );
  });
});
