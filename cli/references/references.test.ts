/**
 * npm run references (cli/references/references-lib.ts, cli/references/references.ts): the seed-mean and sd of
 * hand-made result files with known numbers; refusal of a result file made for another spec or
 * holding incomplete runs; --check against the shipped references and a stale one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { parseResultFile, RESULT_FILE_VERSION } from '../../src/core/experiment/resultFile';
import { PRESETS } from '../../src/core/experiment/presets';
import { memberMetrics } from '../../src/app/store/fixtures';
import { parseReference, referenceFingerprint, serializeReference, serializeReferenceIndex, indexEntry } from '../../src/share/reference';
import { buildReference, checkReferences, nextIndex, specDifferences } from './references-lib';

const quick = PRESETS.quick.spec; // 6 steps, evalEvery 3; arms oracle, self, peer over A and B

/**
 * A run of the quick preset where every number is known: member A's reward at step s is
 * `k * s / 10`, B's `k * s / 20`; held-out pass@1 at steps 3 and 6 is `k / 10` (A) and `k / 20`
 * (B); the pair's agreement is `k / 10` at every step; base pass@1 `k / 10`.
 */
function run(seed: number, k: number, over: (member: string, step: number) => Partial<MemberHistoryEntry> = () => ({})): RunSummary {
  const history = (id: string): MemberHistoryEntry[] =>
    Array.from({ length: quick.steps }, (_, i) => {
      const step = i + 1;
      const f = id === 'A' ? 10 : 20;
      const evalStep = step % quick.evalEvery === 0;
      return { ...memberMetrics({ reward: (k * step) / f, entropy: k, ...(evalStep ? { evalPassAt1: k / f, evalMajAtG: (2 * k) / f } : {}) }), step, ...over(id, step) };
    });
  return {
    seed,
    arms: quick.arms.map((a) => ({
      id: a.id,
      scheme: a.scheme,
      members: a.members.map((id) => ({ id, family: 'mlp', params: 100, history: history(id), collapseStep: null })),
      pairs: Array.from({ length: quick.steps }, (_, i) => ({ step: i + 1, a: 'A', b: 'B', agreement: k / 10, kappa: null, bothWrongSame: 0.1, ...(i % 3 === 2 ? { evalKappa: k / 10, evalBothWrongSame: 0.2 } : {}) })),
      ensemble: [3, 6].map((step) => ({ step, majAtG: k / 10 })),
    })),
    base: [
      { memberId: 'A', passAt1: k / 10, majAtG: 0.5 },
      { memberId: 'B', passAt1: k / 20, majAtG: 0.5 },
    ],
    baseKappa: [{ a: 'A', b: 'B', kappa: 0.1, bothWrongSame: 0.05, pooledMajAtG: 0.6 }],
    medianStepMs: 100 * k,
    backend: 'wasm',
  };
}

/** The text of a result file as the CLIs write it: the spec with the first run's seed. */
function text(runs: RunSummary[], spec = quick): string {
  return JSON.stringify({ version: RESULT_FILE_VERSION, spec: { ...spec, seed: runs[0].seed }, runs });
}

/** The file as the references CLI reads it (parseResultFile). */
function file(runs: RunSummary[], spec = quick): ExperimentResultFile {
  const r = parseResultFile(text(runs, spec));
  if (!r.ok) throw new Error(r.error);
  return r.file;
}

function built(f: ExperimentResultFile) {
  const r = buildReference('quick', f, { source: 'quick.json', createdAt: new Date('2025-01-02T03:04:05Z') });
  if (!r.ok) throw new Error(r.error);
  return r.reference;
}
function refused(f: ExperimentResultFile, preset = 'quick'): string {
  const r = buildReference(preset, f, { source: 'quick.json' });
  if (r.ok) throw new Error('expected a refusal');
  expect(r.error).toMatch(/^quick\.json: /);
  return r.error;
}

