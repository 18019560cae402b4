/**
 * Measure RL steps of an experiment through the public runner API only (createRun -> events()),
 * so the measurement survives rewrites of the models, the rollout and the GRPO internals.
 *
 *   const spec = benchSpec(getPreset('collapse')!.spec);     // no warm start, no evaluation
 *   const row = await measureCase(benchCase('collapse'), { backend: 'wasm', where: 'node', repeats: 5 });
 *
 * Per case: pull past the 'base' event, pull `warmup` steps (shader compilation, lazily created
 * optimiser state), then pull `repeats` steps one at a time, each timed and counted on its own
 * (counters.ts), then dispose the run without pulling to its end (the last step of a run also runs
 * a held-out evaluation, which is not an RL step). A measurement, not a test: nothing asserts a time.
 */
import * as tf from '@tensorflow/tfjs';
import { createRun } from '../experiment/runner';
import { getPreset } from '../experiment/presets';
import { ExperimentSpecSchema, type ExperimentSpec, type MemberSpec } from '../experiment/spec';
import { installCounters, type Counts, type GpuPrototypes } from './counters';
import { median } from '../median';

/** One row of bench/results/latest.json (docs/BENCHMARKS.md documents every field). */
export interface BenchRow {
  backend: string;
  where: 'node' | 'chromium';
  /** The preset measured, or 'scaling' (the models-scaling series) / 'collapse-transformer'. */
  preset: string;
  /** Models trained per RL step (arm members, summed over arms). */
  models: number;
  /** The member shapes, e.g. "mlp d64 L2 w6". */
  shape: string;
  /** Medians over the measured steps. */
  kernelsPerStep: number;
  /** WebGPU dispatchWorkgroups (webgl: draw calls) per step; null on wasm and cpu. */
  dispatchesPerStep: number | null;
  /** WebGPU queue submits per step; null elsewhere. */
  submitsPerStep: number | null;
  /** tfjs-level readbacks (data(), dataSync(), array(), arraySync()) per step, every backend. */
  readbacksPerStep: number;
  /** WebGPU buffer maps for reading (webgl: readPixels + getBufferSubData) per step; null on wasm and cpu. */
  gpuReadbacksPerStep: number | null;
  /** Wall time of each measured step (one pull of the runner). */
  stepMs: { median: number; min: number; max: number };
  /** Completion tokens sampled per second of RL step (the runner's token count / step time). */
  tokensPerS: number;
  /** Largest tf.memory().numBytes at any kernel of the measured steps. */
  peakBytes: number;
  /** tf.memory().numTensors after the last measured step minus after the last warm-up step. */
  tensorDrift: number;
  /** Measured steps (after `warmup` warm-up steps). */
  steps: number;
  warmup: number;
  /** The five kernels run most often per step, with their per-step counts (medians). */
  topKernels: [string, number][];
  /** tfjs-webgpu's WEBGPU_CPU_FORWARD flag (small ops on the CPU) where webgpu ran; else null. */
  webgpuCpuForward: boolean | null;
  adapter?: string | null;
  /** Chromium rows: the browser and its version (set by the driver, cli/bench/bench-browser.ts). */
  browser?: string;
  /** ISO date (YYYY-MM-DD). */
  date: string;
}

/** The cases the bench knows: presets, the models-scaling series and two transformer cohorts. */
export const CASE_IDS = ['collapse', 'quick', 'scaling-1', 'scaling-2', 'scaling-4', 'scaling-8', 'transformer', 'peers-teach'] as const;
export type CaseId = (typeof CASE_IDS)[number];

export interface BenchCase {
  id: CaseId;
  preset: string;
  spec: ExperimentSpec;
}

/**
 * The RL step of `spec` and nothing else: no warm start (members start at their initial weights;
 * the step's kernels do not depend on the weights), evaluation every 1000 steps, 5000 steps (never
 * reached), and the held-out set cut to 4 problems (only the unmeasured base evaluation uses it).
 */
export function benchSpec(spec: ExperimentSpec): ExperimentSpec {
  return ExperimentSpecSchema.parse({
    ...spec,
    data: { ...spec.data, heldOut: 4 },
    members: spec.members.map((m) => ({ ...m, warmStartSteps: 0, warmStartTarget: 0 })),
    evalEvery: 1000,
    steps: 5000,
  });
}

