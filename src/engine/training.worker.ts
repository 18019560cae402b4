/**
 * The training worker: chooses the tfjs backend, drives `createRun(spec).events()` and streams
 * what it yields to the page (protocol.ts). The runner is pull-driven, so pausing is simply not
 * pulling: the pump below pulls one event at a time and checks its flags between pulls, which
 * makes a Pause take effect before the next step starts and a Step run exactly one.
 *
 * Between RL steps the pump yields to the message loop (a MessageChannel tick), so commands are
 * handled even at full speed; with a speed limit it also sleeps in short slices.
 *
 * Checkpoints (protocol.ts): the pump takes one between steps (after the base, every
 * CHECKPOINT_EVERY steps, on pausing, at the last step) and dispose() takes one when a run is
 * stopped, so the page can save it and continue the run after a reload. A step that was in flight
 * when Stop arrived is still posted before that last checkpoint, so the checkpoint never holds a
 * step the page did not see.
 */
import { defaultLimits } from '../core/experiment/budget';
import type { RunnerEvent } from '../core/experiment/events';
import { createRun, type ExperimentRun } from '../core/experiment/runner';
import { parseSpec } from '../core/experiment/spec';
import { chooseBackend, onDeviceLost, type BackendName, type BackendReport } from './backend';
import { errorText, webgpuBindingLimit } from './backend-common';
import { checkpointProblem } from './checkpoints';
import { chooseBackendForRun, rememberedBackendFor } from './measuredChoice';
import { runProbe, probeLooksRight } from './probe';
import { browserWarmStartCache } from './warmStartSource';
import {
  CHECKPOINT_EVERY,
  type CheckpointReason,
  type ProbeOutcome,
  type RunPhase,
  type WorkerCommand,
  type WorkerEvent,
  errorHint,
  isWorkerCommand,
  readBackendParam,
} from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (e: WorkerEvent) => scope.postMessage(e);

interface ActiveRun {
  runId: number;
  run: ExperimentRun;
  events: AsyncGenerator<RunnerEvent, void, void>;
  phase: RunPhase;
  /** The page asked to pause (the pump stops before its next pull). */
  paused: boolean;
  /** Single steps asked for while paused. */
  pendingSteps: number;
  pumping: boolean;
  /** Stopped, failed or finished: the pump must not pull again. */
  ended: boolean;
  disposed: boolean;
  /** Disposed and its generator closed: it holds no tensors any more. */
  released?: boolean;
  /** Last RL step posted to the page (0 once the base is posted; -1 before). */
  postedStep: number;
  /** Step of the last checkpoint posted (-1: none yet). */
  checkpointStep: number;
}

let backend: { report: BackendReport; preferred?: BackendName } | null = null;
let preparing: Promise<BackendReport> | null = null;
let active: ActiveRun | null = null;
let stepsPerSecond: number | null = null;
let lastStepAt = 0;
let lastRunId = 0;
/** A pause that arrived while the run was still being prepared. */
let pauseBeforeStart = false;
/** Warm starts shipped with the site (public/warmstarts) and kept in IndexedDB (warmStartSource.ts). */
const warmStartCache = browserWarmStartCache({ baseUrl: `${import.meta.env.BASE_URL}warmstarts/` });

// ---------------------------------------------------------------- backend

async function probe(): Promise<ProbeOutcome> {
  try {
    const r = await runProbe();
    const ok = probeLooksRight(r);
    return { ok, lossBefore: r.lossBefore, lossAfter: r.lossAfter, ms: r.ms, error: ok ? null : `probe computed wrong numbers: ${JSON.stringify(r)}` };
  } catch (e) {
    return { ok: false, lossBefore: null, lossAfter: null, ms: null, error: errorText(e) };
  }
}

/**
 * Choose (or re-choose) the backend, prove it with the probe, and tell the page. `remembered`: a
 * measured choice the page stored for this device and the cohort on screen (used unless forced).
 */
function prepare(
  raw: string | null | undefined,
  deviceLost: string | null = null,
  remembered: ReturnType<typeof rememberedBackendFor> = null,
): Promise<BackendReport> {
  const { preferred, warning } = readBackendParam(raw);
  if (backend && !deviceLost && backend.preferred === preferred) return Promise.resolve(backend.report);
  if (preparing && !deviceLost) return preparing;
  preparing = (async () => {
    try {
      const report = preferred ? await chooseBackend(preferred) : ((await remembered?.(post)) ?? (await chooseBackend(preferred)));
      backend = { report, preferred };
      const outcome = await probe();
      post({ type: 'backend', report, probe: outcome, warning, deviceLost });
      return report;
    } finally {
      preparing = null;
    }
  })();
  return preparing;
}

let lastBackendParam: string | null | undefined;

onDeviceLost((info) => {
  const message = `WebGPU device lost (${info.reason}): ${info.message || 'no details'}`;
  backend = null;
  if (active) fail(active, new Error(message));
  else post({ type: 'error', runId: 0, message, hint: errorHint(message, 'webgpu') });
  // Choose again: a fresh device if WebGPU still works, otherwise the next backend.
  prepare(lastBackendParam, message).catch((e) => post({ type: 'error', runId: 0, message: errorText(e), hint: errorHint(errorText(e), null) }));
});

