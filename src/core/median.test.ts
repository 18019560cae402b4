import { describe, expect, it } from 'vitest';
import { median } from './median';

describe('median', () => {
  it('is the middle value, the mean of the middle two, or 0 for none; the input is not reordered', () => {
    const xs = [5, 1, 3];
    expect(median(xs)).toBe(3);
    expect(xs).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
