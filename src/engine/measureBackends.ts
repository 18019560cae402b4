/**
 * Time one real RL step of a cohort on each backend, through the public runner:
 *
 *   const rows = await measureBackends(spec, ['wasm', 'webgl', 'webgpu'], { activate });
 *   chooseMeasured(rows)   // backendChoice.ts
 *
 * First each backend is only started: where exactly one starts and is not a software emulation of
 * a GPU, it is chosen untimed (nothing could beat it). Otherwise, per backend: activate it, build `probeSpecFor(spec)` (no warm start, 4 held-out problems, no
 * evaluation step), pull until the `base` event and the first step (it compiles the shaders: not
 * timed), then time the second step, and the third while MEASURE_BUDGET_MS allows. The run is
 * disposed and the tensor count checked before the next backend starts (tensors live per backend).
 *
 * A backend that is slower than the fastest one so far cannot win, so its step is given up when
 * it passes that time (and set-up plus the first step when they pass 3x that). A software
 * emulation of a GPU (SwiftShader) is not timed at all once another backend has a figure. Giving up disposes the run, so the step fails at its next use of a weight; a
 * pending WebGPU readback is cut short with `hooks.abort` (the worker destroys the device). A
 * backend that computes synchronously (wasm, cpu) cannot be interrupted, but its step ends anyway.
 */
import * as tf from '@tensorflow/tfjs';
import type { RunnerEvent } from '../core/experiment/events';
import { createRun, type ExperimentRun, type RunOptions } from '../core/experiment/runner';
import { type ExperimentSpec, ExperimentSpecSchema } from '../core/experiment/spec';
import { errorText, type BackendName } from './backend-common';
import { MEASURE_BUDGET_MS, type MeasuredRow, fmtStepMs } from './backendChoice';
import { median } from '../core/median';

/** RL steps in the probe spec: more than the 3 pulled, so none of them is an evaluation step. */
const PROBE_STEPS = 4;

/** The spec a measurement runs: the cohort as it is, without warm start or evaluation work. */
export function probeSpecFor(spec: ExperimentSpec): ExperimentSpec {
  return ExperimentSpecSchema.parse({
    ...spec,
    members: spec.members.map((m) => ({ ...m, warmStartSteps: 0, warmStartTarget: 0 })),
    // The base evaluation runs before the first step; 4 held-out problems (the least) keep it short.
    data: { ...spec.data, heldOut: 4 },
    steps: PROBE_STEPS,
    evalEvery: 1000,
  });
}

export interface MeasureHooks {
  /** Make `name` the active tfjs backend (throw when it is unavailable). */
  activate(name: BackendName): Promise<{ detail: string | null; software: boolean }>;
  /** Cut a given-up step short (e.g. destroy the WebGPU device so a pending readback rejects). */
  abort?(name: BackendName): Promise<void> | void;
  /** After each backend, and when one starts (`current`). */
  onProgress?(rows: readonly MeasuredRow[], current: BackendName | null): void;
  /** Checked between pulls: true stops the measurement (the rows so far are returned). */
  cancelled?(): boolean;
  budgetMs?: number;
  /** Cap on set-up plus first step, and on a timed step, while no backend has a figure yet. */
  firstCapMs?: number;
  /** How long a given-up step may take to unwind before it is left behind. */
  unwindMs?: number;
  createRun?: (spec: ExperimentSpec, opts: RunOptions) => ExperimentRun;
  numTensors?: () => number;
  now?: () => number;
}

type Pull =
  | { kind: 'event'; result: IteratorResult<RunnerEvent, void> }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout'; pending: Promise<unknown> };

/** The next event, or the still-pending pull once `ms` have passed. */
function pullWithin(events: AsyncGenerator<RunnerEvent, void, void>, ms: number): Promise<Pull> {
  const p = events.next();
  return new Promise<Pull>((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout', pending: p }), Math.max(0, ms));
    p.then(
      (result) => {
        clearTimeout(timer);
        resolve({ kind: 'event', result });
      },
      (error) => {
        clearTimeout(timer);
        resolve({ kind: 'error', error });
      },
    );
  });
}

/** Resolves true when `p` settles within `ms`, false otherwise (never rejects). */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    p.then(done, done);
  });
}


class Cancelled extends Error {}

