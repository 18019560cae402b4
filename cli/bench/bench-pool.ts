/**
 * npm run bench:pool -- [--preset collapse,peers-teach] [--steps 20] [--workers 2]
 *
 * What a pool of worker threads (cli/experiment/pool.ts) gives on this machine, per preset: the median RL
 * step on 1 thread and on N threads (wall time, the merge and messages included), and, from the
 * same pooled run, each part's own step time, so the split's ideal speedup (sum of the parts /
 * the slowest part) and the pool's overhead (wall - slowest part) are read from one run. Shared
 * machines: the load average is printed with every figure; ratios from one run are the robust part.
 */
import { loadavg } from 'node:os';
import { getPreset } from '../../src/core/experiment/presets';
import type { RunnerEvent } from '../../src/core/experiment/events';
import { planParts } from '../../src/core/experiment/parts';
import { createRun } from '../../src/core/experiment/runner';
import { defaultLimits } from '../../src/core/experiment/budget';
import { initNodeBackend } from '../../src/engine/node-backend';
import { localPart, pooledRun, type PartHandle } from '../../src/engine/pooledRun';
import { remotePart } from '../../src/engine/partRpc';
import { nodeWarmStartCache } from '../../src/engine/warmStartNode';
import { intFlag, parseArgs, runMain } from '../common/args';
import { partThread } from '../experiment/pool';

const FLAGS = { preset: 'string', steps: 'string', workers: 'string' } as const;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** A part whose own step times (its runner's stepMs) are recorded. */
function timed(p: PartHandle, into: number[][]): PartHandle {
  const mine: number[] = [];
  into.push(mine);
  return {
    ...p,
    next: async () => {
      const r = await p.next();
      if (!r.done && (r.value as RunnerEvent).type === 'step') mine.push((r.value as Extract<RunnerEvent, { type: 'step' }>).stepMs);
      return r;
    },
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  const presets = ((args.flags.get('preset') as string | undefined) ?? 'collapse,peers-teach').split(',');
  const steps = intFlag(args, 'steps', 2, 1000) ?? 20;
  const workers = intFlag(args, 'workers', 2, 64) ?? 2;
  await initNodeBackend('wasm');
  const options = { backend: 'wasm', warmStartCache: nodeWarmStartCache(), memoryLimits: defaultLimits('wasm') };
  for (const id of presets) {
    const spec = { ...structuredClone(getPreset(id)!.spec), steps };
    const stepMs = async (run: ReturnType<typeof createRun>) => {
      const xs: number[] = [];
      for await (const e of run.events()) if (e.type === 'step' && e.step > 1) xs.push(e.stepMs);
      run.dispose();
      return median(xs);
    };
    const l1 = load();
    const one = await stepMs(createRun(spec, options));
    const parts = planParts(spec, workers);
    const own: number[][] = [];
    const l2 = load();
    const [lead, ...rest] = parts;
    const handles = [timed(localPart(createRun(spec, { ...options, part: lead })), own), ...rest.map((part) => timed(remotePart(partThread(), { spec, part, backend: 'wasm' }), own))];
    const pooled = await stepMs(pooledRun(spec, handles, { backend: 'wasm', now: () => performance.now() }));
    const partMs = own.map((xs) => median(xs.slice(1)));
    const slowest = Math.max(...partMs);
    const sum = partMs.reduce((s, x) => s + x, 0);
    console.log(
      `${id} (${steps} steps, median from step 2): 1 thread ${one.toFixed(0)} ms [load ${l1}]; ${parts.length} threads ${pooled.toFixed(0)} ms [load ${l2}] = ${(one / pooled).toFixed(2)}x; ` +
        `parts ${parts.map((p, k) => `${p.arms.join('+')} ${partMs[k].toFixed(0)} ms`).join(', ')}: ideal ${(sum / slowest).toFixed(2)}x, pool overhead ${(pooled - slowest).toFixed(0)} ms/step`,
    );
  }
}

runMain(main, 'bench:pool');
