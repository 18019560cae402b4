/**
 * npm run experiment -- (--preset NAME | --spec FILE.json) [--task-file FILE [--go-on]] [--steps N]
 *                       [--seeds 1,2,3] [--backend wasm|cpu|webgpu] [--workers N] [--out results.json]
 *
 * --task-file: run the cohort on a task of one's own (CSV, JSON Lines or JSON data, or a JSON
 * generator definition: docs/TASKS.md), refused in words before any training when it cannot run.
 * A custom task's member that misses its warm-start target stops the run with the best reached
 * and what would help; --go-on goes on into RL from its best weights instead.
 * --workers: threads that train the arms (cli/experiment/pool.ts; default one per core, at most one per arm;
 * 1 trains in this thread alone). The numbers are the same for every N (bit for bit on wasm).
 * Runs an experiment for each seed, shows progress on stderr, prints a summary table per arm and
 * member and the median GRPO step time, and writes the results as JSON (format: docs/CLI.md).
 * Bad arguments or an invalid spec: a one-line message and exit code 2. A member that misses its
 * warm-start target stops the run before RL: a one-line message naming it and exit code 1.
 */
import { writeFileSync } from 'node:fs';
import { choiceFlag, intFlag, parseArgs, seedsFlag, runMain, UsageError } from '../common/args';
import { findingLine, readTaskFile, withTask } from './taskFile';
import { terminalText } from '../common/terminalText';
import { CHECK_LIMITS } from '../../src/core/tasks/custom/index';
import { hasDial, overlapTable, resolveSpec, resultFile, runSeed, summaryTable } from './experiment-lib';
import { overlapOfRun, type OverlapSeed } from '../../src/core/experiment/overlapResult';
import { initNodeBackend } from '../../src/engine/node-backend';
import { defaultWorkers } from './pool';
import { NonFiniteRunError, WarmStartMissError } from '../../src/core/experiment/runner';
import type { RunSummary } from '../../src/core/experiment/events';

const FLAGS = { preset: 'string', spec: 'string', 'task-file': 'string', 'go-on': 'boolean', steps: 'string', seeds: 'string', backend: 'string', workers: 'string', out: 'string', help: 'boolean' } as const;

const USAGE = `usage: npm run experiment -- (--preset NAME | --spec FILE.json) [--task-file FILE [--go-on]]
                             [--steps N] [--seeds 1,2,3] [--backend wasm|cpu|webgpu] [--workers N]
                             [--out results.json]`;

let lastLogged = '';

function progressBar(label: string, done: number, total: number): void {
  if (!process.stderr.isTTY) {
    // Not a terminal (CI, a log file): one line per 10% instead of a redrawn bar.
    const tenth = `${label} ${total > 0 ? Math.floor((10 * done) / total) : 0}`;
    if (tenth !== lastLogged && (done === total || done % Math.max(1, Math.round(total / 10)) === 0)) {
      lastLogged = tenth;
      process.stderr.write(`${label}: ${done}/${total}\n`);
    }
    return;
  }
  const width = 30;
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  process.stderr.write(`\r${label.padEnd(34)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}   `);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const steps = intFlag(args, 'steps', 1, 5000);
  const seeds = seedsFlag(args);
  const backend = choiceFlag(args, 'backend', ['wasm', 'cpu', 'webgpu'] as const) ?? 'wasm';
  const out = args.flags.get('out') as string | undefined;
  // WebGPU: one device serves every thread, so more threads only contend for it.
  const workers = backend === 'webgpu' ? 1 : (intFlag(args, 'workers', 1, 256) ?? defaultWorkers());
  let spec = resolveSpec(args.flags.get('preset') as string | undefined, args.flags.get('spec') as string | undefined, steps);
  const taskFile = args.flags.get('task-file') as string | undefined;
  if (taskFile !== undefined) {
    const def = readTaskFile(taskFile);
    // The check's cost is bounded before it runs (CHECK_LIMITS.work steps); say so, then what it found.
    console.error(`checking the task in ${terminalText(taskFile, true)} (at most ${CHECK_LIMITS.work.toLocaleString('en')} steps)`);
    const fitted = withTask(spec, def, taskFile);
    for (const f of fitted.findings) console.error(findingLine(f));
    spec = fitted.spec;
    console.error(`task: ${terminalText(spec.task.definition!.title, true)}; labeled ${spec.data.labeledPool}, RL ${spec.data.rlPool}, held-out ${spec.data.heldOut}`);
  }
  if (args.flags.has('go-on')) {
    if (taskFile === undefined) throw new UsageError('--go-on goes with --task-file');
    spec = { ...spec, warmStart: { ...spec.warmStart, onMiss: 'continue' } };
  }

  const report = await initNodeBackend(backend);
  console.error(`backend: ${report.backend}${report.adapter ? ` (${report.adapter})` : ''}; ${Math.min(workers, spec.arms.length)} thread(s) of ${workers}`);
  const runs: RunSummary[] = [];
  for (const seed of seeds ?? [spec.seed]) {
    const t0 = Date.now();
    const summary = await runSeed({ ...spec, seed }, report.backend, (phase, done, total) =>
      progressBar(`seed ${seed}: ${phase}`, done, total),
      { workers },
    ).catch((e: unknown) => {
      if (process.stderr.isTTY) process.stderr.write('\n');
      // A member missed its warm-start target, or a number blew up: one line naming the seed, exit 1.
      // A custom task's miss says what would help; here, going on from the best is the --go-on flag.
      const goOn = e instanceof WarmStartMissError && e.suggestions ? ' (add --go-on to do so)' : '';
      throw e instanceof WarmStartMissError || e instanceof NonFiniteRunError ? new Error(`seed ${seed}: ${e.message}${goOn}`) : e;
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.error(`seed ${seed}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    runs.push(summary);
    // The file holds every seed done so far, so a long block stopped half way keeps its seeds.
    if (out) writeFileSync(out, JSON.stringify(resultFile({ ...spec, seed: runs[0].seed }, runs), null, 1));
  }
  console.log(summaryTable(runs));
  if (hasDial(spec)) console.log(`\n${overlapTable(runs.map((r) => overlapOfRun(spec, r)).filter((o): o is OverlapSeed => o !== null))}`);
  const medians = runs.map((r) => r.medianStepMs).sort((a, b) => a - b);
  console.log(`\nmedian GRPO step (all arms): ${medians[Math.floor(medians.length / 2)].toFixed(0)} ms on ${report.backend}`);
  if (out) {
    writeFileSync(out, JSON.stringify(resultFile({ ...spec, seed: runs[0].seed }, runs), null, 1));
    console.error(`wrote ${out}`);
  }
  if (backend === 'webgpu') process.exit(0); // the Dawn instance keeps Node alive (docs/TFJS-AND-BROWSER.md)
}

runMain(main, 'experiment');