/**
 * Measure each backend of `order` in turn; the rows come back in that order. First every backend
 * is only started (cheap next to a timed step): when exactly one of them starts and is not a
 * software emulation of a GPU, nothing could beat it, and it is chosen without timing anything
 * (on a machine without a GPU this saves the whole measurement: about 1.5 s of the first step).
 */
export async function measureBackends(spec: ExperimentSpec, order: readonly BackendName[], hooks: MeasureHooks): Promise<MeasuredRow[]> {
  const started = await startEach(order, hooks);
  if (started === null) return [];
  const real = started.filter((r) => r.status !== 'failed' && !r.software);
  if (real.length === 1) {
    const only = real[0];
    const rows = started.map((r): MeasuredRow => {
      if (r === only) return { ...r, status: 'untimed', note: 'nothing else here could beat it' };
      if (r.status === 'failed') return r;
      return { ...r, status: 'stopped', note: softwareNote(r, only.backend) };
    });
    hooks.onProgress?.(rows, null);
    return rows;
  }
  return timeEach(spec, order, hooks);
}

/**
 * Each backend of `order` started once: failed with its error, or its detail and whether it is an
 * emulation. It stops as soon as two could win (they are all timed then, and a WebGPU device is
 * not requested twice where it comes last, as it does in the page's order). Null when cancelled.
 */
async function startEach(order: readonly BackendName[], hooks: MeasureHooks): Promise<MeasuredRow[] | null> {
  const now = hooks.now ?? (() => performance.now());
  const rows: MeasuredRow[] = [];
  for (const name of order) {
    if (hooks.cancelled?.()) return null;
    if (rows.filter((r) => r.note === null && !r.software).length >= 2) break;
    hooks.onProgress?.([], name);
    const t0 = now();
    const row = await activated(name, hooks);
    if (row.note === null) row.status = 'stopped';
    row.spentMs = Math.round(now() - t0);
    rows.push(row);
  }
  return rows;
}

/** A fresh row for `name`, the backend activated: its detail and whether it is an emulation, or failed with the error as its note. */
async function activated(name: BackendName, hooks: MeasureHooks): Promise<MeasuredRow> {
  const row: MeasuredRow = { backend: name, detail: null, software: false, status: 'failed', msPerStep: null, timedSteps: 0, atLeastMs: null, warmupMs: null, note: null };
  try {
    const a = await hooks.activate(name);
    row.detail = a.detail;
    row.software = a.software;
  } catch (e) {
    row.note = errorText(e);
  }
  return row;
}

/** Why a software emulation is not timed next to `than`. */
function softwareNote(r: Pick<MeasuredRow, 'backend' | 'detail'>, than: BackendName): string {
  return r.backend === 'webgl'
    ? `not timed: a software renderer (${r.detail ?? 'CPU emulation'}), and a WebGL step cannot be given up mid-way`
    : `not timed: a software adapter (${r.detail ?? 'CPU emulation'}), many times slower than ${than} for models this small`;
}

/** Time each backend of `order` in turn (several could win). */
async function timeEach(spec: ExperimentSpec, order: readonly BackendName[], hooks: MeasureHooks): Promise<MeasuredRow[]> {
  const probeSpec = probeSpecFor(spec);
  const rows: MeasuredRow[] = [];
  for (const name of order) {
    if (hooks.cancelled?.()) break;
    hooks.onProgress?.(rows, name);
    const ok = rows.filter((r) => r.status === 'ok' && r.msPerStep != null);
    const best = ok.length ? ok.reduce((a, b) => (b.msPerStep! < a.msPerStep! ? b : a)) : null;
    const row = await measureOne(name, probeSpec, best, hooks);
    if (row) rows.push(row);
  }
  hooks.onProgress?.(rows, null);
  return rows;
}

