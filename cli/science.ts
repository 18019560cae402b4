/**
 * npm run science -- [--seeds 1,2,3] [--claims a,b,c] [--backend wasm|cpu|webgpu] [--save DIR] [--from DIR]
 *
 * Reruns the claims of issue 4 on the given seeds and prints PASS or FAIL per claim with the numbers
 * behind it (definitions: cli/science-claims.ts):
 *   (a) self-reward collapse and (b) peers help    -> preset `collapse`
 *   (c) diversity helps                             -> preset `diversity`
 *   (d) compute-matched ensemble control (opt-in)   -> preset `collapse`'s self and peer arms,
 *       which are exactly the `ensemble-control` preset's two arms (same members, settings and
 *       random streams; presets.test.ts checks the specs), so they are not trained twice
 * --save DIR writes each preset's results (the format of `npm run experiment --out`) to
 * DIR/PRESET.json, for `npm run figures`; --from DIR re-checks saved results without training.
 * --table FILE prints the markdown tables of docs/RESULTS.md for one results file and exits.
 * Slow (minutes per seed and preset on a CPU); not part of `npm test`. Exit code 0 when every
 * checked claim passes, 1 when one fails, 2 on bad arguments.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choiceFlag, parseArgs, seedsFlag, UsageError, runMain } from './args';
import { resultFile, runSeed } from './experiment-lib';
import { getPreset } from '../src/core/experiment/presets';
import type { ExperimentResultFile, RunSummary } from '../src/core/experiment/events';
import { baseTable, kappaTable, markdownTable } from './science-stats';
import { claimCollapse, claimDiversity, claimEnsemble, claimPeersHelp, required, type ClaimResult } from './science-claims';

const FLAGS = { seeds: 'string', claims: 'string', backend: 'string', save: 'string', from: 'string', table: 'string', help: 'boolean' } as const;
const USAGE = 'usage: npm run science -- [--seeds 1,2,3] [--claims a,b,c,d] [--backend wasm|cpu|webgpu] [--save DIR] [--from DIR]\n       npm run science -- --table RESULTS.json   (the markdown tables of docs/RESULTS.md)';

const PRESET_OF: Record<string, string> = { a: 'collapse', b: 'collapse', c: 'diversity', d: 'collapse' };
const CHECK: Record<string, (runs: RunSummary[]) => ClaimResult> = {
  a: claimCollapse,
  b: claimPeersHelp,
  c: claimDiversity,
  d: claimEnsemble,
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const table = args.flags.get('table') as string | undefined;
  if (table) {
    let file: ExperimentResultFile;
    try {
      file = JSON.parse(readFileSync(table, 'utf8')) as ExperimentResultFile;
    } catch (e) {
      throw new UsageError(`cannot read ${table}: ${(e as Error).message.split('\n')[0]}`);
    }
    console.log(`seeds ${file.runs.map((r) => r.seed).join(', ')}\n\n${baseTable(file)}\n\n${kappaTable(file)}\n\n${markdownTable(file)}`);
    return;
  }
  const seeds = seedsFlag(args) ?? [1, 2, 3];
  const claimsFlag = (args.flags.get('claims') as string | undefined) ?? 'a,b,c';
  const claims = claimsFlag.split(',');
  for (const c of claims) if (!(c in CHECK)) throw new UsageError(`--claims: unknown claim "${c}" (known: a, b, c, d)`);
  const backendName = choiceFlag(args, 'backend', ['wasm', 'cpu', 'webgpu'] as const) ?? 'wasm';
  const save = args.flags.get('save') as string | undefined;
  const from = args.flags.get('from') as string | undefined;

  const presets = [...new Set(claims.map((c) => PRESET_OF[c]))];
  const results = new Map<string, RunSummary[]>();
  if (from) {
    for (const id of presets) {
      const path = join(from, `${id}.json`);
      if (!existsSync(path)) throw new UsageError(`--from: ${path} does not exist`);
      const file = JSON.parse(readFileSync(path, 'utf8')) as ExperimentResultFile;
      const runs = file.runs.filter((r) => seeds.includes(r.seed));
      if (runs.length === 0) throw new UsageError(`--from: ${path} holds none of the seeds ${seeds.join(',')}`);
      results.set(id, runs);
    }
  } else {
    const { initNodeBackend } = await import('../src/engine/node-backend');
    const report = await initNodeBackend(backendName);
    console.error(`backend: ${report.backend}; seeds ${seeds.join(', ')}; presets ${presets.join(', ')}`);
    if (save) mkdirSync(save, { recursive: true });
    for (const id of presets) {
      const preset = getPreset(id);
      if (!preset) throw new Error(`preset ${id} is missing`);
      const runs: RunSummary[] = [];
      for (const seed of seeds) {
        const t0 = Date.now();
        let last = '';
        runs.push(
          await runSeed({ ...preset.spec, seed }, report.backend, (phase, done, total) => {
            const line = `${id} seed ${seed}: ${phase} ${done}/${total}`;
            if (process.stderr.isTTY && line !== last) process.stderr.write(`\r${line.padEnd(60)}`);
            last = line;
          }),
        );
        if (process.stderr.isTTY) process.stderr.write('\n');
        console.error(`${id} seed ${seed}: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
      results.set(id, runs);
      if (save) {
        const path = join(save, `${id}.json`);
        writeFileSync(path, JSON.stringify(resultFile({ ...preset.spec, seed: seeds[0] }, runs), null, 1));
        console.error(`wrote ${path}`);
      }
    }
    if (backendName === 'webgpu') setTimeout(() => process.exit(process.exitCode ?? 0), 0);
  }

  let failed = false;
  console.log(`claims on seeds ${seeds.join(', ')} (a claim passes when it holds in >= ${required(seeds.length)} of ${seeds.length} seeds)\n`);
  for (const c of claims) {
    const r = CHECK[c](results.get(PRESET_OF[c])!);
    failed ||= !r.pass;
    const preset = c === 'd' ? 'ensemble-control (= the self and peer arms of collapse)' : PRESET_OF[c];
    console.log(`(${r.id}) ${r.pass ? 'PASS' : 'FAIL'}  ${r.title}  [held in ${r.held}/${r.seeds} seeds; preset ${preset}]`);
    for (const line of r.lines) console.log(`    ${line}`);
    console.log('');
  }
  process.exitCode = failed ? 1 : 0;
}

runMain(main, 'science');
