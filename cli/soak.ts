/**
 * npm run soak -- [--preset quick] [--steps 2000] [--every 100] [--backend wasm|cpu]
 * npm run soak -- --browser [--preset quick] [--steps 300] [--every 25] [--backend webgpu|webgl|wasm|cpu]
 *
 * A long run: the preset for --steps RL steps (evaluating every 100 steps, as a long run in the
 * lab would: src/core/benchmark/soak.ts), sampling tf.memory() and a memory figure every --every
 * steps, then the verdict of soak-lib.ts: the tensor count must not move, memory must not grow.
 *
 * - Node (default): the backend initialised here; the memory figure is process.memoryUsage().rss;
 *   members warm-start themselves.
 * - --browser: the bench page (bench.html, src/bench/soak-page.ts) in headless Chromium with the
 *   bench's WebGPU flags (SwiftShader without a GPU), on --backend (default webgpu), with the shipped
 *   warm starts (cli/bench-browser.ts runBrowserSoak). The memory figure is the page's JS heap
 *   after a forced GC; tfjs-webgpu's allocated GPU buffers are read too and judged from the first
 *   held-out evaluation on (a pool grows once there by design: soak-lib.ts readPool). --minutes M
 *   stops the run after the first step that ends past M minutes and judges the samples so far
 *   (SwiftShader takes seconds a step); --timeout (default 120 minutes) gives up waiting for the page.
 *
 * Exit 0 when everything is flat, 1 otherwise, 2 on bad arguments. Figures in docs/RELIABILITY.md
 * and docs/BENCHMARKS.md. Not part of `npm test` (minutes).
 */
import * as tf from '@tensorflow/tfjs';
import { choiceFlag, intFlag, parseArgs, runMain, UsageError } from './args';
import { resolveSpec } from './experiment-lib';
import { initNodeBackend } from '../src/engine/node-backend';
import { createRun } from '../src/core/experiment/runner';
import { SOAK_EVAL_EVERY, soakSpec } from '../src/core/benchmark/soak';
import { readPool, readSoak, type SoakSample } from './soak-lib';
import { runBrowserSoak } from './bench-browser';

const FLAGS = {
  preset: 'string',
  steps: 'string',
  every: 'string',
  backend: 'string',
  browser: 'boolean',
  minutes: 'string',
  timeout: 'string',
  help: 'boolean',
} as const;
const USAGE = `usage: npm run soak -- [--preset quick] [--steps 2000] [--every 100] [--backend wasm|cpu]
       npm run soak -- --browser [--preset quick] [--steps 300] [--every 25] [--backend webgpu|webgl|wasm|cpu]
                               [--minutes M] [--timeout MIN]`;

async function nodeSoak(preset: string, steps: number, every: number, backend: 'wasm' | 'cpu'): Promise<SoakSample[]> {
  const spec = soakSpec(resolveSpec(preset, undefined), steps);
  const report = await initNodeBackend(backend);
  console.error(`soak: ${preset}, ${steps} RL steps on ${report.backend}, a sample every ${every} steps`);
  const run = createRun(spec, { backend: report.backend });
  const samples: SoakSample[] = [];
  const t0 = Date.now();
  for await (const ev of run.events()) {
    if (ev.type !== 'step' || ev.step % every !== 0) continue;
    const m = tf.memory();
    samples.push({ step: ev.step, tensors: m.numTensors, tensorBytes: m.numBytes, memory: process.memoryUsage().rss });
    console.error(`step ${ev.step}: ${m.numTensors} tensors, rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  run.dispose();
  return samples;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.get('help')) {
    console.log(USAGE);
    return;
  }
  const browser = args.flags.get('browser') === true;
  const steps = intFlag(args, 'steps', 10, 5000) ?? (browser ? 300 : 2000);
  const every = intFlag(args, 'every', 1, steps) ?? (browser ? 25 : 100);
  const preset = (args.flags.get('preset') as string | undefined) ?? 'quick';
  if (steps / every < 8) throw new UsageError('--steps / --every must give at least 8 samples');
  resolveSpec(preset, undefined); // an unknown preset is a usage error, before any build
  const t0 = Date.now();
  const lines: string[] = [];
  let flat: boolean;
  let ran = steps;
  if (browser) {
    const backend = choiceFlag(args, 'backend', ['webgpu', 'webgl', 'wasm', 'cpu'] as const) ?? 'webgpu';
    const timeoutMin = intFlag(args, 'timeout', 1, 24 * 60) ?? 120;
    const minutes = intFlag(args, 'minutes', 1, 24 * 60);
    console.error(`soak: ${preset}, ${steps} RL steps in Chromium on ${backend}, a sample every ${every} steps${minutes ? `, at most ${minutes} minutes` : ''}`);
    const result = await runBrowserSoak({ preset, steps, every, backend, minutes, timeoutMs: timeoutMin * 60_000, log: (l) => console.error(l) });
    if (result.samples.length < 8) throw new Error(`soak: ${result.samples.length} samples in ${result.steps} steps; at least 8 are needed (a larger --minutes or a smaller --every)`);
    ran = result.steps;
    const verdict = readSoak(result.samples, undefined, 'JS heap (after GC)');
    // The pool grows once at the first held-out evaluation by design (soak-lib.ts readPool).
    const firstEval = Math.min(SOAK_EVAL_EVERY, steps);
    const gpu = readPool(result.samples.map((s, i) => ({ step: s.step, memory: result.gpuBytes[i] })), firstEval, undefined, 'GPU buffers (tfjs-webgpu, allocated)');
    lines.push(`${result.browser}, ${backend}; warm starts ${result.warmStarts.join(', ')}`, ...verdict.lines);
    if (result.gpuBytes.some((b) => b !== null)) lines.push(...gpu.lines);
    flat = verdict.tensorsFlat && verdict.memoryFlat !== false && gpu.flat !== false;
  } else {
    const backend = choiceFlag(args, 'backend', ['wasm', 'cpu'] as const) ?? 'wasm';
    const verdict = readSoak(await nodeSoak(preset, steps, every, backend));
    lines.push(...verdict.lines);
    flat = verdict.tensorsFlat && verdict.memoryFlat !== false;
  }
  for (const line of lines) console.log(line);
  const stopped = ran < steps ? ` (stopped by --minutes; the run was set for ${steps})` : '';
  console.log(`${ran} steps in ${((Date.now() - t0) / 1000).toFixed(0)} s${stopped}`);
  if (!flat) throw new Error('soak: not flat (see above)');
}

runMain(main, 'soak');