/** Models trained per RL step: the members of every arm. */
export function modelCount(spec: ExperimentSpec): number {
  return spec.arms.reduce((n, a) => n + a.members.length, 0);
}

export function shapeOf(m: MemberSpec): string {
  if (m.family === 'mlp') return `mlp d${m.dModel} L${m.layers} w${m.window}`;
  if (m.family === 'transformer') return `transformer d${m.dModel} L${m.layers} h${m.heads}`;
  return `${m.family} d${m.dModel} L${m.layers}`;
}

/**
 * The scaling series: `n` (1, 2, 4, 8) models of the collapse member shape. Arms hold at most 6
 * members and a spec at most 6 members, so 8 is two self arms of the same 4 members.
 */
function scalingSpec(n: 1 | 2 | 4 | 8): ExperimentSpec {
  const base = getPreset('collapse')!.spec;
  const shape = base.members[0];
  const k = Math.min(n, 4);
  const members = Array.from({ length: k }, (_, i) => ({
    ...shape,
    id: `M${i + 1}`,
    initSeed: shape.initSeed + i,
    dataSeed: shape.dataSeed + i,
    sampleSeed: shape.sampleSeed + i,
  }));
  const ids = members.map((m) => m.id);
  const arms = n === 8 ? [{ id: 'self1', scheme: 'self' as const, members: ids, tau: 0 }, { id: 'self2', scheme: 'self' as const, members: ids, tau: 0 }] : [{ id: 'self', scheme: 'self' as const, members: ids, tau: 0 }];
  return benchSpec({ ...base, members, arms });
}

export function benchCase(id: CaseId): BenchCase {
  switch (id) {
    // peers-teach: 2 transformers (d32, 2 blocks, 4 heads) in 4 arms = 7 trained models, and the
    // frozen teacher B samples for the teacher arm (its warm-started copy: here its initial weights).
    case 'collapse':
    case 'quick':
    case 'peers-teach':
      return { id, preset: id, spec: benchSpec(getPreset(id)!.spec) };
    case 'scaling-1':
      return { id, preset: 'scaling', spec: scalingSpec(1) };
    case 'scaling-2':
      return { id, preset: 'scaling', spec: scalingSpec(2) };
    case 'scaling-4':
      return { id, preset: 'scaling', spec: scalingSpec(4) };
    case 'scaling-8':
      return { id, preset: 'scaling', spec: scalingSpec(8) };
    case 'transformer': {
      // collapse with transformer members (the family's default size: d32, 2 blocks, 2 heads).
      const base = getPreset('collapse')!.spec;
      const members = base.members.map((m) => ({ ...m, family: 'transformer' as const, dModel: 32, layers: 2, heads: 2 }));
      return { id, preset: 'collapse-transformer', spec: benchSpec({ ...base, members }) };
    }
  }
}

/** "collapse,scaling" -> the case ids ('scaling' = its four points); throws on an unknown name. */
export function parseCases(list: string): CaseId[] {
  const out: CaseId[] = [];
  for (const name of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    const ids = name === 'scaling' ? CASE_IDS.filter((c) => c.startsWith('scaling-')) : [name];
    for (const id of ids) {
      if (!(CASE_IDS as readonly string[]).includes(id)) {
        throw new Error(`unknown bench case "${name}" (${[...CASE_IDS, 'scaling'].join(', ')})`);
      }
      if (!out.includes(id as CaseId)) out.push(id as CaseId);
    }
  }
  return out;
}

export interface MeasureOptions {
  where: 'node' | 'chromium';
  /** Measured steps (default 5). */
  repeats?: number;
  /** Warm-up steps before them (default 2). */
  warmup?: number;
  adapter?: string | null;
  /** GPU prototypes to count on (default: globalThis's); null counts none. */
  gpu?: GpuPrototypes | null;
  /** Progress lines ("collapse: step 3 of 7"). */
  log?: (line: string) => void;
}


function webgpuCpuForward(backend: string): boolean | null {
  if (backend !== 'webgpu') return null;
  try {
    return tf.env().getBool('WEBGPU_CPU_FORWARD');
  } catch {
    return null;
  }
}

