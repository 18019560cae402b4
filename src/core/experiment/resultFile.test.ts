/**
 * The result file format (resultFile.ts): the current version reads back as written, version 1
 * is migrated as the readers read it, anything else is one line in words. (The committed files of
 * every earlier writer, and the tables they give: cli/science/resultFiles.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { MemberHistoryEntry, RunSummary } from './events';
import { PRESETS } from './presets';
import { parseResultFile, RESULT_FILE_VERSION } from './resultFile';

/** The quick preset with a self arm and an entropy (intrinsic) arm, 2 steps. */
const spec = {
  ...structuredClone(PRESETS.quick.spec),
  steps: 2,
  arms: [
    { id: 'self', scheme: 'self' as const, members: ['A', 'B'], tau: 0 },
    { id: 'entropy', scheme: 'entropy' as const, members: ['A'], tau: 0 },
  ],
};

function entry(step: number, over: Partial<MemberHistoryEntry> = {}): MemberHistoryEntry {
  return {
    step,
    reward: 0.5, oracleReward: 0.4, pseudoLabelAccuracy: 0.6, rewardAccuracy: 0.8, rewardGap: 0.1,
    ownVoteAccuracy: 0.7, rescueRate: 0.2, misleadRate: 0.1, sharedErrorRate: 0.3,
    labeledFraction: 1, majorityRatio: 0.6, tieRate: 0, entropy: 0.3, length: 6, capFraction: 0, malformedFraction: 0,
    rewardStd: 0.4, zeroStdFraction: 0.1, supervisionContainsTruth: 0.9, topAnswerShare: 0.2, loss: 0.01, kl: null,
    clipFraction: 0, gradNorm: 0.5,
    ...(step === 2 ? { evalPassAt1: 0.45, evalMajAtG: 0.6 } : {}),
    ...over,
  };
}

function run(seed: number): RunSummary {
  return {
    seed,
    arms: spec.arms.map((a) => ({
      id: a.id,
      scheme: a.scheme,
      // The intrinsic schemes have no 0-1 reward accuracy or gap (null since 069209e).
      members: a.members.map((id) => ({ id, family: 'mlp', params: 31122, history: [1, 2].map((s) => entry(s, a.scheme === 'entropy' ? { rewardAccuracy: null, rewardGap: null } : {})), collapseStep: null })),
      pairs: a.members.length === 2 ? [1, 2].map((step) => ({ step, a: 'A', b: 'B', agreement: 0.5, kappa: 0.1, bothWrongSame: 0.05 })) : [],
      ensemble: a.members.length === 2 ? [{ step: 2, majAtG: 0.7 }] : [],
    })),
    base: [{ memberId: 'A', passAt1: 0.44, majAtG: 0.64, warmStartSteps: 63 }, { memberId: 'B', passAt1: 0.5, majAtG: 0.63, warmStartSteps: 68 }],
    baseKappa: [{ a: 'A', b: 'B', kappa: 0.03, bothWrongSame: 0.02, passCorrelation: 0.13, pooledMajAtG: 0.84 }],
    medianStepMs: 1800,
    backend: 'wasm',
  };
}

type Doc = { version: number; spec: unknown; runs: RunSummary[] };
const doc = (over: Partial<Doc> = {}): Doc => ({ version: RESULT_FILE_VERSION, spec: { ...spec, seed: 1 }, runs: [run(1), run(2)], ...over });
const text = (d: unknown) => JSON.stringify(d);

function ok(t: string) {
  const r = parseResultFile(t);
  if (!r.ok) throw new Error(r.error);
  return r.file;
}
function error(t: string): string {
  const r = parseResultFile(t);
  if (r.ok) throw new Error('expected a refusal');
  expect(r.error).not.toContain('\n');
  return r.error;
}

/**
 * As the first writer (b1c478b) wrote a history entry: no mechanism metrics, KL 0 where beta was
 * 0, a number for the reward accuracy and gap of every scheme.
 */
function firstWriter(d: Doc): Doc {
  for (const r of d.runs) {
    for (const a of r.arms) {
      for (const m of a.members) {
        m.history = m.history.map(({ ownVoteAccuracy: _o, rescueRate: _r, misleadRate: _m, sharedErrorRate: _s, ...h }) => ({ ...h, kl: 0, rewardAccuracy: 0.8, rewardGap: 0.1 }) as MemberHistoryEntry);
      }
    }
    r.baseKappa = r.baseKappa.map(({ a, b, kappa, bothWrongSame }) => ({ a, b, kappa, bothWrongSame }));
  }
  return { ...d, version: 1 };
}

