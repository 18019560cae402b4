/**
 * Where an RL step's CPU time goes, kernel by kernel (npm run bench:ops -- --profile-kernels).
 *
 * Every kernel registered for the active backend is wrapped (for the profile only) with a timer of
 * the process's CPU time, exclusive of any kernel it runs through the registry itself. A step's
 * CPU time minus the sum over its kernels is the time outside them: tfjs's engine (tensor
 * tracking, the gradient tape, saved tensors), the models' and GRPO's JavaScript, the rollout.
 * CPU time rather than wall time, since this machine is shared: other processes' work moves it
 * far less. The wrappers cost a little per call (two getrusage calls), counted inside the kernels.
 */
import * as tf from '@tensorflow/tfjs';
import { createRun } from '../src/core/experiment/runner';
import type { BenchCase } from '../src/core/benchmark/index';

type Tally = { ms: number; calls: number };

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function add(map: Map<string, Tally>, key: string, ms: number): void {
  const t = map.get(key) ?? { ms: 0, calls: 0 };
  t.ms += ms;
  t.calls++;
  map.set(key, t);
}

/** Wrap every kernel of `backend`; returns the tallies and a function that puts tfjs's back. */
function wrapKernels(backend: string) {
  const byName = new Map<string, Tally>();
  const byShape = new Map<string, Tally>();
  const children: number[] = []; // per open kernel: CPU ms spent in kernels it called
  const originals = tf.getKernelsForBackend(backend);
  let on = false;
  for (const config of originals) {
    const f = config.kernelFunc;
    const timed = ((args: { inputs: tf.NamedTensorInfoMap }) => {
      if (!on) return f(args as never);
      const t0 = cpuMs();
      children.push(0);
      try {
        return f(args as never);
      } finally {
        const total = cpuMs() - t0;
        const own = total - children.pop()!;
        if (children.length) children[children.length - 1] += total;
        add(byName, config.kernelName, own);
        const shapes = Object.values(args.inputs as Record<string, tf.TensorInfo | undefined>)
          .filter((t): t is tf.TensorInfo => !!t && Array.isArray(t.shape))
          .map((t) => `[${t.shape.join(',')}]`)
          .join(' ');
        add(byShape, `${config.kernelName} ${shapes}`, own);
      }
    }) as tf.KernelFunc;
    tf.unregisterKernel(config.kernelName, backend);
    tf.registerKernel({ ...config, kernelFunc: timed });
  }
  return {
    byName,
    byShape,
    start: () => (on = true),
    stop: () => (on = false),
    restore: () => {
      for (const config of originals) {
        tf.unregisterKernel(config.kernelName, backend);
        tf.registerKernel(config);
      }
    },
  };
}

/** Profile `steps` RL steps of `c` after `warmup` unprofiled ones; a Markdown report. */
export async function profileKernels(c: BenchCase, steps: number, warmup: number, log: (line: string) => void, shapeRows = 30): Promise<string> {
  const backend = tf.getBackend();
  const prof = wrapKernels(backend);
  const run = createRun(c.spec, { backend });
  const events = run.events();
  let stepMs = 0;
  let wallMs = 0;
  try {
    for (;;) {
      const e = await events.next();
      if (e.done) throw new Error(`${c.id}: the run ended before its RL steps`);
      if (e.value.type === 'base') break;
    }
    for (let i = 0; i < warmup + steps; i++) {
      const measured = i >= warmup;
      log(`${c.id}: ${measured ? 'profiled' : 'warm-up'} step ${i + 1} of ${warmup + steps}`);
      if (measured) prof.start();
      const [t0, w0] = [cpuMs(), performance.now()];
      const e = await events.next();
      if (measured) {
        stepMs += cpuMs() - t0;
        wallMs += performance.now() - w0;
      }
      prof.stop();
      if (e.done || e.value.type !== 'step') throw new Error(`${c.id}: expected a step event`);
    }
  } finally {
    prof.stop();
    prof.restore();
    run.dispose();
    await events.return(undefined).catch(() => undefined);
  }
  const per = (x: number) => x / steps;
  const inKernels = [...prof.byName.values()].reduce((a, t) => a + t.ms, 0);
  const calls = [...prof.byName.values()].reduce((a, t) => a + t.calls, 0);
  const pct = (ms: number) => ((100 * ms) / stepMs).toFixed(1);
  const rows = (map: Map<string, Tally>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, n)
      .map(([k, t]) => `| ${k} | ${per(t.calls).toFixed(0)} | ${per(t.ms).toFixed(1)} | ${pct(t.ms)}% |`);
  return [
    `${c.id} on ${backend}, ${steps} RL steps after ${warmup} warm-up: ${per(stepMs).toFixed(0)} CPU ms a step (${per(wallMs).toFixed(0)} ms wall), ` +
      `${per(calls).toFixed(0)} kernel calls; in kernels ${per(inKernels).toFixed(0)} ms (${pct(inKernels)}%), outside them ${per(stepMs - inKernels).toFixed(0)} ms (${pct(stepMs - inKernels)}%).`,
    '',
    '| kernel | calls / step | CPU ms / step | of the step |',
    '|---|---:|---:|---:|',
    ...rows(prof.byName, 20),
    `| (outside kernels: engine, tape, JS) | | ${per(stepMs - inKernels).toFixed(1)} | ${pct(stepMs - inKernels)}% |`,
    '',
    '| kernel and input shapes | calls / step | CPU ms / step | of the step |',
    '|---|---:|---:|---:|',
    ...rows(prof.byShape, shapeRows),
  ].join('\n');
}
