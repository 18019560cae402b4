/**
 * The Node bench's WebGPU rows (cli/bench/bench.ts --backends webgpu) as one program that runs on a GPU
 * machine with no Node and no npm: scripts/device-bench.sh bundles this file with esbuild and
 * carries it, a Node binary, Dawn (the `webgpu` package's dawn.node) and a Vulkan loader there.
 * It writes the rows, the adapter Dawn chose and the machine to one JSON file
 * (bench/results/gpu.json once copied back; cli/bench/bench-gpu-lib.ts makes BENCHMARKS' gpu section
 * from it). A measurement, not a test.
 *
 *   node bench-gpu.mjs [--cases collapse,scaling,transformer,peers-teach] [--repeats 5] [--warmup 2]
 *                      [--cpu-forward true,false] [--wasm] [--gpu 'NVIDIA H200, driver 580.x'] [--json FILE]
 *
 *   --cpu-forward LIST  the webgpu rows once per value of tfjs-webgpu's WEBGPU_CPU_FORWARD (default true,
 *                       the lab's setting; false: every kernel dispatched on the GPU)
 *   --wasm              also the wasm rows of the same cases on the same machine's CPU (the wasm
 *                       binaries beside the bundle, or tfjs-backend-wasm's own under tsx)
 *   --gpu TEXT          what nvidia-smi says of the GPU, recorded as given
 *
 * The JSON is rewritten after every row, so a run cut short keeps what it measured.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { parseArgs, intFlag, UsageError, runMain } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { benchCase, measureCase, parseCases, type CaseId } from '../../src/core/benchmark/index';
import type { GpuBench } from './bench-gpu-lib';

const FLAGS = { cases: 'string', repeats: 'string', warmup: 'string', 'cpu-forward': 'string', wasm: 'boolean', gpu: 'string', json: 'string', help: 'boolean' } as const;
const USAGE = `usage: node bench-gpu.mjs [--cases collapse,scaling,transformer,peers-teach] [--repeats 5] [--warmup 2]
                         [--cpu-forward true,false] [--wasm] [--gpu TEXT] [--json FILE]
(flags: the comment at the top of cli/bench/bench-gpu.ts)`;

const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 1) + '\n');
}

/** Bundled (esbuild), the wasm binaries sit beside the bundle; under tsx tfjs-backend-wasm finds its own. */
function useWasmBesideBundle(): void {
  const here = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(here, 'tfjs-backend-wasm.wasm'))) setWasmPaths(here + '/');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  let cases: CaseId[];
  try {
    cases = parseCases(String(args.flags.get('cases') ?? 'collapse,scaling,transformer,peers-teach'));
  } catch (e) {
    throw new UsageError(`--cases: ${e instanceof Error ? e.message : String(e)}`);
  }
  const repeats = intFlag(args, 'repeats', 1, 100) ?? 5;
  const warmup = intFlag(args, 'warmup', 0, 20) ?? 2;
  const forwards = String(args.flags.get('cpu-forward') ?? 'true').split(',').filter(Boolean);
  for (const f of forwards) if (f !== 'true' && f !== 'false') throw new UsageError(`--cpu-forward: "${f}" is not true or false`);
  const json = (args.flags.get('json') as string | undefined) ?? 'bench/results/gpu.json';
  const cpu = cpus();
  const result: GpuBench = {
    date: new Date().toISOString().slice(0, 10),
    command: `node bench-gpu.mjs ${process.argv.slice(2).join(' ')}`,
    machine: `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    node: process.version,
    gpu: (args.flags.get('gpu') as string | undefined) ?? null,
    adapterInfo: null,
    rows: [],
    skipped: [],
  };
  const save = () => writeJson(json, result);

  log('webgpu ...');
  const report = await initNodeBackend('webgpu', { fallback: false });
  result.adapterInfo = report.adapterInfo ?? null;
  log(`webgpu adapter: ${JSON.stringify(report.adapterInfo)}`);
  save();
  for (const f of forwards) {
    tf.env().set('WEBGPU_CPU_FORWARD', f === 'true');
    for (const id of cases) {
      try {
        const row = await measureCase(benchCase(id), { where: 'node', repeats, warmup, adapter: report.adapter, log: (l) => log(`webgpu cpu-forward ${f}: ${l}`) });
        log(`webgpu cpu-forward ${f}: ${id}: ${row.kernelsPerStep} kernels, ${row.dispatchesPerStep} dispatches, ${row.stepMs.median.toFixed(1)} ms/step`);
        result.rows.push(row);
      } catch (e) {
        result.skipped.push(`webgpu cpu-forward ${f} ${id}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
      save();
    }
  }
  tf.env().set('WEBGPU_CPU_FORWARD', true);

  if (args.flags.has('wasm')) {
    try {
      useWasmBesideBundle();
      await initNodeBackend('wasm', { fallback: false });
      for (const id of cases) {
        try {
          const row = await measureCase(benchCase(id), { where: 'node', repeats, warmup, log: (l) => log(`wasm: ${l}`) });
          log(`wasm: ${id}: ${row.kernelsPerStep} kernels, ${row.stepMs.median.toFixed(1)} ms/step`);
          result.rows.push(row);
        } catch (e) {
          result.skipped.push(`wasm ${id}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
        }
        save();
      }
    } catch (e) {
      result.skipped.push(`wasm: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      save();
    }
  }
  log(`wrote ${json}${result.skipped.length ? `; not measured: ${result.skipped.join('; ')}` : ''}`);
  process.exit(0); // Dawn keeps the process alive (docs/TFJS-AND-BROWSER.md)
}

runMain(main, 'bench-gpu');