describe('result files: the current version', () => {
  it('reads back what the writer writes, NaN written as null read back as NaN', () => {
    const d = doc();
    d.runs[0].arms[0].members[0].history[0].reward = Number.NaN; // JSON.stringify writes null
    const file = ok(text(d));
    expect(file.version).toBe(2);
    expect(file.runs.map((r) => r.seed)).toEqual([1, 2]);
    expect(file.runs[0].arms[0].members[0].history[0].reward).toBeNaN();
    expect(file.runs[1]).toEqual(run(2));
  });

  it('refuses a newer version, and an old one no migration reads, saying which it is and which this reads', () => {
    expect(error(text(doc({ version: 3 })))).toBe('it was made by a newer Cohort Lab (result file format v3; this version reads up to v2). Update Cohort Lab to read it');
    expect(error(text(doc({ version: 0 })))).toBe('result file format v0 is no longer supported (this version reads v2)');
    expect(error(text(doc({ version: '2' as never })))).toBe('its format version "2" is not a whole number');
  });

  it('refuses what is not a result file, or holds invalid values, in one line naming the field', () => {
    expect(error('{"version": 2, "runs": [')).toBe('it is not valid JSON (cut short, or not a result file)');
    expect(error('[1, 2]')).toMatch(/^it is not a result file \(expected \{"version": 2/);
    expect(error(text({ format: 'cohort-lab-run', version: 1 }))).toMatch(/^it is not a result file/);
    expect(error(text(doc({ runs: [] })))).toBe('it holds invalid values: runs: a result file holds at least one run');
    const seedless = doc();
    (seedless.runs[1] as { seed: unknown }).seed = null;
    expect(error(text(seedless))).toMatch(/^it holds invalid values: runs\.1\.seed: /);
    const spec2 = doc({ spec: { ...spec, grpo: { ...spec.grpo, groupSize: 1000 } } });
    expect(error(text(spec2))).toMatch(/^it holds invalid values: spec\.grpo\.groupSize: /);
    expect(error(text(doc({ spec: { ...spec, version: 9 } })))).toMatch(/its experiment was written by a newer Cohort Lab \(spec version 9/);
  });

  it('refuses runs that are not runs of its spec', () => {
    const twice = doc({ runs: [run(1), run(1)] });
    expect(error(text(twice))).toBe('runs.1 (seed 1): seed 1 appears twice');
    const noArm = doc();
    noArm.runs[1].arms.pop();
    expect(error(text(noArm))).toBe("runs.1 (seed 2): its arms are [self], the experiment's [self, entropy]");
    const stranger = doc();
    stranger.runs[0].arms[0].members[1].id = 'C';
    expect(error(text(stranger))).toBe('runs.0 (seed 1): arm self has members [A, C], the experiment [A, B]');
    const late = doc();
    late.runs[0].arms[1].members[0].history[1].step = 3;
    expect(error(text(late))).toBe('runs.0 (seed 1): arm entropy, member A: step 3 is out of order or outside 1-2');
    const base = doc();
    base.runs[0].baseKappa[0].b = 'Z';
    expect(error(text(base))).toBe('runs.0 (seed 1): its base evaluation names member "Z", which the experiment does not have');
  });
});

describe('result files: version 1, migrated', () => {
  it('a late version 1 (the fields of 2) reads as 2', () => {
    expect(ok(text({ ...doc(), version: 1 }))).toEqual(ok(text(doc())));
  });

  it('the first writer: mechanism metrics not measured (NaN), KL not computed (null), intrinsic arms without reward accuracy', () => {
    const file = ok(text(firstWriter(doc())));
    expect(file.version).toBe(2);
    const self = file.runs[0].arms[0].members[0].history[1];
    expect(self.ownVoteAccuracy).toBeNaN();
    expect([self.rescueRate, self.misleadRate, self.sharedErrorRate, self.kl]).toEqual([null, null, null, null]);
    expect([self.rewardAccuracy, self.rewardGap]).toEqual([0.8, 0.1]);
    const entropy = file.runs[1].arms[1].members[0].history[0];
    expect([entropy.rewardAccuracy, entropy.rewardGap]).toEqual([null, null]);
    expect(file.runs[0].baseKappa[0].pooledMajAtG).toBeUndefined();
  });

  it('keeps a KL of 0 that was computed (beta > 0)', () => {
    const d = firstWriter(doc({ spec: { ...spec, seed: 1, grpo: { ...spec.grpo, beta: 0.05 } } }));
    expect(ok(text(d)).runs[0].arms[0].members[0].history[0].kl).toBe(0);
  });
});
