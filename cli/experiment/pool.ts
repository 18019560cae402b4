/**
 * Every core in the CLI: a run on a pool of worker threads (`npm run experiment`, `npm run
 * science`). The main thread runs the lead part (src/core/experiment/parts.ts) itself and one
 * worker thread (cli/experiment/part-worker.ts) each other part; src/engine/pooledRun.ts merges their
 * events, so the run equals the one-thread run bit for bit on wasm (cli/experiment/pool.test.ts).
 *
 *   defaultWorkers()                      one per core (os.availableParallelism)
 *   pooledSeedRun(spec, backend, n)       one seed on up to n threads (arms split by cost)
 *   wholeSeedRun(spec, backend)           one seed in one worker thread (seeds in parallel)
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaultLimits } from '../../src/core/experiment/budget';
import { planParts, type RunPart } from '../../src/core/experiment/parts';
import { resolveSpec } from '../../src/core/experiment/resolve';
import { createRun, type Checkpoint, type ExperimentRun } from '../../src/core/experiment/runner';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { remotePart, type PartCommand, type PartPort, type PartReply } from '../../src/engine/partRpc';
import { localPart, pooledRun } from '../../src/engine/pooledRun';
import { nodeWarmStartCache } from '../../src/engine/warmStartNode';

/** One worker per core. */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * A worker thread running cli/experiment/part-worker.ts. The CLI and the tests run TypeScript, and Node 20
 * applies no `--import tsx` to a worker thread, so a two-line bootstrap loads it through tsx's API.
 */
const BOOTSTRAP = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ tsImport }) => tsImport(workerData.file, workerData.file));`;

export function partThread(): PartPort {
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const file = new URL('./part-worker.ts', import.meta.url).href;
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { tsx, file } });
  let exited = false;
  return {
    post: (cmd: PartCommand) => worker.postMessage(cmd),
    listen(reply, fail) {
      worker.on('message', (r: PartReply) => reply(r));
      worker.on('error', (e) => fail(e.message));
      worker.on('exit', (code) => {
        exited = true;
        if (code !== 0) fail(`it exited with code ${code}`);
      });
    },
    terminate: () => {
      if (!exited) void worker.terminate();
    },
  };
}

const now = () => performance.now();

/**
 * One seed of `spec` on up to `workers` threads: 1 is the plain run in this thread; more split
 * the arms (planParts), this thread running the lead part.
 */
export function pooledSeedRun(spec: ExperimentSpec, backend: string, workers: number, checkpoint?: Checkpoint): ExperimentRun {
  const options = { backend, checkpoint, warmStartCache: nodeWarmStartCache(), memoryLimits: defaultLimits(backend) };
  // Resolved once in this thread, for the plan and the lead part (resolve.ts); the other parts'
  // threads receive the spec (plain data) and resolve it on their side.
  const x = resolveSpec(spec);
  const parts: RunPart[] = planParts(spec, workers, x.maxLen);
  if (parts.length === 1) return createRun(x, options);
  const [lead, ...rest] = parts;
  const handles = [localPart(createRun(x, { ...options, part: lead })), ...rest.map((part) => remotePart(partThread(), { spec, part, backend, checkpoint }))];
  return pooledRun(spec, handles, { backend, checkpoint, now });
}

/** One whole seed in a worker thread (a part with every arm): seeds run side by side this way. */
export function wholeSeedRun(spec: ExperimentSpec, backend: string): ExperimentRun {
  const part: RunPart = { arms: spec.arms.map((a) => a.id), lead: true };
  return pooledRun(spec, [remotePart(partThread(), { spec, part, backend })], { backend, now });
}