describe('buildReference: seed means and sds', () => {
  const ref = built(file([run(1, 1), run(2, 3)]));
  const self = ref.arms.find((a) => a.id === 'self')!;
  const A = self.members.find((m) => m.id === 'A')!;

  it('names the preset, its spec and fingerprint, the seeds, steps and evaluation steps', () => {
    expect(ref).toMatchObject({ format: 'cohort-lab-reference', version: 1, preset: 'quick', seeds: [1, 2], backend: 'wasm', band: 'sd', decimals: 3, createdAt: '2025-01-02T03:04:05.000Z' });
    expect(ref.spec).toEqual(quick);
    expect(ref.fingerprint).toBe(referenceFingerprint(quick));
    expect(ref.steps).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ref.evalSteps).toEqual([3, 6]);
    expect(ref.arms.map((a) => a.id)).toEqual(['oracle', 'self', 'peer']);
    // Median of the seeds' median step times (100 and 300: the upper middle).
    expect(ref.medianStepMs).toBe(300);
  });

  it('per step: mean and sample sd over the seeds, rounded to 3 decimals', () => {
    // A's reward: seed 1 s/10, seed 2 3s/10 -> mean 2s/10 = 0.2s, sd sqrt(2) * 0.1s.
    expect(A.reward.mean).toEqual([0.2, 0.4, 0.6, 0.8, 1, 1.2]);
    expect(A.reward.sd).toEqual([1, 2, 3, 4, 5, 6].map((s) => Math.round(Math.SQRT2 * 0.1 * s * 1000) / 1000));
    expect(A.reward.sd[0]).toBe(0.141);
    expect(A.entropy.mean).toEqual(new Array(6).fill(2));
    const B = self.members.find((m) => m.id === 'B')!;
    expect(B.reward.mean[2]).toBe(0.3); // (3/20 + 9/20) / 2
  });

  it('eval metrics and the ensemble: one value per evaluation step', () => {
    expect(A.evalPassAt1.mean).toEqual([0.2, 0.2]);
    expect(A.evalMajAtG.mean).toEqual([0.4, 0.4]);
    expect(A.evalPassAt1.sd).toEqual([0.141, 0.141]);
    expect(self.ensembleMajAtG?.mean).toEqual([0.2, 0.2]);
  });

  it('pairs: agreement per step, kappa null where no seed defines it, held-out kappa per evaluation step', () => {
    const pair = self.pairs[0];
    expect(pair).toMatchObject({ a: 'A', b: 'B' });
    expect(pair.agreement.mean).toEqual(new Array(6).fill(0.2));
    expect(pair.kappa).toEqual({ mean: new Array(6).fill(null), sd: new Array(6).fill(null) });
    expect(pair.evalKappa.mean).toEqual([0.2, 0.2]);
    expect(pair.evalBothWrongSame.mean).toEqual([0.2, 0.2]);
  });

  it('the base evaluation: per member and pair', () => {
    expect(ref.base.members).toEqual([
      { id: 'A', passAt1: { mean: 0.2, sd: 0.141 }, majAtG: { mean: 0.5, sd: 0 } },
      { id: 'B', passAt1: { mean: 0.1, sd: 0.071 }, majAtG: { mean: 0.5, sd: 0 } },
    ]);
    expect(ref.base.pairs).toEqual([{ a: 'A', b: 'B', kappa: { mean: 0.1, sd: 0 }, bothWrongSame: { mean: 0.05, sd: 0 }, pooledMajAtG: { mean: 0.6, sd: 0 } }]);
  });

  it('a value some seeds lack (null, or NaN written as null) is the mean of the others; one seed has no sd', () => {
    const r = built(file([run(1, 1), run(2, 3, (id, step) => (id === 'A' && step === 2 ? { pseudoLabelAccuracy: null, reward: Number.NaN } : {}))]));
    const a = r.arms.find((x) => x.id === 'self')!.members[0];
    expect(a.pseudoLabelAccuracy.mean[1]).toBe(0.75);
    expect(a.pseudoLabelAccuracy.sd[1]).toBeNull();
    expect(a.reward.mean[1]).toBe(0.2); // seed 1 only: 2/10
    expect(a.reward.sd[1]).toBeNull();
  });

  it('any seed may be first: the file spec carries the first seed, the reference the preset spec', () => {
    const r = built(file([run(5, 1), run(9, 3)]));
    expect(r.seeds).toEqual([5, 9]);
    expect(r.spec.seed).toBe(quick.seed);
  });

  it('serialises small and reads back as the same reference', () => {
    const text = serializeReference(ref);
    const back = parseReference(text);
    expect(back.ok && back.reference).toEqual(ref);
    expect(text.length).toBeLessThan(20_000);
  });
});

describe('buildReference: refusals, in words', () => {
  it('a spec that differs from the preset in anything but the seed, naming the fields', () => {
    const f = file([run(1, 1)], { ...quick, grpo: { ...quick.grpo, learningRate: 0.001 } });
    expect(refused(f)).toContain('its spec differs from the shipped preset "quick" in grpo.learningRate: 0.0005 in the preset, 0.001 in the file (only the seed may differ)');
    const members = file([run(1, 1)], { ...quick, members: quick.members.map((m, i) => (i === 1 ? { ...m, initSeed: 5 } : m)) });
    expect(refused(members)).toContain('members.1.initSeed: 283 in the preset, 5 in the file');
  });

  it("another preset's result file", () => {
    const f = file([run(1, 1)]);
    expect(refused(f, 'collapse')).toMatch(/differs from the shipped preset "collapse" in .*steps: 80 in the preset, 6 in the file/);
  });

  it('runs that are not whole runs of the spec; files the result-file reader refuses never get here', () => {
    const short = run(2, 1);
    for (const arm of short.arms) for (const m of arm.members) m.history = m.history.slice(0, 4);
    expect(refused(file([run(1, 1), short]))).toContain('seed 2, arm oracle, member A: its steps are not 6 steps 1-6');
    const noArm = run(2, 1);
    noArm.arms = noArm.arms.filter((a) => a.id !== 'peer');
    expect(parseResultFile(text([run(1, 1), noArm]))).toMatchObject({ ok: false, error: expect.stringContaining('runs.1 (seed 2): its arms are [oracle, self]') });
    expect(parseResultFile(text([run(1, 1), run(1, 2)]))).toMatchObject({ ok: false, error: expect.stringContaining('seed 1 appears twice') });
    expect(buildReference('nope', file([run(1, 1)])).ok).toBe(false);
  });

  it('specDifferences is empty for the same spec with another seed', () => {
    expect(specDifferences(quick, { ...quick, seed: 99 })).toEqual([]);
  });
});

