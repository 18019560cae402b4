/**
 * The TRL run's figures in docs/RESULTS.md and docs/BENCHMARKS.md are what its result files give
 * (bench/results/trl-check.json, the default run with its install; bench/results/trl-check-8.json,
 * seeds 109-116), and the files say what the docs claim of them: the spec's steps, the three
 * arms, the install made by the run, the whole run under 30 minutes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveSpec } from '../experiment/experiment-lib';
import { benchmarksBlock, browserClaims, claims, DEFAULT_RUN, expectedDocs, fillBlock, readResult, resultsBlock, SEEDS_RUN, trlCpuRunFrom } from './trl-check-docs';
import { pinnedVersions, publicVersion } from './trl-check-lib';
import { TRL_CPU_RUN } from '../../src/export/trl/cpuRun';

const fresh = readResult(DEFAULT_RUN);
const main = readResult(SEEDS_RUN);
const spec = resolveSpec('peers-learn', undefined);

describe("the TRL run's result files", () => {
  it('ran the spec of peers-learn: its steps, its three arms, both members, on the seeds the docs name', () => {
    for (const r of [fresh, main]) {
      expect(r.preset).toBe('peers-learn');
      expect(r.steps).toBe(spec.steps);
      expect(new Set(r.figures.map((a) => a.arm))).toEqual(new Set(['oracle', 'self', 'peer']));
      expect(r.figures).toHaveLength(3 * r.seeds.length);
      for (const a of r.figures) expect(a.members.map((m) => [m.member, m.steps, m.endStep])).toEqual(spec.members.map((m) => [m.id, spec.steps, spec.steps]));
    }
    expect(main.seeds).toEqual([109, 110, 111, 112, 113, 114, 115, 116]);
    expect(fresh.seeds).toEqual([spec.seed, spec.seed + 1, spec.seed + 2]);
  });

  it('the default run installed its own venv with the pinned versions and took under 30 minutes in all', () => {
    expect(fresh.install).not.toBeNull();
    expect(fresh.totalSeconds).toBeGreaterThan(fresh.install!.seconds + fresh.wallSeconds - 1);
    expect(fresh.totalSeconds).toBeLessThan(30 * 60);
    for (const r of [fresh, main]) for (const [name, want] of Object.entries(pinnedVersions())) expect(publicVersion(r.versions?.[name])).toBe(want);
  });

  it("a seed's figures are the same in both files (the run is deterministic from its seed)", () => {
    for (const a of fresh.figures) {
      const b = main.figures.find((x) => x.seed === a.seed && x.arm === a.arm)!;
      expect(b, `${a.seed} ${a.arm}`).toBeDefined();
      expect(a.members.map((m) => [m.start, m.end, m.rewardFirst, m.rewardLast, m.labelFirst, m.labelLast])).toEqual(
        b.members.map((m) => [m.start, m.end, m.rewardFirst, m.rewardLast, m.labelFirst, m.labelLast]),
      );
    }
  });
});

describe('the docs against the result files', () => {
  it('docs/RESULTS.md and docs/BENCHMARKS.md hold the blocks the files give (npx tsx cli/trl/trl-check-docs.ts --write)', () => {
    for (const d of expectedDocs()) expect(d.now, d.path).toBe(d.want);
  });

  it('a changed figure fails the check', () => {
    const results = expectedDocs().find((d) => d.path === 'docs/RESULTS.md')!;
    const planted = fillBlock(results.want, 'results', resultsBlock(main, fresh, results.now).replace(/\d\.\d\d/, '9.99'));
    expect(planted).not.toBe(results.want);
    expect(fillBlock(results.want, 'results', resultsBlock(main, fresh, results.now))).toBe(results.want);
  });

  it("reads the browser's claims on the same seeds from RESULTS.md's science block", () => {
    const browser = browserClaims(readFileSync('docs/RESULTS.md', 'utf8'));
    expect([...browser.keys()]).toEqual(expect.arrayContaining(claims(main).map((c) => c.id)));
    for (const v of browser.values()) expect(v).toMatch(/^[+−-]\d\.\d\d \[[+−-]\d\.\d\d, [+−-]\d\.\d\d\] (SHOWN|NOT SHOWN|CONTRADICTED); Holm (SHOWN|NOT SHOWN|CONTRADICTED)$/);
  });

  it('the benchmark block names the install and the whole run', () => {
    const b = benchmarksBlock(fresh, main);
    expect(b).toContain(`${fresh.install!.seconds.toFixed(0)} s`);
    expect(b).toContain(`${fresh.totalSeconds.toFixed(0)} s`);
  });
});

describe("the exported README's account of the run", () => {
  it('is what the seeds 109-116 file gives', () => {
    expect(TRL_CPU_RUN).toEqual(trlCpuRunFrom(main, fresh));
  });
});