// ---------------------------------------------------------------- run control

function setPhase(a: ActiveRun, phase: RunPhase, paused = false): void {
  a.phase = phase;
  post({ type: 'state', runId: a.runId, phase, paused });
}

/** A macrotask tick: lets queued commands (pause, stop, ...) run before the next pull. */
function tick(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Honour the speed limit, in slices short enough that a pause or stop is seen quickly. */
async function throttle(a: ActiveRun): Promise<void> {
  while (stepsPerSecond != null && !a.ended && !a.paused) {
    const wait = lastStepAt + 1000 / stepsPerSecond - performance.now();
    if (wait <= 0) return;
    await sleep(Math.min(wait, 50));
  }
}

/**
 * Post a checkpoint of the run as it is after its last posted step, unless one of that step was
 * posted already. Only between steps (the pump is not pulling). A failure is reported, not thrown:
 * the run goes on without it.
 */
async function postCheckpoint(a: ActiveRun, reason: CheckpointReason): Promise<void> {
  if (a.postedStep < 0 || a.postedStep <= a.checkpointStep) return;
  try {
    const checkpoint = await a.run.checkpoint();
    if (checkpoint.step !== a.postedStep) return; // not between posted steps: never save that
    a.checkpointStep = checkpoint.step;
    post({ type: 'checkpoint', runId: a.runId, reason, checkpoint });
  } catch (e) {
    console.warn(`Cohort Lab: no checkpoint at step ${a.postedStep}: ${errorText(e)}`);
  }
}

async function dispose(a: ActiveRun): Promise<void> {
  if (a.disposed) return;
  a.disposed = true;
  // Stopped (not failed, not finished): keep where it got to, so the page can continue it later.
  if (a.phase === 'stopped') await postCheckpoint(a, 'stopped');
  try {
    await a.events.return(undefined);
  } catch {
    /* the generator may have failed already */
  }
  try {
    a.run.dispose();
  } catch {
    /* e.g. tensors already gone after a device loss */
  }
  a.released = true;
}

function end(a: ActiveRun, phase: RunPhase): void {
  if (a.ended) return;
  a.ended = true;
  setPhase(a, phase);
  if (!a.pumping) void dispose(a);
  if (active === a) active = null;
}

function fail(a: ActiveRun, e: unknown): void {
  if (a.ended) return;
  const message = errorText(e);
  post({ type: 'error', runId: a.runId, message, hint: errorHint(message, backend?.report.backend ?? null) });
  end(a, 'error');
}

async function pump(a: ActiveRun): Promise<void> {
  if (a.pumping || a.ended) return;
  a.pumping = true;
  try {
    while (!a.ended) {
      if (a.paused && a.pendingSteps === 0) {
        // Pausing: a checkpoint first (a Resume arriving meanwhile is seen by the loop).
        if (a.postedStep > a.checkpointStep) {
          await postCheckpoint(a, 'paused');
          continue;
        }
        break;
      }
      if (a.phase === 'rl' && a.pendingSteps === 0) await throttle(a);
      if (a.ended || (a.paused && a.pendingSteps === 0)) continue;
      const r = await a.events.next();
      if (a.ended) {
        // Stopped during this step: the page still gets it, then the stop's checkpoint (dispose).
        if (!r.done && r.value.type === 'step') {
          post({ type: 'runner', runId: a.runId, event: r.value });
          a.postedStep = r.value.step;
        }
        break;
      }
      if (r.done) {
        end(a, 'done');
        break;
      }
      const ev = r.value;
      if (ev.type === 'warmstart' && a.phase !== 'warmstart') setPhase(a, 'warmstart');
      if ((ev.type === 'base' || ev.type === 'step') && a.phase !== 'rl') setPhase(a, 'rl');
      post({ type: 'runner', runId: a.runId, event: ev });
      if (ev.type === 'base') {
        a.postedStep = a.checkpointStep >= 0 ? a.checkpointStep : 0;
        await postCheckpoint(a, 'base');
      }
      if (ev.type === 'step') {
        lastStepAt = performance.now();
        if (a.pendingSteps > 0) a.pendingSteps--;
        a.postedStep = ev.step;
        if (ev.step % CHECKPOINT_EVERY === 0 || ev.step === ev.steps) await postCheckpoint(a, ev.step === ev.steps ? 'done' : 'every');
      }
      if (ev.type === 'done') {
        end(a, 'done');
        break;
      }
      await tick();
    }
  } catch (e) {
    fail(a, e);
  } finally {
    a.pumping = false;
    if (a.ended) await dispose(a);
    else if (a.paused && a.pendingSteps === 0) post({ type: 'state', runId: a.runId, phase: a.phase, paused: true });
  }
}

async function start(cmd: Extract<WorkerCommand, { type: 'start' }>): Promise<void> {
  const previous = active;
  if (active) end(active, 'stopped');
  lastRunId = cmd.runId;
  pauseBeforeStart = false;
  const parsed = parseSpec(cmd.spec);
  const cpProblem = parsed.ok && cmd.checkpoint ? checkpointProblem(parsed.spec, cmd.checkpoint) : null;
  if (!parsed.ok || cpProblem) {
    const message = parsed.ok ? `The saved run cannot be continued: ${cpProblem}` : `The experiment spec is invalid: ${parsed.errors.join('; ')}`;
    post({ type: 'error', runId: cmd.runId, message, hint: errorHint(message, null) });
    post({ type: 'state', runId: cmd.runId, phase: 'error', paused: false });
    return;
  }
  post({ type: 'state', runId: cmd.runId, phase: 'preparing', paused: false });
  if (cmd.backend !== undefined) lastBackendParam = cmd.backend;
  let report = await prepare(lastBackendParam);
  if (lastRunId !== cmd.runId) return; // another start or a stop arrived meanwhile
  if (!readBackendParam(lastBackendParam).preferred) {
    // Not forced: the backend remembered for this device and cohort shape, or measured now.
    report = await chooseBackendForRun(parsed.spec, cmd.remembered, {
      current: report,
      cancelled: () => lastRunId !== cmd.runId,
      previousReleased: () => !previous || previous.released === true,
      post,
      probe,
      warning: readBackendParam(lastBackendParam).warning,
    });
    backend = { report, preferred: undefined };
    if (lastRunId !== cmd.runId) return;
  }
  // Stored warm starts: the site's shipped files (presets), then IndexedDB (custom specs).
  // From a checkpoint: no warm start; the runner restores weights, optimizer state and step.
  // memoryLimits: a run estimated above what this backend holds is refused before it starts
  // (src/core/experiment/budget.ts; docs/RELIABILITY.md).
  const memoryLimits = defaultLimits(report.backend, report.backend === 'webgpu' ? webgpuBindingLimit() : undefined);
  const runOptions = { backend: report.backend, warmStartCache, checkpoint: cmd.checkpoint, memoryLimits };
  const run = createRun(parsed.spec, runOptions);
  const a: ActiveRun = {
    runId: cmd.runId,
    run,
    events: run.events(),
    phase: 'preparing',
    paused: (cmd.paused ?? false) || pauseBeforeStart,
    pendingSteps: 0,
    pumping: false,
    ended: false,
    disposed: false,
    postedStep: -1,
    // A continued run does not post again the checkpoint it started from.
    checkpointStep: cmd.checkpoint ? cmd.checkpoint.step : -1,
  };
  active = a;
  setPhase(a, cmd.checkpoint ? 'rl' : 'warmstart', a.paused);
  void pump(a);
}

function handle(cmd: WorkerCommand): void {
  const a = active;
  switch (cmd.type) {
    case 'prepare':
      lastBackendParam = cmd.backend;
      prepare(cmd.backend, null, rememberedBackendFor(cmd)).catch((e) => post({ type: 'error', runId: 0, message: errorText(e), hint: errorHint(errorText(e), null) }));
      return;
    case 'start':
      start(cmd).catch((e) => {
        const message = errorText(e);
        post({ type: 'error', runId: cmd.runId, message, hint: errorHint(message, backend?.report.backend ?? null) });
        post({ type: 'state', runId: cmd.runId, phase: 'error', paused: false });
      });
      return;
    case 'pause':
      if (a && !a.ended) {
        a.paused = true;
        a.pendingSteps = 0;
        if (!a.pumping) post({ type: 'state', runId: a.runId, phase: a.phase, paused: true });
      } else if (!a && lastRunId !== 0) {
        pauseBeforeStart = true;
        post({ type: 'state', runId: lastRunId, phase: 'preparing', paused: true });
      }
      return;
    case 'resume':
      pauseBeforeStart = false;
      if (a && !a.ended) {
        a.paused = false;
        post({ type: 'state', runId: a.runId, phase: a.phase, paused: false });
        void pump(a);
      }
      return;
    case 'step':
      if (a && !a.ended && a.paused) {
        a.pendingSteps++;
        void pump(a);
      }
      return;
    case 'stop':
      lastRunId = 0;
      if (a) end(a, 'stopped');
      return;
    case 'setSpeed':
      stepsPerSecond = cmd.stepsPerSecond != null && Number.isFinite(cmd.stepsPerSecond) && cmd.stepsPerSecond > 0 ? cmd.stepsPerSecond : null;
      return;
  }
}

scope.onmessage = (event: MessageEvent<unknown>) => {
  if (!isWorkerCommand(event.data)) {
    post({ type: 'error', runId: 0, message: 'The training worker received a message it does not understand.', hint: 'Reload the page.' });
    return;
  }
  handle(event.data);
};

scope.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  const message = errorText(event.reason);
  post({ type: 'error', runId: active?.runId ?? lastRunId, message, hint: errorHint(message, backend?.report.backend ?? null) });
});
