/**
 * Every core in the browser: the training worker's run on a pool of workers. The training worker
 * runs the lead part itself (core/experiment/parts.ts; it also chose the backend) and one nested
 * worker each other part, running the training worker's own script (partServer.ts: no second
 * bundle to load); pooledRun.ts merges their events into the one stream the page already reads,
 * and their checkpoints into one.
 *
 * Only the CPU backends (wasm, cpu) are pooled: on WebGPU and WebGL one device serves every
 * worker and a stack's kernels do not grow with its copies (README, "Architecture"), so splitting
 * the arms would only add kernels. Pool size: `?workers=N` (tests, comparisons), else one worker
 * per logical core (navigator.hardwareConcurrency), never more than the arms.
 */
import { planParts } from '../core/experiment/parts';
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

function partWorker(script: string): PartPort {
  const w = new Worker(script, { type: 'module' });
  return {
    post: (cmd) => w.postMessage(cmd),
    listen(reply, fail) {
      w.onmessage = (event: MessageEvent<PartReply>) => reply(event.data);
      w.onerror = (event) => {
        event.preventDefault();
        fail(event.message || 'it could not be loaded');
      };
      w.onmessageerror = () => fail('a message could not be read');
    },
    terminate: () => w.terminate(),
  };
}

/**
 * The run of `spec` on `workers` workers (this one included); 1: the plain run. `script`: the
 * training worker's own URL (self.location.href), which the pool's workers run.
 */
export function pooledBrowserRun(spec: ExperimentSpec, options: RunOptions & { backend: string }, workers: number, script: string): ExperimentRun {
  const parts = planParts(spec, workers);
  if (parts.length === 1) return createRun(spec, options);
  const checkpoint: Checkpoint | undefined = options.checkpoint;
  const [lead, ...rest] = parts;
  const handles = [
    localPart(createRun(spec, { ...options, part: lead })),
    ...rest.map((part) => remotePart(partWorker(script), { spec, part, backend: options.backend, checkpoint })),
  ];
  return pooledRun(spec, handles, { backend: options.backend, checkpoint, now: () => performance.now() });
}