/** One backend; null when the measurement was cancelled before it finished. */
async function measureOne(name: BackendName, probeSpec: ExperimentSpec, best: MeasuredRow | null, hooks: MeasureHooks): Promise<MeasuredRow | null> {
  const now = hooks.now ?? (() => performance.now());
  const numTensors = hooks.numTensors ?? (() => tf.memory().numTensors);
  const budget = hooks.budgetMs ?? MEASURE_BUDGET_MS;
  const firstCap = hooks.firstCapMs ?? 30_000;
  const started = now();
  const row = await activated(name, hooks);
  if (row.note !== null) {
    row.spentMs = Math.round(now() - started);
    return row;
  }
  if (hooks.cancelled?.()) return null;
  if (row.software && best) {
    // Software emulations of a GPU (SwiftShader's WebGPU adapter and WebGL renderer) run these
    // models 25-60 times slower than wasm (docs/BENCHMARKS.md), so once a CPU backend has a figure
    // they cannot win: timing them only delays the first step (by ~2 s on a 2-core machine). A
    // WebGL step could not even be given up mid-way (there is no device to destroy).
    row.status = 'stopped';
    row.note = softwareNote(row, best.backend);
    row.spentMs = Math.round(now() - started);
    return row;
  }

  const bestMs = best?.msPerStep ?? null;
  const slower = best ? `slower than ${best.backend}` : null;
  const before = numTensors();
  let run: ExperimentRun | null = null;
  let events: AsyncGenerator<RunnerEvent, void, void> | null = null;
  let pending: Promise<unknown> | null = null;
  let cancelled = false;
  try {
    run = (hooks.createRun ?? createRun)(probeSpec, { backend: name });
    events = run.events();
    const gen = events;

    /** The next event within `ms`; on a timeout the row is marked stopped and null returned. */
    const next = async (ms: number, atLeast: number | null, note: string): Promise<RunnerEvent | null> => {
      if (hooks.cancelled?.()) throw new Cancelled();
      const r = await pullWithin(gen, ms);
      if (r.kind === 'timeout') {
        pending = r.pending;
        row.status = 'stopped';
        row.atLeastMs = atLeast;
        row.note = note;
        return null;
      }
      if (r.kind === 'error') throw r.error;
      if (r.result.done) throw new Error('the measurement run ended before its third step');
      return r.result.value;
    };

    // Set-up (members built, base evaluation) and the first step, which compiles the shaders.
    const t0 = now();
    // Real GPUs may spend seconds compiling shaders in the first step (software ones are not timed
    // once another backend has a figure, above).
    const warmCap = bestMs == null ? firstCap : Math.max(3 * budget, 3 * bestMs);
    for (;;) {
      const left = warmCap - (now() - t0);
      const took = best?.warmupMs != null ? `; ${best.backend}'s took ${fmtStepMs(best.warmupMs)}` : '';
      const ev = await next(left, null, `set-up and first step took over ${fmtStepMs(warmCap)}${took}`);
      if (!ev) return row;
      if (ev.type === 'step') break;
    }
    row.warmupMs = Math.round(now() - t0);

    // Timed steps: the second, and the third while the budget allows and it can still win.
    const times: number[] = [];
    while (times.length < 2) {
      const cap = bestMs ?? firstCap;
      const s = now();
      const ev = await next(cap, cap, slower ?? `a step took over ${fmtStepMs(cap)}`);
      if (!ev) return row;
      if (ev.type !== 'step') continue;
      const ms = now() - s;
      times.push(ms);
      const used = times.reduce((a, b) => a + b, 0);
      if (used + ms > budget || (bestMs != null && ms > bestMs)) break;
    }
    row.status = 'ok';
    row.msPerStep = Math.round(median(times));
    row.timedSteps = times.length;
    return row;
  } catch (e) {
    if (e instanceof Cancelled) {
      cancelled = true;
      return null;
    }
    row.status = 'failed';
    row.note = errorText(e);
    return row;
  } finally {
    await cleanUp(name, run, events, pending, hooks);
    row.leakedTensors = numTensors() - before;
    row.spentMs = Math.round(now() - started);
    if (row.leakedTensors !== 0 && !cancelled) console.warn(`measureBackends: ${name} left ${row.leakedTensors} tensors`);
  }
}

async function cleanUp(
  name: BackendName,
  run: ExperimentRun | null,
  events: AsyncGenerator<RunnerEvent, void, void> | null,
  pending: Promise<unknown> | null,
  hooks: MeasureHooks,
): Promise<void> {
  if (pending) {
    // Disposing the weights makes the step in flight fail at its next use of one.
    try {
      run?.dispose();
    } catch {
      /* already gone */
    }
    if (hooks.abort) await hooks.abort(name);
    if (!(await settlesWithin(pending, hooks.unwindMs ?? 20_000))) {
      console.warn(`measureBackends: the given-up ${name} step did not unwind; left behind`);
      return;
    }
  }
  try {
    await events?.return(undefined);
  } catch {
    /* the generator failed already */
  }
  try {
    run?.dispose();
  } catch {
    /* already disposed */
  }
}
