import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { ensembleMajAtG, majAtG, passAt1 } from './accuracy';

describe('accuracy', () => {
  it('passAt1 is the mean correctness', () => {
    expect(passAt1([true, false, false, true, true])).toBe(0.6);
    expect(passAt1([])).toBeNaN();
  });

  it('majAtG: plurality of G samples equals the truth', () => {
    // G = 3. prompt 0: 1,1,2 -> '1' right; prompt 1: 5,null,4 -> tie; prompt 2: all malformed -> wrong
    const answers = ['1', '1', '2', '5', null, '4', null, null, null];
    const truths = ['1', '4', '0'];
    const tieWinner = ['4', '5'][new Rng(9, 'eval/prompt1').int(2)];
    expect(majAtG(answers, truths, 3, new Rng(9, 'eval'))).toBeCloseTo((1 + (tieWinner === '4' ? 1 : 0)) / 3, 12);
    expect(() => majAtG(answers, truths, 2, new Rng(9))).toThrow(RangeError);
  });

  it('ensembleMajAtG pools both members: two weak voters can outvote a shared error', () => {
    // G = 3, one prompt, truth '7'. A alone: 7,3,3 -> '3'. B alone: 7,7,2 -> '7'. Pooled: 7 x3, 3 x2, 2 -> '7'.
    const A = ['7', '3', '3'];
    const B = ['7', '7', '2'];
    expect(majAtG(A, ['7'], 3, new Rng(1))).toBe(0);
    expect(ensembleMajAtG(A, B, ['7'], 3, new Rng(1))).toBe(1);
    // Pooled 3,3,8 + 8,7,7: 3-3-8-8-7-7 three-way tie, broken by the seeded stream over ['3','7','8'].
    const won = ['3', '7', '8'][new Rng(4, 'ens/prompt0').int(3)] === '7' ? 1 : 0;
    expect(ensembleMajAtG(['3', '3', '8'], ['8', '7', '7'], ['7'], 3, new Rng(4, 'ens'))).toBe(won);
  });
});
