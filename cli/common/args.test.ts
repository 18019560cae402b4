import { describe, expect, it } from 'vitest';
import { parseArgs, seedsFlag, UsageError } from './args';

const seeds = (v: string) => seedsFlag(parseArgs(['--seeds', v], { seeds: 'string' }));

describe('seedsFlag', () => {
  it('reads lists and ranges (the confirmation block is 101-108)', () => {
    expect(seeds('1,2,3')).toEqual([1, 2, 3]);
    expect(seeds('101-108')).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
    expect(seeds('1-3,5,7-8')).toEqual([1, 2, 3, 5, 7, 8]);
    expect(seeds('4-4')).toEqual([4]);
  });

  it('refuses what is not a seed list', () => {
    expect(() => seeds('1,,2')).toThrow(UsageError);
    expect(() => seeds('8-1')).toThrow(/backwards/);
    expect(() => seeds('1-3,2')).toThrow(/repeated/);
    expect(() => seeds('1-100')).toThrow(/at most 50/);
    expect(() => seeds('1-')).toThrow(UsageError);
  });
});
