/**
 * npm run science -- [--seeds 1-8 as 1,2,... or 101-108] [--block tuning|confirmation] [--claims a,b,...]
 *                    [--preset PAIR] [--diversity NAME] [--compare X:Y,...] [--overlap NAME] [--backend wasm|cpu|webgpu]
 *                    [--workers N] [--pool seeds|arms]
 *                    [--save DIR] [--from DIR] [--check docs/RESULTS.md | --write docs/RESULTS.md]
 * npm run science -- --summary --from DIR [--check docs/RESULTS.md | --write docs/RESULTS.md]
 * npm run science -- --plan
 * npm run science -- --tasks ...   (the gallery's tasks with the default arms: cli/science/science-tasks.ts)
 *
 * Every core (cli/experiment/pool.ts): --workers threads (default one per core), by default one seed each
 * side by side (--pool seeds), or each seed's arms split over them (--pool arms). Same verdicts.
 *
 * Reruns the science claims (cli/science/science-claims.ts) on the given seeds and prints, per claim, its
 * verdict (SHOWN / NOT SHOWN / CONTRADICTED: the 95% interval of a per-seed paired difference,
 * cli/science/science-paired.ts) with the numbers behind it, and per preset the Holm-Bonferroni verdicts of
 * its claims read together (the family: the claims this command reads on that preset). The pair
 * claims are read on `--preset` (default `collapse`), claim (c) on `--diversity` (default
 * `diversity`).
 * Blocks of seeds (cli/science/science-plan.ts): --block tuning (the default) reads seeds 1-8,
 * --block confirmation seeds 101-108, run only after a preset's settings are frozen; --seeds
 * overrides either list.
 * --save DIR writes each preset's results (the format of `npm run experiment --out`) to
 * DIR/PRESET.json (the confirmation block: DIR/confirmation/PRESET.json), for `npm run figures`;
 * --from DIR re-reads saved results without training.
 * --check FILE compares the verdict lines with FILE's block between `<!-- science:KEY -->` and
 * `<!-- /science:KEY -->` (KEY: the presets joined by +, then @SEEDS unless the seeds are 1-8) and
 * the Holm lines with its block KEY/holm, and exits 1 if one differs or is missing; --write FILE
 * rewrites them. docs/RESULTS.md quotes its verdicts this way, so the two agree word for word.
 * --summary reads every command of the plan from --from DIR (both blocks, where saved) and prints
 * the summary table (cli/science/science-summary.ts): each claim's tuning and confirmation verdicts, per
 * claim and Holm, and the headline, the confirmation block's Holm verdict; quoted as block
 * `summary`. --plan prints the one command that trains each plan entry's block.
 * --compare X:Y[,X:Y] adds (or, without --claims, is) a comparison of two arms of the pair preset,
 * X's end pass@1 against Y's, read the same way (e.g. --preset ring --compare ring:self).
 * --overlap NAME adds (or, without --claims, is) the overlap claims read on preset NAME, a preset
 * with an overlap dial (cli/science/science-overlap-claims.ts: `slope` and `ends`, one Holm family);
 * cli/science/science-overlap.ts prints the rest of that preset's reading (levels, secondary measures, power).
 * --table FILE prints the markdown tables of docs/RESULTS.md for one results file and exits.
 * --tests runs the science checks instead: the slow learning tests (*.science.test.ts, Vitest,
 * vitest.science.config.ts) kept out of `npm test`; exit code 0 when they pass.
 * Slow (minutes per seed and preset on a CPU); not part of `npm test`. Exit code 0, or 1 when
 * --check finds a difference, 2 on bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choiceFlag, intFlag, parseArgs, seedsFlag, UsageError, runMain, type ParsedArgs } from '../common/args';
import { defaultWorkers } from '../experiment/pool';
import { resultFile, runSeed } from '../experiment/experiment-lib';
import { readResultFile } from '../common/result-file';
import { getPreset } from '../../src/core/experiment/presets';
import type { RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { baseTable, kappaTable, markdownTable, perSeedTable } from './science-stats';
import { applies, CHECKS, CLAIM_IDS, CLAIM_PRESET, compareArms, holmLines, verdictLine, type ClaimId, type ClaimResult } from './science-claims';
import { BLOCK_FOLDER, blockOf, CONFIRMATION_SEEDS, PLAN, planEntryOf, planText, TUNING_SEEDS, type Block } from './science-plan';
import { summaryTable, type Family, type SummaryEntry } from './science-summary';
import { OVERLAP_CLAIM_IDS, overlapClaim, overlapReadings } from './science-overlap-claims';
import { replaceBlock, readBlock } from './science-block';
import { scienceTasks } from './science-tasks';

const FLAGS = {
  seeds: 'string', claims: 'string', preset: 'string', diversity: 'string', backend: 'string', block: 'string',
  save: 'string', from: 'string', workers: 'string', pool: 'string', table: 'string', check: 'string', write: 'string', compare: 'string', overlap: 'string', tests: 'boolean',
  summary: 'boolean', plan: 'boolean', help: 'boolean',
} as const;
const USAGE =
  'usage: npm run science -- [--seeds 1,2,3 | 101-108] [--block tuning|confirmation] [--claims ' + CLAIM_IDS.join(',') + ']\n' +
  '                          [--preset PAIR] [--diversity NAME] [--compare X:Y,...] [--overlap NAME]\n' +
  '                          [--backend wasm|cpu|webgpu] [--workers N] [--pool seeds|arms] [--save DIR] [--from DIR]\n' +
  '                          [--check FILE | --write FILE]\n' +
  '       npm run science -- --summary --from DIR [--check FILE | --write FILE]   (every verdict, both blocks, Holm)\n' +
  '       npm run science -- --plan                 (the command of every preset and block)\n' +
  '       npm run science -- --table RESULTS.json   (the markdown tables of docs/RESULTS.md)\n' +
  '       npm run science -- --tests                (the slow learning checks, *.science.test.ts)';

/** A result file (any version this one reads), or a UsageError naming it: exit code 2. */
function readResults(path: string): ExperimentResultFile {
  const r = readResultFile(path);
  if (!r.ok) throw new UsageError(r.error);
  return r.file;
}

