import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPreset } from '../../src/core/experiment/presets';
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import { blockOf, PLAN, planCommand, planEntryOf, seedRange } from './science-plan';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const science = (...args: string[]) => spawnSync(tsx, ['cli/science/science.ts', ...args], { encoding: 'utf8', timeout: 120_000 });

/** 80 steps of the ring preset's arms, held-out pass@1 every 10 steps: the ring arm ends at `ring`, self at 0.2. */
function ringRun(seed: number, ring: number): RunSummary {
  const spec = getPreset('ring')!.spec;
  const history = (end: number): MemberHistoryEntry[] =>
    Array.from({ length: 80 }, (_, i) => ({
      step: i + 1, reward: 0.5, oracleReward: 0.4, pseudoLabelAccuracy: 0.5, rewardAccuracy: 0.5, rewardGap: 0.1,
      ownVoteAccuracy: 0.5, rescueRate: 0.2, misleadRate: 0.1, sharedErrorRate: 0.2, labeledFraction: 1, majorityRatio: 0.5, tieRate: 0,
      entropy: 0.3, length: 6, capFraction: 0, malformedFraction: 0, rewardStd: 0.3, zeroStdFraction: 0.1, supervisionContainsTruth: 0.5,
      topAnswerShare: 0.2, loss: 0, kl: null, clipFraction: 0, gradNorm: 1,
      ...((i + 1) % 10 === 0 ? { evalPassAt1: 0.44 + ((end - 0.44) * (i + 1)) / 80, evalMajAtG: 0.6 } : {}),
    }));
  return {
    seed,
    arms: spec.arms.map((a) => ({
      id: a.id,
      scheme: a.scheme,
      members: a.members.map((id) => ({ id, family: 'mlp', params: 1, history: history(a.id === 'ring' ? ring : 0.2), collapseStep: null })),
      pairs: [],
      ensemble: [],
    })),
    base: spec.members.map((m) => ({ memberId: m.id, passAt1: 0.44, majAtG: 0.6 })),
    baseKappa: [],
    medianStepMs: 1,
    backend: 'wasm',
  };
}

const save = (path: string, runs: RunSummary[]) => writeFileSync(path, JSON.stringify({ version: 2, spec: getPreset('ring')!.spec, runs }));

describe('the science plan', () => {
  it('names each entry by the block key its command writes, with one command per block', () => {
    expect(PLAN.map((e) => e.id)).toEqual(['collapse+diversity', 'peers-learn', 'peers-teach', 'length', 'families', 'ring', 'intrinsic', 'overlap']);
    // The overlap plan: seeds 1-4 first, then a block of 12 fresh seeds (docs/PREREG-overlap.md).
    const overlap = PLAN.find((e) => e.id === 'overlap')!;
    expect(planCommand(overlap, 'tuning', 'save')).toBe('npm run science -- --overlap overlap --seeds 1-4 --save results/');
    expect(planCommand(overlap, 'confirmation', 'save')).toBe('npm run science -- --overlap overlap --seeds 201-212 --block confirmation --save results/');
    expect(planEntryOf(['overlap'])).toBe(overlap);
    const [collapse, peersLearn] = PLAN;
    expect(planCommand(collapse, 'tuning', 'save')).toBe('npm run science -- --save results/');
    expect(planCommand(collapse, 'confirmation', 'save')).toBe('npm run science -- --block confirmation --save results/');
    // A preset retuned after its first confirmation block is confirmed on fresh seeds.
    expect(planCommand(peersLearn, 'confirmation', 'save')).toBe(
      'npm run science -- --preset peers-learn --claims a,early,b,learns,oracle,truth,d --seeds 109-116 --block confirmation --save results/',
    );
    expect(planEntryOf(['peers-learn'])).toBe(peersLearn);
    expect(planEntryOf(['collapse', 'diversity'])).toBe(collapse);
    expect(planCommand(PLAN.find((e) => e.id === 'families')!, 'tuning', 'check')).toBe('npm run science -- --diversity families --claims c --seeds 1-3,5-9 --from results/ --check docs/RESULTS.md');
    expect(seedRange([101, 102, 103, 104, 105, 106, 107, 108])).toBe('101-108');
    expect(seedRange([1, 3, 4])).toBe('1,3-4');
    expect([blockOf([1, 2, 3, 4, 5, 6, 7, 8]), blockOf([101, 102, 103, 104, 105, 106, 107, 108]), blockOf([6, 7, 8])]).toEqual(['tuning', 'confirmation', null]);
  });

  it('docs/RESULTS.md lists every command of the plan, both blocks', () => {
    const results = readFileSync('docs/RESULTS.md', 'utf8');
    for (const e of PLAN) for (const block of ['tuning', 'confirmation'] as const) expect(results).toContain(planCommand(e, block, 'save'));
  });
});

describe('npm run science on saved results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'science-'));
  // Tuning seeds 1-8: the ring ends 0.26-0.33 above self; confirmation: only seeds 101 and 102.
  save(join(dir, 'ring.json'), [1, 2, 3, 4, 5, 6, 7, 8].map((s) => ringRun(s, 0.46 + 0.01 * (s % 4))));
  mkdirSync(join(dir, 'confirmation'));
  save(join(dir, 'confirmation', 'ring.json'), [ringRun(101, 0.5), ringRun(102, 0.45)]);
  const doc = join(dir, 'RESULTS.md');
  writeFileSync(doc, '# results\n');

  it('prints verdicts and Holm verdicts, writes both blocks and checks them word for word', () => {
    const w = science('--preset', 'ring', '--compare', 'ring:self', '--from', dir, '--write', doc);
    expect(w.status, w.stderr).toBe(0);
    expect(w.stdout).toMatch(/^\(ring vs self\) SHOWN: arm ring ends above arm self \[ring, seeds 1,2,3,4,5,6,7,8; /m);
    expect(w.stdout).toMatch(/^ {2}\(ring vs self\) HOLM SHOWN \[ring, seeds 1,2,3,4,5,6,7,8; family of 1 claim; p < 0\.0001, Holm-adjusted p < 0\.0001\]$/m);
    const text = readFileSync(doc, 'utf8');
    expect(text).toContain('<!-- science:ring -->');
    expect(text).toContain('<!-- science:ring/holm -->');
    const c = science('--preset', 'ring', '--compare', 'ring:self', '--from', dir, '--check', doc);
    expect(c.status, c.stdout).toBe(0);
    expect(c.stdout).toContain('quotes the block ring/holm word for word');
    writeFileSync(doc, text.replace('HOLM SHOWN', 'HOLM NOT SHOWN'));
    const d = science('--preset', 'ring', '--compare', 'ring:self', '--from', dir, '--check', doc);
    expect(d.status).toBe(1);
    expect(d.stdout).toContain('differs from the block ring/holm');
  });

  it('summarises both blocks, and confirms nothing until every confirmation seed is in', () => {
    const r = science('--summary', '--from', dir);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n');
    // Only the ring's results are saved: one row, the other entries have none.
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(
      /^\| \(ring vs self\) arm ring ends above arm self \| ring \| \+0\.\d\d \[\+0\.\d\d, \+0\.\d\d\] SHOWN; Holm SHOWN \(seeds 1-8\) \| \+0\.\d\d \[.*\] NOT SHOWN; Holm NOT SHOWN \(seeds 101-102\) \| not confirmed \(2 of 8 confirmation seeds run\) \|$/,
    );
  });
});
