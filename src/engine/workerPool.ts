/**
 * Every core in the browser: the training worker's run on a pool of workers. The training worker
 * runs the lead part itself (core/experiment/parts.ts; it also chose the backend) and one nested
 * worker each other part, running the training worker's own script (partServer.ts: no second
 * bundle to load); pooledRun.ts merges their events into the one stream the page already reads,
 * and their checkpoints into one.
 *
 * Only the CPU backends (wasm, cpu) are pooled: on WebGPU and WebGL one device serves every
 * worker and a stack's kernels do not grow with its copies (docs/ARCHITECTURE.md, "Stacks and determinism"), so splitting
 * the arms would only add kernels. Pool size: `?workers=N` (tests, comparisons), else one worker
 * per logical core (navigator.hardwareConcurrency), never more than the arms.
 */
import { planParts } from '../core/experiment/parts';
import { resolveSpec } from '../core/experiment/resolve';
import { createRun, type Checkpoint, type ExperimentRun, type RunOptions } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import { remotePart, type PartPort, type PartReply } from './partRpc';
import { localPart, pooledRun } from './pooledRun';

/** The most workers a ?workers= value may ask for. */
export const MAX_WORKERS = 64;

/** Workers for a run on `backend`: `requested` (a valid ?workers=) or one per core; 1 off the CPU backends. */
export function poolSize(backend: string, requested: number | null, cores: number): number {
  if (backend !== 'wasm' && backend !== 'cpu') return 1;
  return Math.max(1, Math.min(MAX_WORKERS, requested ?? cores));
}

/** A nested worker running `script`. Its errors are caught from the start (a spare's too). */
function partWorker(script: string): PartPort {
  const w = new Worker(script, { type: 'module' });
  let reply: ((r: PartReply) => void) | null = null;
  let fail: ((message: string) => void) | null = null;
  let failed: string | null = null;
  const failure = (message: string) => {
    failed ??= message;
    fail?.(message);
  };
  w.onmessage = (event: MessageEvent<PartReply>) => reply?.(event.data);
  w.onerror = (event) => {
    event.preventDefault();
    failure(event.message || 'it could not be loaded');
  };
  w.onmessageerror = () => failure('a message could not be read');
  return {
    post: (cmd) => w.postMessage(cmd),
    listen(onReply, onFail) {
      reply = onReply;
      fail = onFail;
      if (failed !== null) onFail(failed);
    },
    terminate: () => w.terminate(),
  };
}

/**
 * Workers started ahead of a run (prewarm), so its pool does not wait for a worker's script and
 * tfjs to load (about a second each in Chromium on 2 cores). At most MAX_SPARES: presets have at
 * most 4 arms, and an idle worker holds tfjs's memory.
 */
const spares: PartPort[] = [];
export const MAX_SPARES = 3;

/** Keep min(n, MAX_SPARES) workers of `script` ready; n <= 0 ends them (a GPU backend). */
export function prewarm(n: number, script: string): void {
  const want = Math.max(0, Math.min(n, MAX_SPARES));
  while (spares.length > want) spares.pop()!.terminate();
  while (spares.length < want) spares.push(partWorker(script));
}

const takeWorker = (script: string): PartPort => spares.shift() ?? partWorker(script);

/**
 * The run of `spec` on `workers` workers (this one included); 1: the plain run. `script`: the
 * training worker's own URL (self.location.href), which the pool's workers run.
 */
export function pooledBrowserRun(spec: ExperimentSpec, options: RunOptions & { backend: string }, workers: number, script: string): ExperimentRun {
  // Resolved once in this worker, for the plan and the lead part (resolve.ts); the pool's other
  // workers receive the spec (plain data) and resolve it on their side.
  const x = resolveSpec(spec);
  const parts = planParts(spec, workers, x.maxLen);
  if (parts.length === 1) return createRun(x, options);
  const checkpoint: Checkpoint | undefined = options.checkpoint;
  const [lead, ...rest] = parts;
  const handles = [
    localPart(createRun(x, { ...options, part: lead })),
    ...rest.map((part) => remotePart(takeWorker(script), { spec, part, backend: options.backend, checkpoint })),
  ];
  return pooledRun(spec, handles, { backend: options.backend, checkpoint, now: () => performance.now() });
}
