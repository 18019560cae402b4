/**
 * npm run soak -- [--preset quick] [--steps 2000] [--every 100] [--backend wasm|cpu]
 *
 * A long run on Node: the preset for --steps RL steps (evaluating every 100 steps, as a long run
 * in the lab would), sampling tf.memory() and process.memoryUsage().rss every --every steps, then
 * the verdict of soak-lib.ts: the tensor count must not move, process memory must not grow.
 * Exit 0 when both are flat, 1 otherwise, 2 on bad arguments. Figures in docs/RELIABILITY.md.
 * Not part of `npm test` (minutes). (The browser half, 300 steps on WebGPU in Chromium, is not
 * built yet.)
 */
import * as tf from '@tensorflow/tfjs';
import { choiceFlag, intFlag, parseArgs, runMain, UsageError } from './args';
import { resolveSpec } from './experiment-lib';
import { initNodeBackend } from '../src/engine/node-backend';
import { createRun } from '../src/core/experiment/runner';
import { readSoak, type SoakSample } from './soak-lib';

const FLAGS = { preset: 'string', steps: 'string', every: 'string', backend: 'string', help: 'boolean' } as const;
const USAGE = 'usage: npm run soak -- [--preset quick] [--steps 2000] [--every 100] [--backend wasm|cpu]';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.get('help')) {
    console.log(USAGE);
    return;
  }
  const steps = intFlag(args, 'steps', 10, 5000) ?? 2000;
  const every = intFlag(args, 'every', 1, steps) ?? 100;
  const backend = choiceFlag(args, 'backend', ['wasm', 'cpu'] as const) ?? 'wasm';
  const preset = (args.flags.get('preset') as string | undefined) ?? 'quick';
  if (steps / every < 8) throw new UsageError('--steps / --every must give at least 8 samples');
  const spec = { ...resolveSpec(preset, undefined, steps), evalEvery: 100 };
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
  const verdict = readSoak(samples);
  for (const line of verdict.lines) console.log(line);
  console.log(`${steps} steps in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (!verdict.tensorsFlat || verdict.memoryFlat === false) throw new Error('soak: not flat (see above)');
}

runMain(main, 'soak');
