/**
 * One RL step of the default preset's stack, counted and timed on tfjs's webgpu path and on the
 * fused path (src/engine/fused) on the same Dawn device: GPU dispatches, queue submits, GPU
 * readbacks and tfjs kernels a step (src/core/benchmark/counters.ts), and the step's wall time.
 * Writes bench/results/fused.json; cli/bench/bench-fused-lib.ts makes BENCHMARKS' fused section
 * from it. A measurement, not a test (budgets.test.ts asserts the fused counts).
 *
 *   npx tsx cli/bench/bench-fused.ts [--preset peers-learn] [--repeats 3] [--warmup 1] [--json FILE]
 *
 * Votes, rewards and advantages are the CPU's in both paths and are not timed: the advantages
 * here are a fixed pattern, since only the cost of the GPU's part is measured.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { parseArgs, intFlag, UsageError, runMain } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { installCounters, type Counts } from '../../src/core/benchmark/counters';
import { getPreset } from '../../src/core/experiment/presets';
import { lengthCap, runMaxLen, runVocabSize } from '../../src/core/experiment/lengths';
import { resolveTask } from '../../src/core/tasks/index';
import { makeSplit, promptTokens } from '../../src/core/tasks/index';
import { Rng } from '../../src/core/random';
import { Adam } from '../../src/core/adam';
import { createPolicy, ModelStack, stackOf } from '../../src/core/models/index';
import { shapeKey } from '../../src/core/models/stack';
import type { PolicyConfig } from '../../src/core/models/policy';
import { sampleStack, type RolloutBatch } from '../../src/core/rollout';
import { completionMask } from '../../src/core/experiment/arm';
import { grpoUpdateStackOnDevice, readStackUpdateStats, type GrpoUpdateOptions } from '../../src/core/grpo/update';
import { FusedMlpStack } from '../../src/engine/fused/mlpStack';
import { STEP_BUDGETS } from '../../src/engine/fused/budgets';
import type { FusedBench, FusedRow } from './bench-fused-lib';

const FLAGS = { preset: 'string', repeats: 'string', warmup: 'string', json: 'string', help: 'boolean' } as const;
const USAGE = 'usage: npx tsx cli/bench/bench-fused.ts [--preset peers-learn] [--repeats 3] [--warmup 1] [--json FILE]';
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) return console.log(USAGE);
  const presetId = String(args.flags.get('preset') ?? 'peers-learn');
  const preset = getPreset(presetId);
  if (!preset) throw new UsageError(`--preset: no preset "${presetId}"`);
  const repeats = intFlag(args, 'repeats', 1, 50) ?? 3;
  const warmup = intFlag(args, 'warmup', 0, 10) ?? 1;
  const json = (args.flags.get('json') as string | undefined) ?? 'bench/results/fused.json';
  const spec = preset.spec;
  const first = spec.members[0];
  if (first.family !== 'mlp') throw new UsageError(`--preset: the fused path has the MLP family only; ${presetId}'s first member is a ${first.family}`);
  const task = resolveTask(spec.task);
  const config: PolicyConfig = { family: 'mlp', vocabSize: runVocabSize(spec, task), maxLen: runMaxLen(spec, task), dModel: first.dModel, layers: first.layers, window: first.window };
  const key = shapeKey(config);
  // Every (arm, member) copy of this shape: the preset's stack.
  const same = (id: string) => spec.members.some((m) => m.id === id && m.family === 'mlp' && m.dModel === first.dModel && m.layers === first.layers && m.window === first.window);
  const K = spec.arms.reduce((n, arm) => n + arm.members.filter(same).length, 0);
  const B = spec.grpo.promptsPerStep;
  const G = spec.grpo.groupSize;
  const L = lengthCap(spec, task);
  const opts: GrpoUpdateOptions = {
    temperature: spec.grpo.temperature, clipEps: spec.grpo.clipEps, beta: spec.grpo.beta, normalisation: spec.grpo.lossNormalisation,
    maxCompletionLength: L, maxGradNorm: spec.grpo.maxGradNorm, updatesPerBatch: spec.grpo.updatesPerBatch,
  };

  const report = await initNodeBackend('webgpu', { fallback: false });
  const a = report.adapterInfo;
  const adapter = a ? (a.architecture === 'swiftshader' ? 'SwiftShader (no GPU)' : `${a.vendor} ${a.device || a.description}`.trim()) : 'an unknown adapter';
  log(`webgpu on ${adapter}; ${presetId}: ${K} x ${key}, B ${B}, G ${G}, L ${L}`);
  const cpu = cpus();
  const result: FusedBench = {
    date: new Date().toISOString().slice(0, 10),
    command: `npx tsx cli/bench/bench-fused.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine: `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()[0].toFixed(1)} at the start`,
    node: process.version,
    adapter,
    batch: { prompts: B, groupSize: G, maxNewTokens: L },
    rows: [],
  };

  const singles = Array.from({ length: K }, (_, k) => createPolicy(config, new Rng(k, 'bench-fused')));
  const stack = ModelStack.concat(singles.map((p) => stackOf(p)!));
  singles.forEach((p) => p.dispose());
  const problems = makeSplit(task, spec.task.difficulty, new Rng(1), { warmStart: 0, rl: B, heldOut: 0 }).rl;
  const prompts = problems.map((p) => promptTokens(task, spec.task.difficulty, p.prompt));
  const rngs = (step: number) => Array.from({ length: K }, (_, k) => new Rng(step, `bench-fused-${k}`));
  const rollout = (step: number) => ({ groupSize: G, temperature: spec.grpo.temperature, maxNewTokens: L, rngs: rngs(step) });
  const advantages = (N: number) => Array.from({ length: K }, (_, k) => Float32Array.from({ length: N }, (_, i) => ((i + k) % 3) - 1));

  const measure = async (path: FusedRow['path'], step: (i: number) => Promise<void>) => {
    const row: FusedRow = { path, preset: presetId, models: K, shape: key.replace(/ V\d+ T\d+$/, ''), dispatches: [], submits: [], gpuReadbacks: [], kernels: [], stepMs: [], budget: path === 'fused' ? STEP_BUDGETS.mlp : null };
    for (let i = 0; i < warmup + repeats; i++) {
      const c = installCounters();
      const t0 = performance.now();
      await step(i);
      const ms = performance.now() - t0;
      const n: Counts = c.snapshot();
      c.uninstall();
      if (i < warmup) continue;
      row.dispatches.push(n.dispatches);
      row.submits.push(n.submits);
      row.gpuReadbacks.push(n.gpuReadbacks);
      row.kernels.push(n.kernels);
      row.stepMs.push(Math.round(ms * 10) / 10);
      log(`${path}: ${n.dispatches} dispatches, ${n.submits} submits, ${n.gpuReadbacks} GPU readbacks, ${n.kernels} kernels, ${ms.toFixed(1)} ms`);
    }
    result.rows.push(row);
    mkdirSync(dirname(json), { recursive: true });
    writeFileSync(json, JSON.stringify(result, null, 1) + '\n');
  };

  // tfjs's path: the core's rollout, then its update (one readback each).
  const adam = new Adam(stack.variables, { learningRate: spec.grpo.learningRate });
  await measure('tfjs webgpu', async (i) => {
    const batches = await sampleStack(stack, prompts, task, spec.task.difficulty, rollout(i));
    await tfjsUpdate(stack, adam, batches, advantages(B * G), opts);
  });

  // The fused path: this step's update and the next step's rollouts, one submit.
  const device = (tf.backend() as unknown as { device: GPUDevice }).device;
  const fused = await FusedMlpStack.create(device, stack, adam);
  let batches = await fused.sample(prompts, task, spec.task.difficulty, rollout(0));
  await measure('fused', async (i) => {
    ({ batches } = await fused.updateThenSample(batches, advantages(B * G), opts, { prompts, task, difficulty: spec.task.difficulty, opts: rollout(i + 1) }));
  });
  fused.dispose();
  adam.dispose();
  stack.dispose();
  log(`wrote ${json}`);
  process.exit(0); // Dawn keeps the process alive (docs/TFJS-AND-BROWSER.md)
}

async function tfjsUpdate(stack: ModelStack, adam: Adam, batches: RolloutBatch[], adv: Float32Array[], opts: GrpoUpdateOptions): Promise<void> {
  const K = batches.length;
  const r0 = batches[0];
  const N = r0.numPrompts * r0.groupSize;
  const T = r0.promptLength + r0.maxNewTokens;
  const cat = <A extends Float32Array | Int32Array>(parts: A[], out: A) => (parts.forEach((p, k) => out.set(p, k * p.length)), out);
  const tokens = tf.tensor3d(cat(batches.map((b) => b.sequences), new Int32Array(K * N * T)), [K, N, T], 'int32');
  const mask = tf.tensor3d(cat(batches.map(completionMask), new Float32Array(K * N * (T - 1))), [K, N, T - 1]);
  const advantages = tf.tensor2d(cat(adv, new Float32Array(K * N)), [K, N]);
  try {
    await readStackUpdateStats(grpoUpdateStackOnDevice(stack, adam, { tokens, completionMask: mask, advantages, from: r0.promptLength - 1 }, opts));
  } finally {
    tf.dispose([tokens, mask, advantages]);
  }
}

runMain(main, 'cli/bench/bench-fused.ts');
