/**
 * npm run science -- --tasks [--seeds 1-8] [--only ID,...] [--steps N] [--workers N] [--backend wasm|cpu]
 *                    [--save FILE] [--from FILE] [--check docs/RESULTS.md | --write docs/RESULTS.md]
 *
 * The gallery's science: every gallery task (src/core/tasks/custom/gallery.ts) run with the
 * default preset's arms, members and settings, only the task replaced (science-tasks-lib.ts,
 * gallerySpec), on the given seeds (default 1-8), seeds side by side on --workers threads. Prints
 * per task the base accuracy, the self arm's change, the peer arm's gain and the oracle's lead
 * with their 95% intervals and verdicts (science-paired.ts: per difference, and Holm over the
 * three of a task), as the markdown table docs/RESULTS.md quotes in its block `science:tasks`.
 * --save FILE writes the results (bench/results/science-tasks.json is the one the docs quote)
 * after every seed, and a rerun with the same FILE keeps the seeds it already holds for the same
 * task definition, preset and steps (a stopped run resumes). --from FILE reads them without
 * training. --steps N overrides the preset's RL steps (the file and the table say so).
 * --check FILE exits 1 when FILE's block differs from the table; --write FILE rewrites it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { choiceFlag, intFlag, parseArgs, seedsFlag, UsageError } from '../common/args';
import { defaultWorkers } from '../experiment/pool';
import { runSeed } from '../experiment/experiment-lib';
import { readBlock, replaceBlock } from './science-block';
import { TUNING_SEEDS } from './science-plan';
import { GALLERY, type GalleryTask } from '../../src/core/tasks/custom/gallery';
import { taskContentHash } from '../../src/core/tasks/custom/index';
import { getPreset } from '../../src/core/experiment/presets';
import { GALLERY_PRESET, gallerySpec, parseTasksFile, seedRecord, tasksTable, TASKS_FORMAT, TASKS_VERSION, type TaskResults, type TasksFile } from './science-tasks-lib';

const FLAGS = {
  tasks: 'boolean', seeds: 'string', only: 'string', steps: 'string', workers: 'string', backend: 'string',
  save: 'string', from: 'string', check: 'string', write: 'string',
} as const;

/** The block of docs/RESULTS.md that quotes the table. */
export const TASKS_BLOCK = 'tasks';

function readTasks(path: string): TasksFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  const r = parseTasksFile(text);
  if (!r.ok) throw new UsageError(`${path} is not a gallery results file: ${r.error}`);
  return r.file;
}

async function train(tasks: readonly GalleryTask[], seeds: number[], steps: number, backendName: 'wasm' | 'cpu', workers: number, save: string | undefined, command: string): Promise<TasksFile> {
  const previous = save && existsSync(save) ? readTasks(save) : null;
  const file: TasksFile = { format: TASKS_FORMAT, version: TASKS_VERSION, preset: GALLERY_PRESET, steps, seeds, command, tasks: [] };
  const { initNodeBackend } = await import('../../src/engine/node-backend');
  const report = await initNodeBackend(backendName);
  console.error(`backend: ${report.backend}; ${tasks.length} tasks x seeds ${seeds.join(', ')}; ${steps} RL steps; ${workers} seed(s) side by side`);
  if (save) mkdirSync(dirname(save), { recursive: true });
  const t0 = Date.now();
  for (const task of tasks) {
    const hash = taskContentHash(task.definition);
    const kept = previous && previous.preset === GALLERY_PRESET && previous.steps === steps ? (previous.tasks.find((t) => t.id === task.id && t.hash === hash)?.records ?? []) : [];
    const entry: TaskResults = { id: task.id, title: task.definition.title, hash, scratchpad: task.scratchpad, records: kept.filter((r) => seeds.includes(r.seed)) };
    file.tasks.push(entry);
    const todo = seeds.filter((s) => !entry.records.some((r) => r.seed === s));
    if (todo.length < seeds.length) console.error(`${task.id}: seeds ${seeds.filter((s) => !todo.includes(s)).join(', ')} kept from ${save}`);
    let next = 0;
    const lane = async () => {
      while (next < todo.length) {
        const seed = todo[next++];
        const run = await runSeed(gallerySpec(task, seed, steps), report.backend, () => {}, workers > 1 ? { thread: true } : { workers: 1 });
        entry.records.push(seedRecord(run));
        entry.records.sort((a, b) => a.seed - b.seed);
        console.error(`${task.id} seed ${seed}: ${((Date.now() - t0) / 1000).toFixed(0)} s since the start`);
        if (save) writeFileSync(save, JSON.stringify(file, null, 1) + '\n');
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, todo.length)) }, lane));
  }
  if (save) {
    writeFileSync(save, JSON.stringify(file, null, 1) + '\n');
    console.error(`wrote ${save}`);
  }
  return file;
}

/** `npm run science -- --tasks ...` (science.ts hands the whole command line here). */
export async function scienceTasks(argv: string[]): Promise<void> {
  const args = parseArgs(argv, FLAGS);
  const from = args.flags.get('from') as string | undefined;
  const save = args.flags.get('save') as string | undefined;
  const check = args.flags.get('check') as string | undefined;
  const write = args.flags.get('write') as string | undefined;
  if (check && write) throw new UsageError('--check and --write exclude each other');
  if (from && save) throw new UsageError('--from reads saved results; --save trains: give one');
  const only = ((args.flags.get('only') as string | undefined) ?? '').split(',').filter(Boolean);
  for (const id of only) if (!GALLERY.some((t) => t.id === id)) throw new UsageError(`--only: no gallery task "${id}" (known: ${GALLERY.map((t) => t.id).join(', ')})`);
  const tasks = only.length ? GALLERY.filter((t) => only.includes(t.id)) : GALLERY;

  let file: TasksFile;
  if (from) {
    file = readTasks(from);
    if (only.length) file = { ...file, tasks: file.tasks.filter((t) => only.includes(t.id)) };
  } else {
    const seeds = seedsFlag(args) ?? [...TUNING_SEEDS];
    const steps = intFlag(args, 'steps', 1, 5000) ?? getPreset(GALLERY_PRESET)!.spec.steps;
    const backend = choiceFlag(args, 'backend', ['wasm', 'cpu'] as const) ?? 'wasm';
    const workers = intFlag(args, 'workers', 1, 64) ?? defaultWorkers();
    file = await train(tasks, seeds, steps, backend, workers, save, ['npm run science --', ...argv].join(' '));
  }
  const table = tasksTable(file);
  console.log(`${file.tasks.length} gallery tasks, ${file.preset}'s arms, ${file.steps} RL steps, seeds ${file.seeds.join(', ')}\n`);
  console.log(table.join('\n'));
  if (write) {
    writeFileSync(write, replaceBlock(readFileSync(write, 'utf8'), TASKS_BLOCK, table, { fenced: false }));
    console.error(`wrote the block ${TASKS_BLOCK} into ${write}`);
  }
  if (check) {
    const quoted = readBlock(readFileSync(check, 'utf8'), TASKS_BLOCK);
    if (quoted === null) {
      console.log(`${check} has no block <!-- science:${TASKS_BLOCK} --> (--write ${check} adds it)`);
      process.exitCode = 1;
    } else if (quoted.join('\n') !== table.join('\n')) {
      console.log(`${check} differs from the block ${TASKS_BLOCK}:\n  quoted:\n    ${quoted.join('\n    ')}`);
      process.exitCode = 1;
    } else console.log(`${check} quotes the block ${TASKS_BLOCK} word for word`);
  }
}
