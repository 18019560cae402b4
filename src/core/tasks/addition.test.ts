import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { additionProblem, additionTask as task } from './addition';

describe('addition by hand', () => {
  it('47+85: columns 7+5=12 -> "21", 4+8+1=13 -> "31", answer 132', () => {
    expect(additionProblem('47', '85')).toEqual({ prompt: '47+85=', answer: '132', scratchpad: '21,31' });
  });

  it('99+01 carries through every column', () => {
    expect(additionProblem('99', '01')).toEqual({ prompt: '99+01=', answer: '100', scratchpad: '01,01' });
  });

  it('00+00 answers "0", and 07+45 drops no needed digit', () => {
    expect(additionProblem('00', '00')).toEqual({ prompt: '00+00=', answer: '0', scratchpad: '00,00' });
    expect(additionProblem('07', '45')).toEqual({ prompt: '07+45=', answer: '52', scratchpad: '21,50' });
    expect(additionProblem('03', '04').answer).toBe('7');
  });

  it('lengths: prompt 2n+2, completion 4n+1 (21,31>132 is 9)', () => {
    expect(task.promptLength(2)).toBe(6);
    expect(task.maxCompletionLength(2)).toBe(9);
    expect(task.maxCompletionLength(1)).toBe(5); // "81>18"
    expect(task.problemCount(1)).toBe(100);
  });

  it('accepts 1 to n+1 digits with no leading zero, except "0"', () => {
    expect(task.isWellFormedAnswer('0', 2)).toBe(true);
    expect(task.isWellFormedAnswer('132', 2)).toBe(true);
    expect(task.isWellFormedAnswer('1320', 2)).toBe(false);
    expect(task.isWellFormedAnswer('052', 2)).toBe(false);
    expect(task.isWellFormedAnswer('00', 2)).toBe(false);
    expect(task.isWellFormedAnswer('', 2)).toBe(false);
  });

  it('rejects a difficulty outside [1, 6]', () => {
    expect(task.difficultyRange).toEqual([1, 6]);
    expect(task.defaultDifficulty).toBe(2);
    expect(() => task.generate(new Rng(1), 7)).toThrow(RangeError);
  });
});

describe('addition properties', () => {
  it('generated problems are correct and have the promised lengths', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 6 }), (seed, n) => {
        const p = task.generate(new Rng(seed), n);
        expect(p.prompt).toHaveLength(task.promptLength(n));
        const m = new RegExp(`^([0-9]{${n}})\\+([0-9]{${n}})=$`).exec(p.prompt);
        expect(m).not.toBeNull();
        const [a, b] = [m![1], m![2]];
        expect(p.answer).toBe(String(Number(a) + Number(b)));
        // Each scratchpad column i (from the right) is digit and carry of the partial sum.
        const cols = p.scratchpad.split(',');
        expect(cols).toHaveLength(n);
        cols.forEach((col, i) => {
          const mod = 10 ** (i + 1);
          const partial = (Number(a) % mod) + (Number(b) % mod);
          expect(col).toBe(`${Math.floor(partial / 10 ** i) % 10}${partial >= mod ? 1 : 0}`);
        });
        expect(`${p.scratchpad}>${p.answer}`.length).toBeLessThanOrEqual(task.maxCompletionLength(n));
        expect(task.isWellFormedAnswer(p.answer, n)).toBe(true);
      }),
    );
  });
});
