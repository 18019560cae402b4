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
import { createRun } from '../../src/core/experiment/runner';
import type { BenchCase } from '../../src/core/benchmark/index';

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

interface Tallies {
  byName: Map<string, Tally>;
  byShape: Map<string, Tally>;
  stepMs: number;
  wallMs: number;
  steps: number;
}

const newTallies = (): Tallies => ({ byName: new Map(), byShape: new Map(), stepMs: 0, wallMs: 0, steps: 0 });

/** `configs` with each kernel timed into `t` while `on()`, exclusive of kernels it runs itself. */
function timedKernels(configs: tf.KernelConfig[], t: Tallies, on: () => boolean, children: number[]): tf.KernelConfig[] {
  return configs.map((config) => {
    const f = config.kernelFunc;
    const timed = ((args: { inputs: tf.NamedTensorInfoMap }) => {
      if (!on()) return f(args as never);
      const t0 = cpuMs();
      children.push(0); // per open kernel: CPU ms spent in kernels it called
      try {
        return f(args as never);
      } finally {
        const total = cpuMs() - t0;
        const own = total - children.pop()!;
        if (children.length) children[children.length - 1] += total;
        add(t.byName, config.kernelName, own);
        const shapes = Object.values(args.inputs as Record<string, tf.TensorInfo | undefined>)
          .filter((x): x is tf.TensorInfo => !!x && Array.isArray(x.shape))
          .map((x) => `[${x.shape.join(',')}]`)
          .join(' ');
        add(t.byShape, `${config.kernelName} ${shapes}`, own);
      }
    }) as tf.KernelFunc;
    return { ...config, kernelFunc: timed };
  });
}

/** Make `configs` the backend's whole kernel set. */
function install(backend: string, configs: tf.KernelConfig[]): void {
  for (const k of tf.getKernelsForBackend(backend)) tf.unregisterKernel(k.kernelName, backend);
  for (const k of configs) tf.registerKernel(k);
}

/** Swap the kernels under comparison: ours (true) or tfjs's (false). */
export type UseOurs = (ours: boolean) => void;

/**
 * Profile `steps` RL steps of `c` after `warmup` unprofiled ones; a Markdown report. With
 * `alternate`, the steps alternate between tfjs's kernels (first) and ours, in one run (the same
 * numbers either way where ours are equal bit for bit), and the tables have a column for each.
 */
export async function profileKernels(
  c: BenchCase,
  steps: number,
  warmup: number,
  log: (line: string) => void,
  opts: { shapeRows?: number; alternate?: UseOurs } = {},
): Promise<string> {
  const backend = tf.getBackend();
  const { alternate } = opts;
  let profiling = false;
  const on = () => profiling;
  const children: number[] = [];
  const registered = tf.getKernelsForBackend(backend);
  alternate?.(false);
  const theirs = { tallies: newTallies(), configs: [] as tf.KernelConfig[] };
  theirs.configs = timedKernels(tf.getKernelsForBackend(backend), theirs.tallies, on, children);
  alternate?.(true);
  const ours = { tallies: newTallies(), configs: [] as tf.KernelConfig[] };
  ours.configs = timedKernels(tf.getKernelsForBackend(backend), ours.tallies, on, children);
  const modes = alternate ? [theirs, ours] : [ours];
  const run = createRun(c.spec, { backend });
  const events = run.events();
  try {
    for (;;) {
      const e = await events.next();
      if (e.done) throw new Error(`${c.id}: the run ended before its RL steps`);
      if (e.value.type === 'base') break;
    }
    for (let i = 0; i < warmup + steps; i++) {
      const mode = modes[i % modes.length];
      install(backend, mode.configs);
      const measured = i >= warmup;
      log(`${c.id}: ${measured ? 'profiled' : 'warm-up'} step ${i + 1} of ${warmup + steps}${alternate ? (mode === ours ? ', ours' : ", tfjs's") : ''}`);
      profiling = measured;
      const [t0, w0] = [cpuMs(), performance.now()];
      const e = await events.next();
      if (measured) {
        mode.tallies.stepMs += cpuMs() - t0;
        mode.tallies.wallMs += performance.now() - w0;
        mode.tallies.steps++;
      }
      profiling = false;
      if (e.done || e.value.type !== 'step') throw new Error(`${c.id}: expected a step event`);
    }
  } finally {
    profiling = false;
    install(backend, registered);
    run.dispose();
    await events.return(undefined).catch(() => undefined);
  }
  const shown = modes.map((m) => m.tallies);
  const summary = (t: Tallies, label: string) => {
    const inKernels = [...t.byName.values()].reduce((a, x) => a + x.ms, 0);
    const calls = [...t.byName.values()].reduce((a, x) => a + x.calls, 0);
    const per = (x: number) => (x / t.steps).toFixed(0);
    const pct = (ms: number) => ((100 * ms) / t.stepMs).toFixed(1);
    return (
      `${label}${t.steps} RL steps: ${per(t.stepMs)} CPU ms a step (${per(t.wallMs)} ms wall), ${per(calls)} kernel calls; ` +
      `in kernels ${per(inKernels)} ms (${pct(inKernels)}%), outside them ${per(t.stepMs - inKernels)} ms (${pct(t.stepMs - inKernels)}%).`
    );
  };
  const labels = alternate ? ["tfjs's kernels", 'ours'] : [''];
  const table = (key: 'byName' | 'byShape', n: number, what: string) => {
    const keys = new Map<string, number>();
    for (const t of shown) for (const [k, x] of t[key]) keys.set(k, Math.max(keys.get(k) ?? 0, x.ms / t.steps));
    const top = [...keys.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
    const cell = (t: Tallies, k: string) => {
      const x = t[key].get(k);
      return x ? `${(x.calls / t.steps).toFixed(0)} | ${(x.ms / t.steps).toFixed(1)} | ${((100 * x.ms) / t.stepMs).toFixed(1)}%` : '0 | 0 | 0%';
    };
    const head = labels.map((l) => (l ? `calls (${l}) | CPU ms / step (${l}) | of the step (${l})` : 'calls / step | CPU ms / step | of the step')).join(' | ');
    const lines = [`| ${what} | ${head} |`, `|---|${shown.map(() => '---:|---:|---:|').join('')}`, ...top.map((k) => `| ${k} | ${shown.map((t) => cell(t, k)).join(' | ')} |`)];
    if (key === 'byName') {
      const outside = shown.map((t) => {
        const inK = [...t.byName.values()].reduce((a, x) => a + x.ms, 0);
        return ` | ${((t.stepMs - inK) / t.steps).toFixed(1)} | ${((100 * (t.stepMs - inK)) / t.stepMs).toFixed(1)}%`;
      });
      lines.push(`| (outside kernels: engine, tape, JS) |${outside.join(' |')} |`);
    }
    return lines;
  };
  return [
    `${c.id} on ${backend}, ${warmup} warm-up step(s) first${alternate ? ", then steps alternating tfjs's kernels and ours" : ''}:`,
    '',
    ...shown.map((t, i) => '- ' + summary(t, labels[i] ? labels[i] + ': ' : '')),
    '',
    ...table('byName', 24, 'kernel'),
    '',
    ...table('byShape', opts.shapeRows ?? 30, 'kernel and input shapes'),
  ].join('\n');
}
