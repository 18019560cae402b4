import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPreset } from '../../src/core/experiment/presets';
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import { overlapClaim, readingsFromPoints, type OverlapLevelPoint } from './science-overlap-claims';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const science = (...args: string[]) => spawnSync(tsx, ['cli/science/science.ts', ...args], { encoding: 'utf8', timeout: 120_000 });

/**
 * One seed of the overlap preset, 10 RL steps: A starts at 0.5 in every arm and ends at 0.5 plus
 * `gains[arm]`; the partners' base kappa with A rises along the dial (S 0.1 ... T 0.5, X 0.2).
 */
function overlapRun(seed: number, gains: Record<string, number>): RunSummary {
  const spec = getPreset('overlap')!.spec;
  const history = (end: number): MemberHistoryEntry[] =>
    Array.from({ length: 10 }, (_, i) => ({
      step: i + 1, reward: 0.5, oracleReward: 0.4, pseudoLabelAccuracy: 0.6, rewardAccuracy: 0.5, rewardGap: 0.1,
      ownVoteAccuracy: 0.5, rescueRate: 0.2, misleadRate: 0.1, sharedErrorRate: 0.2, labeledFraction: 1, majorityRatio: 0.5, tieRate: 0,
      entropy: 0.3, length: 6, capFraction: 0, malformedFraction: 0, rewardStd: 0.3, zeroStdFraction: 0.1, supervisionContainsTruth: 0.5,
      topAnswerShare: 0.2, loss: 0, kl: null, clipFraction: 0, gradNorm: 1,
      ...(i === 9 ? { evalPassAt1: end, evalMajAtG: 0.6 } : {}),
    }));
  const kappa: Record<string, number> = { S: 0.1, B0: 0.2, B50: 0.3, B80: 0.4, T: 0.5, X: 0.2 };
  return {
    seed,
    arms: spec.arms.map((a) => ({
      id: a.id,
      scheme: a.scheme,
      members: a.members.map((id) => ({ id, family: 'mlp', params: 1, history: history(0.5 + (id === 'A' ? (gains[a.id] ?? 0) : 0)), collapseStep: null })),
      pairs: [],
      ensemble: [],
    })),
    base: spec.members.map((m) => ({ memberId: m.id, passAt1: 0.5, majAtG: 0.6 })),
    baseKappa: Object.entries(kappa).map(([b, k]) => ({ a: 'A', b, kappa: k, bothWrongSame: 0.01 })),
    medianStepMs: 1,
    backend: 'wasm',
  };
}

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

  it('npm run science -- --overlap reads saved runs of the overlap preset, its summary rows and the plan\'s headline', () => {
    const dir = mkdtempSync(join(tmpdir(), 'science-overlap-'));
    const file = (runs: RunSummary[]) => JSON.stringify({ version: 2, spec: getPreset('overlap')!.spec, runs });
    // Next to S A gains 0.15-0.18, next to T nothing: the ends shown; the slope too (it falls level by level).
    const gains = (s: number) => ({ 'peer-S': 0.15 + 0.01 * (s % 4), 'peer-B0': 0.1, 'peer-B50': 0.06, 'peer-B80': 0.03, 'peer-T': 0, 'peer-X': 0.05 });
    writeFileSync(join(dir, 'overlap.json'), file([1, 2, 3, 4].map((s) => overlapRun(s, gains(s)))));
    mkdirSync(join(dir, 'confirmation'));
    writeFileSync(join(dir, 'confirmation', 'overlap.json'), file([201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212].map((s) => overlapRun(s, gains(s)))));
    const r = science('--overlap', 'overlap', '--seeds', '1-4', '--from', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\(ends\) SHOWN: a more different partner teaches more: .* \[overlap, seeds 1,2,3,4; A's gain next to the least minus the most overlapping partner, pass@1: \+0\.1\d \[95% CI /m);
    expect(r.stdout).toMatch(/^ {2}\(slope\) HOLM SHOWN \[overlap, seeds 1,2,3,4; family of 2 claims; /m);
    const summary = science('--summary', '--from', dir);
    expect(summary.status, summary.stderr).toBe(0);
    const rows = summary.stdout.split('\n').filter((l) => l.includes('| overlap |'));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^\| \(ends\) a more different partner teaches more \| overlap \| .* \(seeds 1-4\) \| .* SHOWN; Holm SHOWN \(seeds 201-212\) \| \*\*SHOWN\*\* \|$/);
  });

  it('npm run science -- --overlap refuses a preset without an overlap dial', () => {
    const r = spawnSync(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['cli/science/science.ts', '--overlap', 'collapse', '--from', 'nowhere'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr + r.stdout).toContain('--overlap: "collapse" is not a preset with an overlap dial');
  });
});