/** Run `c`'s RL steps on the active tfjs backend and return its row. */
export async function measureCase(c: BenchCase, opts: MeasureOptions): Promise<BenchRow> {
  const repeats = opts.repeats ?? 5;
  const warmup = opts.warmup ?? 2;
  if (repeats < 1 || warmup < 0) throw new RangeError('repeats must be >= 1 and warmup >= 0');
  const backend = tf.getBackend();
  const log = opts.log ?? (() => {});
  const run = createRun(c.spec, { backend });
  const events = run.events();
  const perStep: { counts: Counts; names: Map<string, number>; ms: number; tokens: number }[] = [];
  const counter = installCounters({ gpu: opts.gpu });
  let tensorsAfterWarmup = 0;
  let tensorsAfterLast = 0;
  let peakBytes = 0;
  try {
    for (;;) {
      const e = await events.next();
      if (e.done) throw new Error(`${c.id}: the run ended before its RL steps`);
      if (e.value.type === 'base') break;
    }
    const total = warmup + repeats;
    for (let i = 0; i < total; i++) {
      const measured = i >= warmup;
      log(`${c.id}: ${measured ? 'step' : 'warm-up step'} ${i + 1} of ${total}`);
      if (measured && i === warmup) {
        tensorsAfterWarmup = tf.memory().numTensors;
        counter.resetPeak();
      }
      const before = counter.snapshot();
      const namesBefore = counter.kernelNames();
      const t0 = performance.now();
      const e = await events.next();
      const ms = performance.now() - t0;
      if (e.done || e.value.type !== 'step') throw new Error(`${c.id}: expected a step event, got ${e.done ? 'the end' : e.value.type}`);
      if (!measured) continue;
      const after = counter.snapshot();
      const names = counter.kernelNames();
      for (const [k, v] of namesBefore) names.set(k, (names.get(k) ?? 0) - v);
      const diff = { ...after };
      for (const k of ['kernels', 'readbacks', 'dispatches', 'submits', 'gpuReadbacks'] as const) diff[k] = after[k] - before[k];
      perStep.push({ counts: diff, names, ms, tokens: e.value.tokens });
      tensorsAfterLast = tf.memory().numTensors;
    }
    peakBytes = counter.snapshot().peakBytes;
  } finally {
    counter.uninstall();
    run.dispose();
    await events.return(undefined).catch(() => undefined);
  }

  const med = (k: keyof Counts) => median(perStep.map((s) => s.counts[k]));
  const gpuBackend = backend === 'webgpu' || backend === 'webgl';
  const ms = perStep.map((s) => s.ms);
  const stepMedian = median(ms);
  const allNames = new Set(perStep.flatMap((s) => [...s.names.keys()]));
  const top = [...allNames]
    .map((n): [string, number] => [n, median(perStep.map((s) => s.names.get(n) ?? 0))])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5);
  const members = new Map(c.spec.members.map((m) => [m.id, m]));
  const shapes = [...new Set(c.spec.arms.flatMap((a) => a.members.map((id) => shapeOf(members.get(id)!))))];
  return {
    backend,
    where: opts.where,
    preset: c.preset,
    models: modelCount(c.spec),
    shape: shapes.join(' + '),
    kernelsPerStep: med('kernels'),
    dispatchesPerStep: gpuBackend ? med('dispatches') : null,
    submitsPerStep: backend === 'webgpu' ? med('submits') : null,
    readbacksPerStep: med('readbacks'),
    gpuReadbacksPerStep: gpuBackend ? med('gpuReadbacks') : null,
    stepMs: { median: stepMedian, min: Math.min(...ms), max: Math.max(...ms) },
    tokensPerS: median(perStep.map((s) => s.tokens)) / (stepMedian / 1000),
    peakBytes,
    tensorDrift: tensorsAfterLast - tensorsAfterWarmup,
    steps: repeats,
    warmup,
    topKernels: top,
    webgpuCpuForward: webgpuCpuForward(backend),
    ...(opts.adapter !== undefined ? { adapter: opts.adapter } : {}),
    date: new Date().toISOString().slice(0, 10),
  };
}