type Check = [preset: string, read: (runs: RunSummary[]) => ClaimResult];

/** What a command line asks to read: the claims (and --compare pairs), each with the preset it is read on. */
interface Selection {
  presets: string[];
  checks: Check[];
}

/** The claims a command line selects (the plan's entries are read through here too). */
function selectClaims(args: ParsedArgs): Selection {
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
  // --overlap NAME: the overlap claims on a preset with an overlap dial; alone, they replace the default claims.
  const overlap = args.flags.get('overlap') as string | undefined;
  const overlapSpec = overlap === undefined ? undefined : getPreset(overlap)?.spec;
  if (overlap !== undefined && !overlapSpec?.members.some((m) => m.dial !== undefined)) {
    throw new UsageError(`--overlap: "${overlap}" is not a preset with an overlap dial (overlap is)`);
  }
  const claims = (asked ? asked.split(',') : compare.length || overlapSpec ? [] : CLAIM_IDS.filter(fits)) as ClaimId[];
  for (const c of claims) {
    if (!(CLAIM_IDS as readonly string[]).includes(c)) throw new UsageError(`--claims: unknown claim "${c}" (known: ${CLAIM_IDS.join(', ')})`);
    if (!fits(c)) throw new UsageError(`--claims: claim ${c} does not apply to preset ${presetOf[CLAIM_PRESET[c]]} (it lacks the arms it compares)`);
  }
  const checks: Check[] = [
    ...claims.map((c) => [presetOf[CLAIM_PRESET[c]], CHECKS[c]] as Check),
    ...compare.map(([x, y]) => [presetOf.pair, (runs: RunSummary[]) => compareArms(runs, x, y)] as Check),
    ...(overlapSpec ? OVERLAP_CLAIM_IDS.map((c) => [overlap!, (runs: RunSummary[]) => overlapClaim(c, overlapReadings(overlapSpec, runs))] as Check) : []),
  ];
  return { presets: [...new Set(checks.map(([preset]) => preset))], checks };
}

