import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overlapClaim, readingsFromPoints, type OverlapLevelPoint } from './science-overlap-claims';

/** One seed's five same-family levels (kappa rising) with A's gains, and a cross-family level. */
const seed = (s: number, gains: number[]): OverlapLevelPoint[] => [
  ...['peer-S', 'peer-B0', 'peer-B50', 'peer-B80', 'peer-T'].map((arm, i) => ({ seed: s, arm, sameFamily: true, kappa: 0.1 * i, gain: gains[i] })),
  { seed: s, arm: 'peer-X', sameFamily: false, kappa: 0.05, gain: 0.5 },
];

describe('the overlap claims', () => {
  it('reads the ends (least minus most overlapping) and minus the slope, per seed, from the same-family levels only', () => {
    // Seed 1: gain falls 0.02 per 0.1 of kappa, slope -0.2; seed 2 flat.
    const r = readingsFromPoints([...seed(2, [0.1, 0.1, 0.1, 0.1, 0.1]), ...seed(1, [0.1, 0.08, 0.06, 0.04, 0.02])]);
    expect(r.map((x) => x.seed)).toEqual([1, 2]);
    expect(r[0].leastMinusMost).toBeCloseTo(0.08, 12);
    expect(r[0].slope).toBeCloseTo(-0.2, 12);
    expect(r[1].leastMinusMost).toBeCloseTo(0, 12);
    expect(r[1].slope).toBeCloseTo(0, 12);
  });

  it('says shown when every seed points the papers\' way beyond its noise, not shown when it straddles 0', () => {
    const up = readingsFromPoints([1, 2, 3, 4].flatMap((s) => seed(s, [0.1 + 0.01 * s, 0.08, 0.06, 0.04, 0.0])));
    const ends = overlapClaim('ends', up);
    expect(ends.id).toBe('ends');
    expect(ends.stats.mean).toBeCloseTo(0.125, 12);
    expect(ends.verdict).toBe('shown');
    expect(overlapClaim('slope', up).verdict).toBe('shown');
    const mixed = readingsFromPoints([1, 2, 3, 4].flatMap((s) => seed(s, s % 2 ? [0.2, 0, 0, 0, 0] : [0, 0, 0, 0, 0.2])));
    expect(overlapClaim('ends', mixed).verdict).toBe('not shown');
  });

  it('npm run science -- --overlap refuses a preset without an overlap dial', () => {
    const r = spawnSync(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['cli/science.ts', '--overlap', 'collapse', '--from', 'nowhere'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr + r.stdout).toContain('--overlap: "collapse" is not a preset with an overlap dial');
  });
});
