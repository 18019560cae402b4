/**
 * npm run export: arguments (one line and exit code 2 on every user error), and the files it
 * writes are the builder's, which the browser's button zips (src/export/trl/build.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../common/args';
import { exportFromArgs, writeProject } from './export';
import { getPreset } from '../../src/core/experiment/presets';
import { buildTrlZip } from '../../src/export/trl/browser';
import { readZipStore } from '../../src/export/zip';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const runCli = (...args: string[]) => spawnSync(tsx, ['cli/trl/export.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
const QWEN = 'Qwen/Qwen2.5-0.5B-Instruct';
const LLAMA = 'meta-llama/Llama-3.2-1B-Instruct';
const tmp = () => mkdtempSync(join(tmpdir(), 'cohort-export-'));

describe('export CLI arguments', () => {
  it('names what is wrong in one line', () => {
    const err = (argv: string[]) => {
      try {
        exportFromArgs(argv);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error(`no error for ${argv.join(' ')}`);
    };
    const out = ['--out', join(tmp(), 'p')];
    expect(err(['--preset', 'collapse', '--model', QWEN, ...out])).toMatch(/--to is needed: --to trl/);
    expect(err(['--preset', 'collapse', '--to', 'verl', '--model', QWEN, ...out])).toMatch(/--to must be one of trl, got "verl"/);
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', QWEN])).toMatch(/--out DIR is needed/);
    expect(err(['--preset', 'collapse', '--to', 'trl', ...out])).toBe('give one model per member (A, B): --model A=HF_ID --model B=HF_ID ...');
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', QWEN, ...out])).toBe('the experiment has 2 members (A, B) and 1 model id was given: give one per member, in that order');
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', QWEN, '--model', 'bad id', ...out])).toMatch(/member B: "bad id" is not a Hugging Face model id/);
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', `A=${QWEN}`, '--model', 'B=bad id', ...out])).toMatch(/member B: "bad id" is not a Hugging Face model id/);
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', `A=${QWEN}`, ...out])).toBe('--model: no model for member B (give --model B=HF_ID)');
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', `A=${QWEN}`, '--model', `C=${LLAMA}`, ...out])).toBe(`--model C=${LLAMA}: the experiment has no member "C" (members: A, B)`);
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', `A=${QWEN}`, '--model', `A=${LLAMA}`, ...out])).toBe('--model: member A is given twice');
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', `A=${QWEN}`, '--model', LLAMA, ...out])).toMatch(/not a mix/);
    expect(err(['--preset', 'collapse', '--to', 'trl', '--model', ...out])).toBe('--model needs a value');
    expect(err(['--preset', 'nope', '--to', 'trl', '--model', QWEN, ...out])).toMatch(/unknown preset "nope"/);
    expect(err(['--to', 'trl', '--model', QWEN, ...out])).toMatch(/exactly one of --preset NAME or --spec FILE/);
    const bad = join(tmp(), 'bad.json');
    const quick = getPreset('quick')!.spec;
    writeFileSync(bad, JSON.stringify({ ...quick, arms: [{ id: 'p', scheme: 'ring', members: ['A', 'B'] }] }));
    expect(err(['--spec', bad, '--to', 'trl', '--model', QWEN, '--model', QWEN, ...out])).toMatch(/not a valid experiment spec: .*ring reward needs at least 3 members/);
    writeFileSync(bad, '{"__proto__": {"x": 1}, "version": 1');
    expect(err(['--spec', bad, '--to', 'trl', '--model', QWEN, ...out])).toMatch(/is not valid JSON/);
  });

  it('refuses the retired --model-b ... flags with the command in the new form', () => {
    const argv = ['--preset', 'ring', '--to', 'trl', '--model', QWEN, '--model-b', LLAMA, '--model-c=HuggingFaceTB/SmolLM2-135M-Instruct', '--out', join(tmp(), 'p')];
    expect(() => exportFromArgs(argv)).toThrow(
      `--model-b, --model-c are no longer a flag: name each member's model with --model MEMBER=ID, here --model A=${QWEN} --model B=${LLAMA} --model C=HuggingFaceTB/SmolLM2-135M-Instruct`,
    );
    expect(() => exportFromArgs(['--preset', 'collapse', '--to', 'trl', '--model-b', LLAMA, '--out', join(tmp(), 'p')])).toThrow(/^--model-b is no longer a flag: .* here --model B=/);
  });

  it('maps --model MEMBER=ID by member id, in any order, or bare --model ids in member order', () => {
    const small = 'HuggingFaceTB/SmolLM2-135M-Instruct';
    const byId = exportFromArgs(['--preset', 'ring', '--to', 'trl', '--model', `C=${small}`, '--model', `A=${QWEN}`, `--model=B=${LLAMA}`, '--out', join(tmp(), 'p')])!;
    expect(JSON.parse(byId.built.files.find((f) => f.path === 'config.json')!.text).members.map((m: { model: string }) => m.model)).toEqual([QWEN, LLAMA, small]);
    const dir = join(tmp(), 'proj');
    const r = exportFromArgs(['--preset', 'ring', '--to', 'trl', '--model', QWEN, '--model', LLAMA, '--model', small, '--out', dir])!;
    writeProject(r.out, r.built, r.force);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.members.map((m: { model: string }) => m.model)).toEqual([QWEN, LLAMA, 'HuggingFaceTB/SmolLM2-135M-Instruct']);
    expect(statSync(join(dir, 'launch.sh')).mode & 0o111).not.toBe(0);
    // The same files the lab's button zips for the same experiment and models.
    const zip = buildTrlZip(getPreset('ring')!.spec, [QWEN, LLAMA, 'HuggingFaceTB/SmolLM2-135M-Instruct'], 'ring');
    for (const e of readZipStore(zip.bytes)) {
      const rel = e.path.split('/').slice(1).join('/');
      expect(readFileSync(join(dir, rel), 'utf8'), rel).toBe(new TextDecoder().decode(e.data));
    }
    expect(() => writeProject(r.out, r.built, false)).toThrow(/is not empty \(add --force/);
    // A local checkpoint folder: a relative one is written as an absolute path (the project runs from its own folder).
    const local = exportFromArgs(['--preset', 'collapse', '--to', 'trl', '--model', 'A=./tiny/A', '--model', 'B=/models/tiny-B', '--out', join(tmp(), 'l')])!;
    const models = JSON.parse(local.built.files.find((f) => f.path === 'config.json')!.text).members.map((m: { model: string }) => m.model);
    expect(models).toEqual([resolve('./tiny/A'), '/models/tiny-B']);
    expect(() => exportFromArgs(['--preset', 'collapse', '--to', 'trl', '--model', 'A=./a b', '--model', 'B=./b', '--out', join(tmp(), 'm')])).toThrow(/member A: .* not a usable local model path/);
    expect(() => writeProject(r.out, r.built, true)).not.toThrow();
  });
});

describe('export CLI end to end', () => {
  it('exits 0 and says what it wrote; exits 2 with one line on a bad model count', () => {
    const dir = join(tmp(), 'p');
    const ok = runCli('--preset', 'intrinsic', '--to', 'trl', '--model', `A=${QWEN}`, '--model', `B=${QWEN}`, '--out', dir);
    expect(ok.status, ok.stderr).toBe(0);
    // Two members of one model: the CLI says what still tells them apart.
    expect(ok.stderr).toMatch(/^note: members A and B share the model Qwen\/Qwen2\.5-0\.5B-Instruct: they start from the same weights and differ only by their sampling seeds/m);
    expect(ok.stdout).toMatch(/^wrote 18 files to .*: a TRL project for arm peer \(not run here\)/);
    expect(ok.stderr).toMatch(/note: arm entropy is not exported/);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toMatch(/has run\nwith it for real on CPU, with tiny models .*; it has not been run on a\nGPU/);
    const bad = runCli('--preset', 'collapse', '--to', 'trl', '--model', QWEN, '--out', join(tmp(), 'q'));
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual(['error: the experiment has 2 members (A, B) and 1 model id was given: give one per member, in that order (npm run export -- --help)']);
    const help = runCli('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/usage: npm run export -- \(--preset NAME \| --spec FILE\.json\) --to trl --model A=MODEL --model B=MODEL/);
    expect(help.stdout).toMatch(/a Hugging Face id .* or a local checkpoint folder/);
  });
});
