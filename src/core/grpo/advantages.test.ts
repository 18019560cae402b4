import { describe, expect, it } from 'vitest';
import { groupAdvantages, groupStats } from './advantages';

// B = 2 groups of G = 4: [1, 0, 0, 1 | 1, 1, 1, 1]
const rewards = [1, 0, 0, 1, 1, 1, 1, 1];
const close = (actual: Float32Array, expected: number[], digits = 5) =>
  expected.forEach((x, i) => expect(actual[i]).toBeCloseTo(x, digits));

describe('groupAdvantages', () => {
  // Group 0: mean 0.5, unbiased std = sqrt((4 * 0.25) / 3) = sqrt(1/3) = 0.57735.
  const s0 = Math.sqrt(1 / 3);

  it('group: (r - mean_g) / (std_g + eps); a zero-std group gets 0', () => {
    const a = groupAdvantages(rewards, 2, 4, 'group');
    const v = 0.5 / (s0 + 1e-4); // 0.86588
    close(a, [v, -v, -v, v, 0, 0, 0, 0]);
    expect(a[0]).toBeCloseTo(0.86588, 4);
  });

  it('batch: (r - mean_g) / (std over all 8 rewards + eps)', () => {
    // batch mean 0.75; squared deviations: 6 x 0.0625 + 2 x 0.5625 = 1.5; unbiased var 1.5 / 7
    const sb = Math.sqrt(1.5 / 7); // 0.46291
    const v = 0.5 / (sb + 1e-4);
    close(groupAdvantages(rewards, 2, 4, 'batch'), [v, -v, -v, v, 0, 0, 0, 0]);
  });

  it('none (Dr. GRPO): r - mean_g', () => {
    close(groupAdvantages(rewards, 2, 4, 'none'), [0.5, -0.5, -0.5, 0.5, 0, 0, 0, 0], 7);
  });

  it('custom eps, and G = 1 gives zero advantages (std 0 as in TRL)', () => {
    close(groupAdvantages([1, 0, 0, 1], 1, 4, 'group', 0), [0.5 / s0, -0.5 / s0, -0.5 / s0, 0.5 / s0]);
    close(groupAdvantages([3, 5], 2, 1, 'group'), [0, 0]);
  });

  it('group advantages sum to zero in each group and are scale-free', () => {
    const r = [0.2, 0.9, 0.4, 0.1, 0.7, 0.3];
    const a = groupAdvantages(r, 2, 3, 'group');
    expect(a[0] + a[1] + a[2]).toBeCloseTo(0, 5);
    const a10 = groupAdvantages(r.map((x) => 10 * x + 3), 2, 3, 'group');
    a.forEach((x, i) => expect(a10[i]).toBeCloseTo(x, 3));
  });

  it('rejects a length that is not B * G', () => {
    expect(() => groupAdvantages([1, 2, 3], 2, 2, 'group')).toThrow(RangeError);
  });
});

describe('groupStats', () => {
  it('per-group std and the fraction of zero-std groups', () => {
    const s = groupStats(rewards, 2, 4);
    close(s.mean, [0.5, 1], 7);
    close(s.std, [Math.sqrt(1 / 3), 0], 6);
    expect(s.zeroStdFraction).toBe(0.5);
    expect(groupStats([0, 0, 1, 0, 0.5, 0.5], 3, 2).zeroStdFraction).toBeCloseTo(2 / 3, 12);
  });
});
