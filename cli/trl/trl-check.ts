/**
 * npm run trl-check -- [flags]: the TRL export run for real, on CPU, with tiny models. Opt-in (not
 * part of npm test): it installs several GB of Python packages the first time.
 *
 *   1. a venv (--venv, default .venv-trl) with the export's pinned requirements, reused when it
 *      has them, else made and installed with pip (timed, its size measured);
 *   2. the fake TRL's surface against the installed TRL's classes (pytests/test_trl_surface.py);
 *   3. per seed: the preset exported with `npm run export`'s code, each member a local folder;
 *      a tiny GPT-2 per member built offline and warm-started to the spec's target
 *      (src/export/trl/check/tiny_lab.py); then the exported launch.sh for every arm, each member
 *      of an arm its own process, exchanging labels through the rendezvous, on CPU;
 *   4. per arm: held-out pass@1 at the start and the end, the reward, the pseudo-label accuracy,
 *      seconds per step; with two seeds or more, the lab's verdicts (paired difference over seeds).
 *
 *   --preset NAME    the experiment (default peers-learn)
 *   --seeds LIST     experiment seeds (default: three, from the preset's own seed: 110,111,112 for peers-learn)
 *   --arms LIST      arms to run (default: every exported arm)
 *   --steps N        RL steps per arm (default: the spec's)
 *   --models KIND    tiny (default): a tiny GPT-2 per member, built and warm-started in Python
 *                    (check/tiny_lab.py); lab: the lab's own members (lab_models.py, the windowed
 *                    MLP) with the lab's warm-started weights for the seed (public/warmstarts and
 *                    its room folder, else trained here on wasm as the lab would), prompts after
 *                    the lab's BOS (--prompt_style lab_bos)
 *   --venv DIR       the venv (default .venv-trl)
 *   --torch-index URL  install torch from this index first (https://download.pytorch.org/whl/cpu: the
 *                    CPU wheel, without the CUDA libraries of PyPI's Linux wheel)
 *   --no-install     use the venv as it is; skip (one line) when it lacks the pinned packages
 *   --work DIR       keep the exports, models and runs there (default: a temporary folder, removed)
 *   --out FILE.json  write the figures as JSON
 *
 * Exit code: 0 done or skipped (one line saying what and why), 1 a step failed, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { choiceFlag, intFlag, parseArgs, runMain, seedsFlag, UsageError } from '../common/args';
import { resolveSpec } from '../experiment/experiment-lib';
import { exportFromArgs, writeProject } from './export';
import { labWarmStartFile } from './trl-check-models';
import { armTable, ensureVenv, installedVersions, memberFigures, verdictLines, type ArmFigures, type LogEntry, type WarmStart } from './trl-check-lib';
import { getTask } from '../../src/core/tasks/index';
import { VOCAB } from '../../src/core/tasks/tokenizer';

const FLAGS = {
  preset: 'string',
  seeds: 'string',
  arms: 'string',
  steps: 'string',
  models: 'string',
  venv: 'string',
  'torch-index': 'string',
  'no-install': 'boolean',
  work: 'string',
  out: 'string',
  help: 'boolean',
} as const;

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const CHECK = join(ROOT, 'src/export/trl/check');
const PYTESTS = join(ROOT, 'src/export/trl/pytests');

/** Environment of every Python step: offline, one thread per process (members run side by side). */
function pyEnv(venv: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}`,
    HF_HUB_OFFLINE: '1',
    HF_DATASETS_OFFLINE: '1',
    TRANSFORMERS_OFFLINE: '1',
    OMP_NUM_THREADS: '1',
    TOKENIZERS_PARALLELISM: 'false',
    PYTHONDONTWRITEBYTECODE: '1',
    WANDB_DISABLED: 'true',
  };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, what: string): { stdout: string; seconds: number } {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = (Date.now() - t0) / 1000;
  if (r.status !== 0) {
    const tail = (r.stderr || r.stdout || '').trim().split('\n').slice(-12).join('\n');
    throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${tail}`);
  }
  return { stdout: r.stdout, seconds };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log('usage: npm run trl-check -- [--preset peers-learn] [--seeds 110] [--arms oracle,self,peer] [--steps N] [--models tiny|lab] [--venv .venv-trl] [--torch-index URL] [--no-install] [--work DIR] [--out FILE.json]');
    return;
  }
  const presetId = String(args.flags.get('preset') ?? 'peers-learn');
  const base = resolveSpec(presetId, undefined);
  const seeds = seedsFlag(args) ?? [base.seed, base.seed + 1, base.seed + 2];
  const steps = intFlag(args, 'steps', 1, 100_000) ?? base.steps;
  const models = choiceFlag(args, 'models', ['tiny', 'lab'] as const) ?? 'tiny';
  if (models === 'lab' && base.members.some((m) => m.family !== 'mlp')) throw new UsageError(`--models lab exports the lab's MLP members; ${presetId} has ${base.members.map((m) => `${m.id} (${m.family})`).join(', ')}`);
  const venv = resolve(String(args.flags.get('venv') ?? join(ROOT, '.venv-trl')));

  const torchIndex = args.flags.has('torch-index') ? String(args.flags.get('torch-index')) : undefined;
  if (torchIndex !== undefined && !/^https?:\/\/\S+$/.test(torchIndex)) throw new UsageError(`--torch-index must be an http(s) URL, got "${torchIndex.slice(0, 80)}"`);
  const state = ensureVenv(venv, !args.flags.has('no-install'), (l) => console.log(l), torchIndex);
  if ('skipped' in state) {
    console.log(`trl-check ${state.skipped}`);
    return;
  }
  if (state.installed) console.log(`installed in ${state.seconds.toFixed(0)} s, ${(state.bytes / 2 ** 30).toFixed(1)} GiB in ${venv}`);
  const env = pyEnv(venv);
  const work = args.flags.has('work') ? resolve(String(args.flags.get('work'))) : mkdtempSync(join(tmpdir(), 'trl-check-'));
  mkdirSync(work, { recursive: true });
  const figures: ArmFigures[] = [];
  const warmStarts: WarmStart[] = [];
  const installs = state.installed ? { seconds: state.seconds, bytes: state.bytes, torchIndex: torchIndex ?? null } : null;
  const started = Date.now();
  const python = spawnSync(state.python, ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).stdout.trim();
  const versions = installedVersions(state.python);
  /** The figures so far as JSON (--out): written after every arm, so a stopped run keeps the arms it finished. */
  const writeOut = (): string => {
    const out = resolve(String(args.flags.get('out')));
    const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', os: `${process.platform} ${release()} ${process.arch}`, python, node: process.version };
    const result = { preset: presetId, models, seeds, steps, date: new Date().toISOString().slice(0, 10), machine, versions, install: installs, wallSeconds: (Date.now() - started) / 1000, totalSeconds: process.uptime(), warmStarts, figures };
    writeFileSync(out, JSON.stringify(result, null, 1) + '\n');
    return out;
  };
  try {
    writeFileSync(join(work, 'vocab.json'), JSON.stringify(VOCAB));
    for (const seed of seeds) {
      const dir = join(work, `seed-${seed}`);
      const exportDir = join(dir, 'export');
      const modelDir = join(dir, 'models');
      const specFile = join(dir, 'spec.json');
      mkdirSync(dir, { recursive: true });
      writeFileSync(specFile, JSON.stringify({ ...base, seed }, null, 2));
      const memberIds = base.members.map((m) => m.id);
      const exported = exportFromArgs(['--spec', specFile, '--to', 'trl', ...memberIds.flatMap((id) => ['--model', `${id}=${join(modelDir, id)}`]), '--out', exportDir])!;
      writeProject(exported.out, exported.built, true);
      if (seed === seeds[0]) {
        run(state.python, ['-m', 'unittest', '-v', 'test_trl_surface'], PYTESTS, { ...env, COHORT_EXPORT_DIR: exportDir }, 'the fake TRL against the installed TRL (test_trl_surface)');
        console.log('the fake TRL matches the installed TRL\'s classes (test_trl_surface)');
      }
      const seedSpec = { ...base, seed };
      const tiny =
        models === 'lab'
          ? run(state.python, [join(CHECK, 'lab_members.py'), exportDir, modelDir, '--vocab', join(work, 'vocab.json'), ...(await Promise.all(base.members.map(async (m) => ['--member', `${m.id}=${await labWarmStartFile(seedSpec, m, join(work, 'warmstarts'), (l) => console.log(l))}`]))).flat()], dir, env, "the lab's members and their warm starts (lab_members.py)")
          : run(state.python, [join(CHECK, 'tiny_lab.py'), exportDir, modelDir, '--vocab', join(work, 'vocab.json')], dir, env, 'tiny models and their warm start (tiny_lab.py)');
      for (const line of tiny.stdout.trim().split('\n')) {
        const m = JSON.parse(line) as { member: string; reached: boolean; warm_steps: number; validation: number; target: number; parameters: number; attempts: number; seconds: number };
        warmStarts.push({ seed, member: m.member, parameters: m.parameters, steps: m.warm_steps, validation: m.validation, target: m.target, seconds: m.seconds });
        console.log(`seed ${seed} member ${m.member}: ${m.parameters} parameters, warm start ${m.warm_steps} steps (try ${m.attempts}), reference probability ${m.validation} (target ${m.target})`);
        if (!m.reached) throw new Error(`seed ${seed}: member ${m.member} did not reach its warm-start target ${m.target} (${m.validation})`);
      }
      const task = getTask(base.task.id);
      const cap = base.grpo.maxNewTokens > 0 ? base.grpo.maxNewTokens : task.maxCompletionLength(base.task.difficulty) + 2;
      const armIds = args.flags.has('arms') ? String(args.flags.get('arms')).split(',') : exported.built.exportedArms;
      for (const arm of armIds) {
        if (!exported.built.exportedArms.includes(arm)) throw new UsageError(`--arms: ${arm} is not an exported arm (${exported.built.exportedArms.join(', ')})`);
        const runDir = join(dir, 'runs', arm);
        const flags = ['--prompt_style', models === 'lab' ? 'lab_bos' : 'lab', '--max_completion_length', String(cap), '--max_steps', String(steps), '--grpo', 'use_cpu=true', '--grpo', 'bf16=false'];
        const launched = run('bash', ['launch.sh', arm, ...flags], exportDir, { ...env, RUN_ID: `check-${seed}-${arm}`, RUN_DIR: runDir, STOP_GRACE: '5' }, `seed ${seed}: bash launch.sh ${arm}`);
        const arms = base.arms.find((a) => a.id === arm)!;
        const members = arms.members.map((m) => memberFigures(m, JSON.parse(readFileSync(join(runDir, arm, m, 'log_history.json'), 'utf8')) as LogEntry[]));
        const a: ArmFigures = { arm, seed, members, wallSeconds: launched.seconds };
        figures.push(a);
        console.log(armTable([a]).split('\n').slice(2).join('\n'));
        if (args.flags.has('out')) writeOut();
      }
    }
    console.log('\n' + armTable(figures));
    console.log(`ran in ${((Date.now() - started) / 1000).toFixed(0)} s after the venv`);
    if (seeds.length > 1) for (const v of verdictLines(figures)) console.log(v.line);
    if (args.flags.has('out')) console.log(`wrote ${writeOut()}`);
  } finally {
    if (!args.flags.has('work') && existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) runMain(main, 'trl-check');
