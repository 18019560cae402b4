import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import {
  TASKS, encodeTarget, extractAnswer, getTask, makeSplit, scratchpadFor, sequenceLength,
  targetCompletion, type Problem, type TaskId,
} from './index';

const taskIds = Object.keys(TASKS) as TaskId[];

describe('registry', () => {
  it('has the three tasks under their ids', () => {
    expect(taskIds.sort()).toEqual(['addition', 'digitsum', 'reverse']);
    for (const id of taskIds) expect(getTask(id).id).toBe(id);
    expect(() => getTask('nope' as TaskId)).toThrow(/Unknown task "nope"/);
  });
});

describe('targetCompletion', () => {
  const p: Problem = { prompt: '8+3+9+7=', answer: '7', scratchpad: '8,1,0' };
  it('writes scratchpad>answer, or >answer without the scratchpad', () => {
    expect(targetCompletion(p, true)).toBe('8,1,0>7');
    expect(targetCompletion(p, false)).toBe('>7');
  });

  it('extracting from an encoded target gives the answer back, for every task', () => {
    fc.assert(
      fc.property(fc.constantFrom(...taskIds), fc.nat(), fc.boolean(), (id, seed, withScratchpad) => {
        const task = TASKS[id];
        const rng = new Rng(seed);
        const [lo, hi] = task.difficultyRange;
        const d = lo + rng.int(hi - lo + 1);
        const problem = task.generate(rng, d);
        const target = targetCompletion(problem, withScratchpad);
        expect(target.length).toBeLessThanOrEqual(task.maxCompletionLength(d));
        expect(extractAnswer(encodeTarget(target), task, d)).toBe(problem.answer);
      }),
    );
  });
});

describe('scratchpadFor', () => {
  it('always / never ignore the coin; mixed is a fair seeded coin', () => {
    expect(scratchpadFor('always', new Rng(1))).toBe(true);
    expect(scratchpadFor('never', new Rng(1))).toBe(false);
    const flips = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 1000 }, () => scratchpadFor('mixed', rng));
    };
    const heads = flips(7).filter(Boolean).length;
    expect(heads).toBeGreaterThan(440); // 500 +- 4 standard deviations (sd ~ 16)
    expect(heads).toBeLessThan(560);
    expect(flips(7)).toEqual(flips(7));
  });
});

describe('sequenceLength', () => {
  it('is BOS + prompt + longest completion + EOS', () => {
    expect(sequenceLength(TASKS.digitsum, 4)).toBe(1 + 8 + 7 + 1); // ^8+3+9+7=8,1,0>7$
    expect(sequenceLength(TASKS.addition, 2)).toBe(1 + 6 + 9 + 1); // ^47+85=21,31>132$
    expect(sequenceLength(TASKS.reverse, 4)).toBe(1 + 6 + 5 + 1); // ^R3841=>1483$
  });
});

describe('makeSplit', () => {
  const sizes = { warmStart: 200, rl: 100, heldOut: 50 };
  const prompts = (ps: Problem[]) => ps.map((p) => p.prompt);

  it('returns sets of the requested sizes with pairwise disjoint, distinct prompts', () => {
    for (const id of taskIds) {
      const task = TASKS[id];
      const d = task.defaultDifficulty; // at least 1,000 problems each
      const split = makeSplit(task, d, new Rng(3), sizes);
      expect(split.warmStart).toHaveLength(200);
      expect(split.rl).toHaveLength(100);
      expect(split.heldOut).toHaveLength(50);
      const all = [...prompts(split.warmStart), ...prompts(split.rl), ...prompts(split.heldOut)];
      expect(new Set(all).size).toBe(350);
    }
  });

  it('can use the whole problem space (digitsum n=2 has exactly 100 problems)', () => {
    const split = makeSplit(TASKS.digitsum, 2, new Rng(5), { warmStart: 60, rl: 30, heldOut: 10 });
    const all = [...split.warmStart, ...split.rl, ...split.heldOut].map((p) => p.prompt);
    expect(new Set(all).size).toBe(100);
  });

  it('stops in words, not in an endless draw, when a task makes fewer prompts than it claims', () => {
    const liar = { ...TASKS.digitsum, problemCount: () => 1000 }; // n=2 makes 100 prompts
    expect(() => makeSplit(liar, 2, new Rng(5), { warmStart: 60, rl: 30, heldOut: 20 })).toThrow(/claims 1000 distinct problems, but \d+ draws found only 100 \(the split needs 110\)/);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const a = makeSplit(TASKS.addition, 2, new Rng(11), sizes);
    expect(makeSplit(TASKS.addition, 2, new Rng(11), sizes)).toEqual(a);
    const b = makeSplit(TASKS.addition, 2, new Rng(12), sizes);
    expect(prompts(b.heldOut)).not.toEqual(prompts(a.heldOut));
    expect(prompts(b.warmStart)).not.toEqual(prompts(a.warmStart));
  });

  it('keeps the held-out set fixed when the warm-start size changes', () => {
    const small = makeSplit(TASKS.reverse, 4, new Rng(2), { warmStart: 10, rl: 10, heldOut: 20 });
    const large = makeSplit(TASKS.reverse, 4, new Rng(2), { warmStart: 500, rl: 10, heldOut: 20 });
    expect(large.heldOut).toEqual(small.heldOut);
  });

  it('says how many problems exist when the space is too small', () => {
    expect(() => makeSplit(TASKS.digitsum, 2, new Rng(1), { warmStart: 80, rl: 20, heldOut: 1 })).toThrow(
      /only 100 distinct problems, but the split asks for 101/,
    );
    expect(() => makeSplit(TASKS.digitsum, 2, new Rng(1), { warmStart: -1, rl: 0, heldOut: 0 })).toThrow(
      RangeError,
    );
  });
});
