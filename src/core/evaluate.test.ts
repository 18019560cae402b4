import { describe, expect, it } from 'vitest';
import { Rng } from './random';
import { heldOutVotes } from './evaluate';

describe('heldOutVotes', () => {
  const tie = ['3', '7', '3', '7'];
  const clear = ['5', '5', '5', '1'];

  it('breaks each problem\'s tie with its own stream: a tie before it does not move its label', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const afterTie = heldOutVotes([tie, tie], new Rng(seed));
      const afterClear = heldOutVotes([clear, tie], new Rng(seed));
      expect(afterClear[0].label).toBe('5');
      expect(afterTie[1].label).toBe(afterClear[1].label);
    }
  });

  it('is deterministic and breaks ties both ways over seeds', () => {
    const labels = new Set<string | null>();
    for (let seed = 1; seed <= 20; seed++) {
      const a = heldOutVotes([tie], new Rng(seed))[0].label;
      expect(heldOutVotes([tie], new Rng(seed))[0].label).toBe(a);
      labels.add(a);
    }
    expect([...labels].sort()).toEqual(['3', '7']);
  });
});
