/**
 * npx tsx cli/bench/bench-stack-matmul.ts [--rounds 15] [--steps 6] [--case collapse]: LabStackMatMul
 * (src/engine/kernels/mlpStackMatMul.ts) against the split it replaces in layers.ts's matMulK, on
 * wasm, in one process, alternating (the machine is shared: only ratios of neighbours mean much).
 *
 * 1. matMulK at the MLP cohort's stack shapes (K = 6): forward and backward where the update takes
 *    a gradient, forward alone where only the rollout runs it; process CPU ms per call (10 calls a
 *    round), medians over the rounds and the ratio's median and range.
 * 2. Whole RL steps of a bench case, every step with or without the kernel in turn (the numbers are
 *    the same either way, so one run serves both): CPU ms per step.
 * A measurement, not a test.
 */
import * as tf from '@tensorflow/tfjs';
import { intFlag, parseArgs, runMain } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { matMulK } from '../../src/core/models/layers';
import { benchCase, parseCases } from '../../src/core/benchmark/index';
import { createRun } from '../../src/core/experiment/runner';
import { STACK_MATMUL_KERNELS } from '../../src/engine/kernels/mlpStackMatMul';
import { STACK_MATMUL } from '../../src/core/models/stackMatMul';

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const set = (on: boolean) => {
  if (tf.getKernel(STACK_MATMUL, 'wasm')) tf.unregisterKernel(STACK_MATMUL, 'wasm');
  if (on) for (const c of STACK_MATMUL_KERNELS) tf.registerKernel(c);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratioCell = (split: number[], ours: number[]) => {
  const r = split.map((s, i) => s / ours[i]);
  return `${median(r).toFixed(2)}x (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)})`;
};

/** [K, M, Din, Dout, with gradient]: the collapse cohort's products (6 MLPs, d64, window 6, V 18). */
const SHAPES: [number, number, number, number, boolean][] = [
  [6, 1024, 108, 64, true], // the folded first layer in the update (128 rollouts x 8 positions)
  [6, 1024, 64, 64, true], // the hidden layer in the update
  [6, 1024, 64, 18, true], // the head in the update
  [6, 128, 108, 64, false], // the first layer for one decoded token
  [6, 128, 64, 18, false], // the head for one decoded token
  [6, 18, 64, 384, false], // the embedding folded into the first layer, every forward
];

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { rounds: 'string', steps: 'string', case: 'string' });
  const rounds = intFlag(args, 'rounds', 2, 100) ?? 15;
  const steps = intFlag(args, 'steps', 2, 100) ?? 6;
  const [caseId] = parseCases(String(args.flags.get('case') ?? 'collapse'));
  await initNodeBackend('wasm', { fallback: false });

  console.log('| matMulK | split ms | LabStackMatMul ms | split / ours |\n|---|---:|---:|---|');
  for (const [K, M, din, dout, grad] of SHAPES) {
    const x = tf.randomNormal([K, M, din]) as tf.Tensor3D;
    const w = tf.randomNormal([K, din, dout]) as tf.Tensor3D;
    const g = tf.grads((a: tf.Tensor, b: tf.Tensor) => tf.sum(matMulK(a as tf.Tensor3D, b as tf.Tensor3D)));
    const call = () => tf.dispose(tf.tidy(() => (grad ? g([x, w]) : [matMulK(x, w)])));
    const ms = { split: [] as number[], ours: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const on of r % 2 ? [true, false] : [false, true]) {
        set(on);
        call();
        const t0 = cpu();
        for (let i = 0; i < 10; i++) call();
        (on ? ms.ours : ms.split).push((cpu() - t0) / 10);
      }
    }
    console.log(`| [${K},${M},${din}] @ [${K},${din},${dout}] ${grad ? 'forward + backward' : 'forward'} | ${median(ms.split).toFixed(2)} | ${median(ms.ours).toFixed(2)} | ${ratioCell(ms.split, ms.ours)} |`);
    tf.dispose([x, w]);
  }

  const run = createRun(benchCase(caseId).spec, { backend: 'wasm' });
  const events = run.events();
  try {
    for (;;) {
      const e = await events.next();
      if (e.done) throw new Error('the run ended before its RL steps');
      if (e.value.type === 'base') break;
    }
    await events.next(); // a warm-up step
    const ms = { split: [] as number[], ours: [] as number[] };
    for (let r = 0; r < steps; r++) {
      for (const on of r % 2 ? [true, false] : [false, true]) {
        set(on);
        const t0 = cpu();
        await events.next();
        (on ? ms.ours : ms.split).push(cpu() - t0);
      }
    }
    console.log(`\n${caseId}, ${steps} RL steps each way, alternating: CPU ms per step, split ${median(ms.split).toFixed(0)} (${ms.split.map((x) => x.toFixed(0)).join(', ')}), ` +
      `ours ${median(ms.ours).toFixed(0)} (${ms.ours.map((x) => x.toFixed(0)).join(', ')}); split / ours ${ratioCell(ms.split, ms.ours)}`);
  } finally {
    set(true);
    run.dispose();
  }
  process.exit(0);
}

runMain(main, 'bench-stack-matmul');