/** The saved results of `presets` in `dir` (each DIR/PRESET.json), only `seeds` when given; a preset whose file is missing is left out. */
function readSaved(dir: string, presets: string[], seeds: readonly number[] | null): Map<string, RunSummary[]> {
  const results = new Map<string, RunSummary[]>();
  for (const id of presets) {
    const path = join(dir, `${id}.json`);
    if (!existsSync(path)) continue;
    const runs = readResults(path).runs.filter((r) => seeds === null || seeds.includes(r.seed));
    if (runs.length === 0) throw new UsageError(`--from: ${path} holds none of the seeds ${seeds?.join(',')}`);
    results.set(id, runs);
  }
  return results;
}

/**
 * How the seeds use the cores (cli/experiment/pool.ts): 'seeds' runs up to `workers` seeds side by side, each
 * in a worker thread (no per-step wait, nothing built twice: the default); 'arms' runs the seeds
 * one after another, each on `workers` threads split by arm. The numbers are the same either way.
 */
interface Pool {
  workers: number;
  unit: 'seeds' | 'arms';
}

/** `run` of every item, at most `limit` at once; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
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

async function train(presets: string[], seeds: readonly number[], backendName: 'wasm' | 'cpu' | 'webgpu', save: string | undefined, pool: Pool): Promise<Map<string, RunSummary[]>> {
  const { initNodeBackend } = await import('../../src/engine/node-backend');
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

/** Every check read on its preset's runs (where there are any), grouped by preset in the order of first appearance: Holm's families. */
function families(sel: Selection, results: Map<string, RunSummary[]>): Family[] {
  const out: Family[] = [];
  for (const [preset, read] of sel.checks) {
    const runs = results.get(preset);
    if (!runs) continue;
    let f = out.find((x) => x.preset === preset);
    if (!f) out.push((f = { preset, seeds: runs.map((r) => r.seed), results: [] }));
    f.results.push(read(runs));
  }
  return out;
}

