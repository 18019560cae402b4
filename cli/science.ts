/**
 * npm run science -- [--seeds 1-8 as 1,2,...] [--claims a,b,...] [--preset PAIR] [--diversity NAME]
 *                    [--backend wasm|cpu|webgpu] [--workers N] [--pool seeds|arms] [--save DIR] [--from DIR]
 *                    [--check docs/RESULTS.md | --write docs/RESULTS.md]
 *
 * Every core (cli/pool.ts): --workers threads (default one per core), by default one seed each
 * side by side (--pool seeds), or each seed's arms split over them (--pool arms). Same verdicts.
 *
 * Reruns the science claims (cli/science-claims.ts) on the given seeds and prints, per claim, its
 * verdict (SHOWN / NOT SHOWN / CONTRADICTED: the 95% interval of a per-seed paired difference,
 * cli/science-paired.ts) with the numbers behind it. The pair claims are read on `--preset`
 * (default `collapse`), claim (c) on `--diversity` (default `diversity`).
 * --save DIR writes each preset's results (the format of `npm run experiment --out`) to
 * DIR/PRESET.json, for `npm run figures`; --from DIR re-reads saved results without training.
 * --check FILE compares the verdict lines with FILE's block between
 * `<!-- science:KEY -->` and `<!-- /science:KEY -->` (KEY: the presets joined by +, then @SEEDS
 * unless the seeds are 1-8) and exits 1 if
 * they differ; --write FILE rewrites that block. docs/RESULTS.md quotes its verdicts this way, so
 * the two agree word for word.
 * --compare X:Y[,X:Y] adds (or, without --claims, is) a comparison of two arms of the pair preset,
 * X's end pass@1 against Y's, read the same way (e.g. --preset ring --compare ring:self).
 * --table FILE prints the markdown tables of docs/RESULTS.md for one results file and exits.
 * --tests runs the science checks instead: the slow learning tests (*.science.test.ts, Vitest,
 * vitest.science.config.ts) kept out of `npm test`; exit code 0 when they pass.
 * Slow (minutes per seed and preset on a CPU); not part of `npm test`. Exit code 0, or 1 when
 * --check finds a difference, 2 on bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choiceFlag, intFlag, parseArgs, seedsFlag, UsageError, runMain } from './args';
import { defaultWorkers } from './pool';
import { resultFile, runSeed } from './experiment-lib';
import { readResultFile } from './result-file';
import { getPreset } from '../src/core/experiment/presets';
import type { ExperimentResultFile, RunSummary } from '../src/core/experiment/events';
import { baseTable, kappaTable, markdownTable, perSeedTable } from './science-stats';
import { applies, CHECKS, CLAIM_IDS, CLAIM_PRESET, compareArms, verdictLine, type ClaimId, type ClaimResult } from './science-claims';
import { replaceBlock, readBlock } from './science-block';

const FLAGS = {
  seeds: 'string', claims: 'string', preset: 'string', diversity: 'string', backend: 'string',
  save: 'string', from: 'string', workers: 'string', pool: 'string', table: 'string', check: 'string', write: 'string', compare: 'string', tests: 'boolean', help: 'boolean',
} as const;
const USAGE =
  'usage: npm run science -- [--seeds 1,2,3] [--claims ' + CLAIM_IDS.join(',') + '] [--preset PAIR] [--diversity NAME]\n' +
  '                          [--backend wasm|cpu|webgpu] [--workers N] [--pool seeds|arms] [--save DIR] [--from DIR]\n' +
  '                          [--check FILE | --write FILE]\n' +
  '       npm run science -- --table RESULTS.json   (the markdown tables of docs/RESULTS.md)\n' +
  '       npm run science -- --tests                (the slow learning checks, *.science.test.ts)';

/** A result file (any version this one reads), or a UsageError naming it: exit code 2. */
function readResults(path: string): ExperimentResultFile {
  const r = readResultFile(path);
  if (!r.ok) throw new UsageError(r.error);
  return r.file;
}