describe('the shipped references (public/references)', () => {
  it('each still matches its preset and its index entry (else: npm run references, see --check)', () => {
    const result = checkReferences();
    expect(result.problems).toEqual([]);
    expect(result.fine.length).toBeGreaterThan(0);
  });

  it('each is under 100 KB', () => {
    const dir = join(process.cwd(), 'public', 'references');
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { references: { file: string }[] };
    for (const r of index.references) expect(readFileSync(join(dir, r.file), 'utf8').length, r.file).toBeLessThan(100_000);
  });

  it('checkReferences: a reference made for an earlier version of its preset, a file not in the index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'refs-check-'));
    try {
      const ref = built(file([run(1, 1), run(2, 3)]));
      const old = { ...ref, spec: { ...ref.spec, steps: 5 }, steps: [1, 2, 3, 4, 5] };
      old.fingerprint = referenceFingerprint(old.spec);
      old.arms = [];
      // A valid file of an older quick (5 steps, no arms would be invalid: keep one arm cut to 5 steps).
      const cut = <T extends { mean: (number | null)[]; sd: (number | null)[] }>(s: T, n: number) => ({ mean: s.mean.slice(0, n), sd: s.sd.slice(0, n) });
      old.evalSteps = [3];
      old.arms = ref.arms.map((a) => ({
        ...a,
        members: a.members.map((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'string' ? v : cut(v, k.startsWith('eval') ? 1 : 5)]))) as typeof a.members,
        pairs: a.pairs.map((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : cut(v, k.startsWith('eval') ? 1 : 5)]))) as typeof a.pairs,
        ensembleMajAtG: a.ensembleMajAtG && cut(a.ensembleMajAtG, 1),
      }));
      const text = serializeReference(old);
      expect(parseReference(text).ok).toBe(true);
      writeFileSync(join(dir, 'quick.json'), text);
      writeFileSync(join(dir, 'stray.json'), '{}');
      writeFileSync(join(dir, 'index.json'), serializeReferenceIndex(nextIndex(null, [indexEntry(old, text)], () => true)));
      const result = checkReferences(dir);
      expect(result.ok).toBe(false);
      expect(result.problems.join('\n')).toContain('quick.json no longer matches preset "quick" (steps: 5 in the reference, 6 in the preset)');
      expect(result.problems.join('\n')).toContain('stray.json is not listed in index.json');
      expect(result.missing).toContain('collapse');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run references (the CLI)', () => {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const dir = mkdtempSync(join(tmpdir(), 'refs-cli-'));
  const cli = (...args: string[]) => spawnSync(tsx, ['cli/references/references.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes PRESET.json and the index from DIR/PRESET.json; --check passes on them', () => {
    writeFileSync(join(dir, 'quick.json'), text([run(1, 1), run(2, 3)]));
    const out = join(dir, 'out');
    const r = cli('--from', dir, '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`wrote ${join(out, 'quick.json')}: seeds 1, 2 on wasm, 6 steps`);
    const ref = parseReference(readFileSync(join(out, 'quick.json'), 'utf8'));
    expect(ref.ok && ref.reference.arms[1].members[0].reward.mean).toEqual([0.2, 0.4, 0.6, 0.8, 1, 1.2]);
    const check = cli('--check', '--out', out);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('quick: seeds 1, 2 on wasm');
  });

  it('refuses a result file of another spec with the reason, writes nothing, exits 1; bad flags exit 2', () => {
    const bad = join(dir, 'bad');
    const out = join(dir, 'out-bad');
    spawnSync('mkdir', ['-p', bad]);
    writeFileSync(join(bad, 'quick.json'), text([run(1, 1)], { ...quick, grpo: { ...quick.grpo, learningRate: 0.001 } }));
    const r = cli('--from', bad, '--out', out, '--preset', 'quick');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('refused: ');
    expect(r.stderr).toContain('grpo.learningRate: 0.0005 in the preset, 0.001 in the file');
    expect(r.stderr).toContain('nothing written');
    expect(existsSync(out)).toBe(false);
    expect(cli('--from', bad, '--preset', 'nope').status).toBe(2);
    expect(cli('--check', '--from', bad).status).toBe(2);
  });
});
