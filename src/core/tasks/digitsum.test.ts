import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { digitsumProblem, digitsumTask as task } from './digitsum';

describe('digitsum by hand', () => {
  it('8+3+9+7 has running sums 8,1,0 and answer 7 (docs/METHOD.md)', () => {
    expect(digitsumProblem('8397')).toEqual({ prompt: '8+3+9+7=', answer: '7', scratchpad: '8,1,0' });
  });

  it('two digits: the scratchpad is the first digit', () => {
    expect(digitsumProblem('55')).toEqual({ prompt: '5+5=', answer: '0', scratchpad: '5' });
  });

  it('lengths: prompt 2n, completion 2n-1 (8+3+9+7= is 8, 8,1,0>7 is 7)', () => {
    expect(task.promptLength(4)).toBe(8);
    expect(task.maxCompletionLength(4)).toBe(7);
    expect(task.maxCompletionLength(2)).toBe(3); // "5>0"
    expect(task.problemCount(2)).toBe(100);
  });

  it('accepts exactly one digit as an answer', () => {
    expect(task.isWellFormedAnswer('7', 4)).toBe(true);
    expect(task.isWellFormedAnswer('17', 4)).toBe(false);
    expect(task.isWellFormedAnswer('', 4)).toBe(false);
  });

  it('rejects a difficulty outside [2, 8]', () => {
    expect(task.difficultyRange).toEqual([2, 8]);
    expect(task.defaultDifficulty).toBe(4);
    expect(() => task.generate(new Rng(1), 1)).toThrow(RangeError);
    expect(() => task.promptLength(9)).toThrow(/\[2, 8\]/);
  });
});

describe('digitsum properties', () => {
  it('generated problems are correct and have the promised lengths', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 2, max: 8 }), (seed, n) => {
        const p = task.generate(new Rng(seed), n);
        expect(p.prompt).toHaveLength(task.promptLength(n));
        expect(p.prompt).toMatch(/^[0-9](\+[0-9])*=$/);
        const digits = p.prompt.slice(0, -1).split('+').map(Number);
        expect(digits).toHaveLength(n);
        // Re-derive independently: plain sum, then the prefix sums.
        expect(p.answer).toBe(String(digits.reduce((a, b) => a + b, 0) % 10));
        const prefixes = digits.slice(0, -1).map((_, i) => digits.slice(0, i + 1).reduce((a, b) => a + b, 0) % 10);
        expect(p.scratchpad).toBe(prefixes.join(','));
        expect(`${p.scratchpad}>${p.answer}`.length).toBeLessThanOrEqual(task.maxCompletionLength(n));
        expect(task.isWellFormedAnswer(p.answer, n)).toBe(true);
      }),
    );
  });
});