/**
 * How the seeds use the cores (cli/pool.ts): 'seeds' runs up to `workers` seeds side by side, each
 * in a worker thread (no per-step wait, nothing built twice: the default); 'arms' runs the seeds
 * one after another, each on `workers` threads split by arm. The numbers are the same either way.
 */
interface Pool {
  workers: number;
  unit: 'seeds' | 'arms';
}

/** `run` of every item, at most `limit` at once; the results in the items' order. */
async function inParallel<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}

async function train(presets: string[], seeds: number[], backendName: 'wasm' | 'cpu' | 'webgpu', save: string | undefined, pool: Pool): Promise<Map<string, RunSummary[]>> {
  const { initNodeBackend } = await import('../src/engine/node-backend');
  const report = await initNodeBackend(backendName);
  const bySeed = pool.unit === 'seeds' && pool.workers > 1;
  console.error(`backend: ${report.backend}; seeds ${seeds.join(', ')}; presets ${presets.join(', ')}; ${pool.workers} thread(s), ${bySeed ? 'seeds side by side' : 'arms split'}`);
  if (save) mkdirSync(save, { recursive: true });
  const results = new Map<string, RunSummary[]>();
  for (const id of presets) {
    const preset = getPreset(id)!;
    const t0 = Date.now();
    const runs: RunSummary[] = await inParallel(seeds, bySeed ? pool.workers : 1, async (seed) => {
      const summary = await runSeed({ ...preset.spec, seed }, report.backend, () => {}, bySeed ? { thread: true } : { workers: pool.workers });
      console.error(`${id} seed ${seed}: ${((Date.now() - t0) / 1000).toFixed(0)} s since the preset started`);
      return summary;
    });
    results.set(id, runs);
    if (save) {
      const path = join(save, `${id}.json`);
      writeFileSync(path, JSON.stringify(resultFile({ ...preset.spec, seed: seeds[0] }, runs), null, 1));
      console.error(`wrote ${path}`);
    }
  }
  return results;
}