/** The science checks (Vitest with vitest.science.config.ts), output shown as it comes; its exit code. */
function scienceTests(): number {
  const vitest = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
  const r = spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.science.config.ts'], { stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** A block to quote: its key, its lines, where a new one goes and whether it is fenced (science-block.ts). */
type Quoted = [key: string, lines: string[], opts?: { after?: string; fenced?: boolean }];

/** --write: replace the blocks; --check: compare each, exit code 1 if one differs or is missing. */
function quote(blocks: Quoted[], write: string | undefined, check: string | undefined): void {
  if (write) {
    let text = readFileSync(write, 'utf8');
    for (const [key, lines, opts] of blocks) text = replaceBlock(text, key, lines, opts);
    writeFileSync(write, text);
    console.error(`wrote the blocks ${blocks.map(([k]) => k).join(', ')} into ${write}`);
  }
  if (check) {
    const text = readFileSync(check, 'utf8');
    let same = true;
    for (const [key, lines] of blocks) {
      const quoted = readBlock(text, key);
      if (quoted === null) {
        console.log(`${check} has no block <!-- science:${key} --> (--write ${check} adds it)`);
        same = false;
      } else if (quoted.join('\n') !== lines.join('\n')) {
        console.log(`${check} differs from the block ${key}:\n  quoted:\n    ${quoted.join('\n    ')}`);
        same = false;
      } else console.log(`${check} quotes the block ${key} word for word`);
    }
    process.exitCode = same ? 0 : 1;
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--tasks')) return scienceTasks(process.argv.slice(2));
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  if (args.flags.has('tests')) {
    process.exitCode = scienceTests();
    return;
  }
  if (args.flags.has('plan')) {
    console.log(planText());
    return;
  }
  const table = args.flags.get('table') as string | undefined;
  if (table) {
    const file = readResults(table);
    console.log(`seeds ${file.runs.map((r) => r.seed).join(', ')}\n\n${baseTable(file)}\n\n${kappaTable(file)}\n\n${markdownTable(file)}\n\n${perSeedTable(file)}`);
    return;
  }
  const from = args.flags.get('from') as string | undefined;
  const check = args.flags.get('check') as string | undefined;
  const write = args.flags.get('write') as string | undefined;
  if (check && write) throw new UsageError('--check and --write exclude each other');

  if (args.flags.has('summary')) {
    if (!from) throw new UsageError('--summary reads saved results: give --from DIR');
    const entries: SummaryEntry[] = PLAN.map((e) => {
      const sel = selectClaims(parseArgs(e.args, FLAGS));
      const read = (block: Block, seeds: readonly number[] | null) => {
        const results = readSaved(join(from, BLOCK_FOLDER[block]), sel.presets, seeds);
        return results.size ? families(sel, results) : null;
      };
      return { id: e.id, tuning: read('tuning', e.tuning), confirmation: read('confirmation', null), planned: e.confirmation.length };
    });
    const summary = summaryTable(entries);
    console.log(summary);
    quote([['summary', summary.split('\n'), { fenced: false }]], write, check);
    return;
  }

  const sel = selectClaims(args);
  const block = choiceFlag(args, 'block', ['tuning', 'confirmation'] as const) ?? 'tuning';
  const seeds = seedsFlag(args) ?? (block === 'confirmation' ? (planEntryOf(sel.presets)?.confirmation ?? CONFIRMATION_SEEDS) : TUNING_SEEDS);
  const backendName = choiceFlag(args, 'backend', ['wasm', 'cpu', 'webgpu'] as const) ?? 'wasm';
  const save = args.flags.get('save') as string | undefined;
  let results: Map<string, RunSummary[]>;
  if (from) {
    const dir = join(from, BLOCK_FOLDER[block]);
    results = readSaved(dir, sel.presets, seeds);
    const missing = sel.presets.filter((p) => !results.has(p));
    if (missing.length) throw new UsageError(`--from: ${dir} has no ${missing.map((p) => `${p}.json`).join(', ')}`);
  } else {
    // WebGPU: one device serves every thread, so more threads only contend for it.
    const workers = backendName === 'webgpu' ? 1 : (intFlag(args, 'workers', 1, 256) ?? defaultWorkers());
    const unit = choiceFlag(args, 'pool', ['seeds', 'arms'] as const) ?? 'seeds';
    results = await train(sel.presets, seeds, backendName, save && join(save, BLOCK_FOLDER[block]), { workers, unit });
    if (backendName === 'webgpu') setTimeout(() => process.exit(process.exitCode ?? 0), 0);
  }

  const fams = families(sel, results);
  const verdicts: string[] = [];
  const holm: string[] = [];
  for (const f of fams) {
    for (const r of f.results) {
      const line = verdictLine(r, f.preset, f.seeds);
      verdicts.push(line);
      console.log(line);
      for (const l of r.lines) console.log(`    ${l}`);
      console.log('');
    }
    const h = holmLines(f.results, f.preset, f.seeds);
    holm.push(...h);
    console.log(`Holm-Bonferroni over the ${f.results.length} claim${f.results.length === 1 ? '' : 's'} read on ${f.preset} (family-wise 5%):`);
    for (const l of h) console.log(`  ${l}`);
    console.log('');
  }
  // One block per set of presets and seeds (the seeds the results hold): the default seeds 1-8 are
  // left out of the key. Beside it, the Holm block KEY/holm.
  const read = fams[0]?.seeds ?? [...seeds];
  if (read.join(',') !== seeds.join(',')) console.error(`note: the results hold seeds ${read.join(',')} of the ${seeds.join(',')} asked for`);
  const key = sel.presets.join('+') + (blockOf(read) === 'tuning' ? '' : `@${read.join(',')}`);
  quote([[key, verdicts], [`${key}/holm`, holm, { after: key }]], write, check);
}

runMain(main, 'science');
