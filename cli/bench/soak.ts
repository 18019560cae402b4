/**
 * npm run soak -- [--preset quick] [--steps 2000] [--every 100] [--backend wasm|cpu]
 * npm run soak -- --browser [--preset quick] [--steps 300] [--every 25] [--backend webgpu|webgl|wasm|cpu]
 *
 * A long run: the preset for --steps RL steps (evaluating every 100 steps, as a long run in the
 * lab would: src/core/benchmark/soak.ts), sampling tf.memory() and a memory figure every --every
 * steps, then the verdict of soak-lib.ts: the tensor count must not move, memory must not grow.
 *
 * - Node (default): the backend initialised here; memory is the JS heap after a full GC and the wasm
 *   backend's linear memory (both judged), and the process rss (reported only); members
 *   warm-start themselves. Needs node --expose-gc, which `npm run soak` passes.
 * - --browser: the bench page (bench.html, src/bench/soak-page.ts) in headless Chromium with the
 *   bench's WebGPU flags (SwiftShader without a GPU), on --backend (default webgpu), with the shipped
 *   warm starts (cli/bench/bench-browser.ts runBrowserSoak). The memory figure is the page's JS heap
 *   after a forced GC; tfjs-webgpu's allocated GPU buffers are read too and judged from the first
 *   held-out evaluation on (a pool grows once there by design: soak-lib.ts readPool). --minutes M
 *   stops the run after the first step that ends past M minutes and judges the samples so far
 *   (SwiftShader takes seconds a step); --timeout (default 120 minutes) gives up waiting for the page.
 *
 * Exit 0 when everything is flat, 1 otherwise, 2 on bad arguments. Figures in docs/RELIABILITY.md
 * and docs/BENCHMARKS.md. Not part of `npm test` (minutes).
 */
import * as tf from '@tensorflow/tfjs';
import { choiceFlag, intFlag, parseArgs, runMain, UsageError } from '../common/args';
import { resolveSpec } from '../experiment/experiment-lib';
import { initNodeBackend } from '../../src/engine/node-backend';
import { createRun } from '../../src/core/experiment/runner';
import { SOAK_EVAL_EVERY, soakSpec } from '../../src/core/benchmark/soak';
import { readMemory, readPool, readSoak, type SoakSample } from './soak-lib';
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

/** The wasm backend's linear memory (it only grows: a leak inside the module shows here); null off wasm. */
function wasmHeapBytes(): number | null {
  const b = tf.backend() as unknown as { wasm?: { HEAPU8?: Uint8Array } };
  return b.wasm?.HEAPU8?.byteLength ?? null;
}

interface NodeSoak {
  /** memory: the JS heap in use after a full GC (npm run soak passes --expose-gc). */
  samples: SoakSample[];
  wasmHeap: (number | null)[];
  rss: number[];
  /** Size of the run's summary as JSON at the end: the history a run keeps by design. */
  summaryChars?: number;
}

/**
 * The Node soak. Memory is read three ways at each sample: the JS heap in use right after a full
 * garbage collection (what a leak of JS objects grows; judged), the wasm backend's linear memory
 * (judged), and the process's resident set (reported only: it moves with the allocator and the
 * GC's timing, 40-80 MB up and down on a busy 2-core machine).
 */
async function nodeSoak(preset: string, steps: number, every: number, backend: 'wasm' | 'cpu'): Promise<NodeSoak> {
  const spec = soakSpec(resolveSpec(preset, undefined), steps);
  const report = await initNodeBackend(backend);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('soak: run it as `npm run soak` (node --expose-gc): the JS heap is read after a full GC');
  console.error(`soak: ${preset}, ${steps} RL steps on ${report.backend}, a sample every ${every} steps`);
  const run = createRun(spec, { backend: report.backend });
  const out: NodeSoak = { samples: [], wasmHeap: [], rss: [] };
  const t0 = Date.now();
  const mbs = (b: number | null) => (b === null ? '-' : `${(b / 1048576).toFixed(1)} MB`);
  for await (const ev of run.events()) {
    if (ev.type === 'done') out.summaryChars = JSON.stringify(ev.summary).length;
    if (ev.type !== 'step' || ev.step % every !== 0) continue;
    const m = tf.memory();
    gc();
    const heap = process.memoryUsage().heapUsed;
    const rss = process.memoryUsage().rss;
    out.samples.push({ step: ev.step, tensors: m.numTensors, tensorBytes: m.numBytes, memory: heap });
    out.wasmHeap.push(wasmHeapBytes());
    out.rss.push(rss);
    console.error(`step ${ev.step}: ${m.numTensors} tensors, js heap ${mbs(heap)}, wasm heap ${mbs(wasmHeapBytes())}, rss ${mbs(rss)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  run.dispose();
  return out;
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
    const soak = await nodeSoak(preset, steps, every, backend);
    const verdict = readSoak(soak.samples, undefined, 'JS heap (after GC)');
    const wasm = readMemory(soak.samples.map((s, i) => ({ step: s.step, memory: soak.wasmHeap[i] })), undefined, 'wasm heap');
    const rss = readMemory(soak.samples.map((s, i) => ({ step: s.step, memory: soak.rss[i] })), undefined, 'process rss');
    lines.push(...verdict.lines);
    if (wasm.flat !== null) lines.push(wasm.line);
    if (soak.summaryChars !== undefined) lines.push(`the run's summary (every member's metrics at every step, kept by design): ${(soak.summaryChars / 1048576).toFixed(1)} MB as JSON`);
    lines.push(`${rss.line.replace(/ \((NOT )?flat: tolerance [^)]*\)/, '')} (reported, not judged: the allocator and GC timing move it)`);
    flat = verdict.tensorsFlat && verdict.memoryFlat !== false && wasm.flat !== false;
  }
  for (const line of lines) console.log(line);
  const stopped = ran < steps ? ` (stopped by --minutes; the run was set for ${steps})` : '';
  console.log(`${ran} steps in ${((Date.now() - t0) / 1000).toFixed(0)} s${stopped}`);
  if (!flat) throw new Error('soak: not flat (see above)');
}

runMain(main, 'soak');