/** The science checks (Vitest with vitest.science.config.ts), output shown as it comes; its exit code. */
function scienceTests(): number {
  const vitest = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
  const r = spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.science.config.ts'], { stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  if (args.flags.has('tests')) {
    process.exitCode = scienceTests();
    return;
  }
  const table = args.flags.get('table') as string | undefined;
  if (table) {
    const file = readResults(table);
    console.log(`seeds ${file.runs.map((r) => r.seed).join(', ')}\n\n${baseTable(file)}\n\n${kappaTable(file)}\n\n${markdownTable(file)}\n\n${perSeedTable(file)}`);
    return;
  }
  const seeds = seedsFlag(args) ?? [1, 2, 3, 4, 5, 6, 7, 8];
  const presetOf = { pair: (args.flags.get('preset') as string | undefined) ?? 'collapse', diversity: (args.flags.get('diversity') as string | undefined) ?? 'diversity' };
  for (const id of Object.values(presetOf)) if (!getPreset(id)) throw new UsageError(`no preset "${id}"`);
  const specOf = (c: ClaimId) => getPreset(presetOf[CLAIM_PRESET[c]])!.spec;
  const fits = (c: ClaimId) => applies(c, specOf(c).arms, specOf(c).task.scratchpad);
  const asked = args.flags.get('claims') as string | undefined;
  // --compare X:Y[,X:Y]: arms of the pair preset compared pairwise; alone, it replaces the default claims.
  const compare = ((args.flags.get('compare') as string | undefined) ?? '').split(',').filter(Boolean).map((c) => c.split(':'));
  for (const c of compare) {
    const arms = getPreset(presetOf.pair)!.spec.arms.map((a) => a.id);
    if (c.length !== 2 || !c.every((a) => arms.includes(a))) throw new UsageError(`--compare: "${c.join(':')}" is not two arms of ${presetOf.pair} (${arms.join(', ')})`);
  }
  const claims = (asked ? asked.split(',') : compare.length ? [] : CLAIM_IDS.filter(fits)) as ClaimId[];
  for (const c of claims) {
    if (!(CLAIM_IDS as readonly string[]).includes(c)) throw new UsageError(`--claims: unknown claim "${c}" (known: ${CLAIM_IDS.join(', ')})`);
    if (!fits(c)) throw new UsageError(`--claims: claim ${c} does not apply to preset ${presetOf[CLAIM_PRESET[c]]} (it lacks the arms it compares)`);
  }
  const backendName = choiceFlag(args, 'backend', ['wasm', 'cpu', 'webgpu'] as const) ?? 'wasm';
  const from = args.flags.get('from') as string | undefined;
  const check = args.flags.get('check') as string | undefined;
  const write = args.flags.get('write') as string | undefined;
  if (check && write) throw new UsageError('--check and --write exclude each other');

  const presets = [...new Set([...claims.map((c) => presetOf[CLAIM_PRESET[c]]), ...(compare.length ? [presetOf.pair] : [])])];
  let results = new Map<string, RunSummary[]>();
  if (from) {
    for (const id of presets) {
      const path = join(from, `${id}.json`);
      if (!existsSync(path)) throw new UsageError(`--from: ${path} does not exist`);
      const runs = readResults(path).runs.filter((r) => seeds.includes(r.seed));
      if (runs.length === 0) throw new UsageError(`--from: ${path} holds none of the seeds ${seeds.join(',')}`);
      results.set(id, runs);
    }
  } else {
    // WebGPU: one device serves every thread, so more threads only contend for it.
    const workers = backendName === 'webgpu' ? 1 : (intFlag(args, 'workers', 1, 256) ?? defaultWorkers());
    const unit = choiceFlag(args, 'pool', ['seeds', 'arms'] as const) ?? 'seeds';
    results = await train(presets, seeds, backendName, args.flags.get('save') as string | undefined, { workers, unit });
    if (backendName === 'webgpu') setTimeout(() => process.exit(process.exitCode ?? 0), 0);
  }

  const verdicts: string[] = [];
  const checks: [string, (runs: RunSummary[]) => ClaimResult][] = [
    ...claims.map((c) => [presetOf[CLAIM_PRESET[c]], CHECKS[c]] as [string, (runs: RunSummary[]) => ClaimResult]),
    ...compare.map(([x, y]) => [presetOf.pair, (runs: RunSummary[]) => compareArms(runs, x, y)] as [string, (runs: RunSummary[]) => ClaimResult]),
  ];
  for (const [preset, check] of checks) {
    const runs = results.get(preset)!;
    const r = check(runs);
    const line = verdictLine(r, preset, runs.map((x) => x.seed));
    verdicts.push(line);
    console.log(line);
    for (const l of r.lines) console.log(`    ${l}`);
    console.log('');
  }
  // One block per set of presets and seeds: the default seeds 1-8 are left out of the key.
  const defaultSeeds = seeds.join(',') === '1,2,3,4,5,6,7,8';
  const key = presets.join('+') + (defaultSeeds ? '' : `@${seeds.join(',')}`);
  if (write) {
    writeFileSync(write, replaceBlock(readFileSync(write, 'utf8'), key, verdicts));
    console.error(`wrote the verdicts of ${key} into ${write}`);
  }
  if (check) {
    const quoted = readBlock(readFileSync(check, 'utf8'), key);
    if (quoted === null) throw new UsageError(`--check: ${check} has no block <!-- science:${key} -->`);
    const same = quoted.join('\n') === verdicts.join('\n');
    console.log(same ? `${check} quotes these verdicts word for word` : `${check} differs from these verdicts:\n  quoted:\n    ${quoted.join('\n    ')}`);
    process.exitCode = same ? 0 : 1;
  }
}

runMain(main, 'science');
