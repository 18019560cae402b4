import { targetBetweenSeeds } from '../../src/core/testing/retry-target';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, seedsFlag, UsageError } from '../common/args';
import { resolveSpec, resultFile, runSeed } from './experiment-lib';
import { layered, member } from '../../src/core/experiment/presets';
import type { ExperimentSpec, MemberSpec } from '../../src/core/experiment/spec';
import { useBackend } from '../../src/core/testing/fixed-policy';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const runCli = (...args: string[]) =>
  spawnSync(tsx, ['cli/experiment/experiment.ts', ...args], { encoding: 'utf8', timeout: 240_000 });

describe('experiment CLI arguments', () => {
  it('parses flags and rejects unknown ones', () => {
    const a = parseArgs(['--preset', 'quick', '--steps=3'], { preset: 'string', steps: 'string' });
    expect(a.flags.get('preset')).toBe('quick');
    expect(a.flags.get('steps')).toBe('3');
    expect(() => parseArgs(['--nope'], { preset: 'string' })).toThrow(/unknown flag --nope/);
    expect(() => parseArgs(['quick'], { preset: 'string' })).toThrow(UsageError);
    expect(() => parseArgs(['--preset'], { preset: 'string' })).toThrow(/needs a value/);
  });

  it('reads seeds strictly', () => {
    expect(seedsFlag(parseArgs(['--seeds', '1,2,3'], { seeds: 'string' }))).toEqual([1, 2, 3]);
    expect(() => seedsFlag(parseArgs(['--seeds', '1,,2'], { seeds: 'string' }))).toThrow(UsageError);
    expect(() => seedsFlag(parseArgs(['--seeds', '2,2'], { seeds: 'string' }))).toThrow(/repeated/);
  });

  it('resolves presets and spec files, naming what is wrong', () => {
    expect(resolveSpec('quick', undefined, 2).steps).toBe(2);
    expect(() => resolveSpec('nope', undefined)).toThrow(/unknown preset "nope"/);
    expect(() => resolveSpec(undefined, undefined)).toThrow(/exactly one of/);
    const dir = mkdtempSync(join(tmpdir(), 'cohort-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ not json');
    expect(() => resolveSpec(undefined, bad)).toThrow(/not valid JSON/);
    const quick = resolveSpec('quick', undefined);
    writeFileSync(bad, JSON.stringify({ ...quick, grpo: { ...quick.grpo, groupSize: 1000 } }));
    expect(() => resolveSpec(undefined, bad)).toThrow(/grpo\.groupSize/);
    writeFileSync(bad, JSON.stringify({ ...quick, arms: [{ id: 'p', scheme: 'peer', members: ['A'] }] }));
    expect(() => resolveSpec(undefined, bad)).toThrow(/peer reward needs exactly 2 members/);
  });
});

describe('experiment CLI end to end', () => {
  it('runs a preset and writes the documented JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-'));
    const out = join(dir, 'r.json');
    const r = runCli('--preset', 'quick', '--steps', '2', '--seeds', '4', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pass@1 start\/best\/end/);
    expect(r.stdout).toMatch(/median GRPO step \(all arms\): \d+ ms on wasm/);
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.version).toBe(2);
    expect(json.spec.steps).toBe(2);
    expect(json.runs[0].seed).toBe(4);
    const member = json.runs[0].arms[0].members[0];
    expect(Object.keys(member)).toEqual(expect.arrayContaining(['id', 'family', 'params', 'history']));
    const h = member.history[1];
    for (const k of ['step', 'reward', 'oracleReward', 'pseudoLabelAccuracy', 'rewardAccuracy', 'rewardGap', 'entropy', 'length', 'evalPassAt1', 'evalMajAtG']) {
      expect(h, k).toHaveProperty(k);
    }
  }, 240_000);

  it('exits with code 2 and one readable line on bad input', () => {
    for (const args of [['--preset', 'nope'], ['--preset', 'quick', '--steps', 'ten'], ['--backend', 'tpu', '--preset', 'quick'], ['--spec', '/no/such/file.json']]) {
      const r = runCli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: /);
    }
  }, 120_000);
});

describe('experiment CLI: the warm-start guard', () => {
  it('a member that misses its warm-start target: one line naming the seed and the member, exit 1, no table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-'));
    const file = join(dir, 'miss.json');
    const quick = resolveSpec('quick', undefined);
    const [a, ...rest] = quick.members;
    writeFileSync(file, JSON.stringify({ ...quick, members: [{ ...a, warmStartSteps: 3, warmStartTarget: 0.99 }, ...rest] }));
    const r = runCli('--spec', file, '--seeds', '3');
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      /^error: seed 3: member A did not reach its warm-start target 0\.99 in 3 steps \(best [^)]+\): give it more warm-start steps, a lower target or another initSeed, or set warmStart\.onMiss to 'retry'$/,
    );
    expect(r.stdout).not.toMatch(/pass@1/);
  }, 120_000);

  it('a run whose loss becomes NaN: one line with the seed and the explanation, exit 1, no table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cohort-'));
    const file = join(dir, 'blowup.json');
    const quick = resolveSpec('quick', undefined);
    writeFileSync(file, JSON.stringify({ ...quick, grpo: { ...quick.grpo, learningRate: 0.05, beta: 1, temperature: 0.1 } }));
    const r = runCli('--spec', file);
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^error: seed \d+: The (loss|gradient norm) of member \w+ in arm \w+ became (NaN|Infinity|-Infinity) at step \d+\. This usually means the learning rate \(5e-2\) is too high/);
    expect(r.stdout).not.toMatch(/pass@1/);
  }, 120_000);

  describe('on wasm', () => {
    beforeAll(() => useBackend('wasm'));

    it("the results JSON names a member that was retried (warmStart.onMiss 'retry')", async () => {
      const mlp = (initSeed: number, warmStartTarget: number): MemberSpec =>
        member({ id: 'A', family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 3, warmStartTarget, warmStartExamples: 120, initSeed });
      const spec = (m: MemberSpec): ExperimentSpec =>
        layered({
          seed: 5,
          task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
          data: { labeledPool: 160, rlPool: 100, heldOut: 16 },
          warmStart: { batchSize: 32, learningRate: 1e-2, onMiss: 'retry', retries: 1 },
          members: [m],
          arms: [{ id: 'self', scheme: 'self', members: ['A'] }],
          grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
          steps: 1,
          evalEvery: 1,
        });
      // A target the first init seed misses and the next one reaches (their best values differ).
      const { first, target } = await targetBetweenSeeds((initSeed, t) => spec(mlp(initSeed, t)));
      expect(target, 'two seeds in 1..8 whose best values differ').not.toBeNaN();
      const s = spec(mlp(first, target));
      const summary = await runSeed(s, 'wasm');
      const json = JSON.parse(JSON.stringify(resultFile(s, [summary])));
      expect(json.runs[0].members).toEqual([
        expect.objectContaining({ id: 'A', warmStartReached: true, warmStartInitSeed: first + 1, warmStartRetries: 1, warmStartSource: 'trained' }),
      ]);
    }, 120_000);
  });
});
