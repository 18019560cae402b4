/**
 * The training worker: chooses the tfjs backend, then runs one experiment at a time through a
 * RunDriver (runDriver.ts), which carries out the pure run controller (runController.ts: pause,
 * step, stop, speed, checkpoints, the end, a non-finite halt, a lost device). This file only wires
 * the worker scope to them: messages in, events out, the backend and its probe, the clock.
 *
 * On wasm and cpu a run trains on a pool of these workers (workerPool.ts): this one runs the lead
 * part, nested copies of it (started ahead by prewarm) the others, each serving its part once its
 * first message is a pool's `open` (partServer.ts).
 *
 * A lost WebGPU device (backend-common.ts watches `device.lost`) during a run: the driver rebuilds
 * the run from its last checkpoint on a freshly chosen backend and the page is told ('recovered').
 * Without a run, the loss is reported and the backend chosen again.
 *
 * A member part (a start with `memberPart`: one member of a peer arm whose partner trains in
 * another browser; protocol.ts) runs here alone, and its answers go out as `exchange` events; the
 * run awaits the page's `exchange-reply` (memberExchange below). The wait has no time limit here
 * (the page knows the room, and says when a partner left); a Stop, or a new start, ends it.
 */
import { defaultLimits } from '../core/experiment/budget';
import type { Checkpoint, ExperimentRun } from '../core/experiment/runner';
import { parseSpec, type ExperimentSpec } from '../core/experiment/spec';
import { chooseBackend, onDeviceLost, type BackendName, type BackendReport } from './backend';
import { destroyDeviceForTesting, errorText, webgpuBindingLimit } from './backend-common';
import { checkpointProblem } from './checkpoints';
import { chooseBackendForRun, rememberedBackendFor } from './measuredChoice';
import { runProbe, probeLooksRight } from './probe';
import { browserWarmStartCache } from './warmStartSource';
import { RunDriver } from './runDriver';
import { withTimeLimit } from './timeLimit';
import { pooledBrowserRun, poolSize, prewarm } from './workerPool';
import { isPartCommand, startPartServer } from './partServer';
import type { PartCommand } from './partRpc';
import { createRun } from '../core/experiment/runner';
import { memberSeatProblem, type AnswerExchange, type MemberSeat } from '../core/experiment/memberParts';
import {
  type ProbeOutcome,
  type WorkerCommand,
  type WorkerEvent,
  errorHint,
  isWorkerCommand,
  readBackendParam,
  readWorkersParam,
} from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (e: WorkerEvent) => scope.postMessage(e);

let backend: { report: BackendReport; preferred?: BackendName } | null = null;
let preparing: Promise<BackendReport> | null = null;
let active: RunDriver | null = null;
let stepsPerSecond: number | null = null;
let lastRunId = 0;
/** A pause that arrived while the run was still being prepared. */
let pauseBeforeStart = false;
/** Warm starts shipped with the site (public/warmstarts) and kept in IndexedDB (warmStartSource.ts). */
const warmStartCache = browserWarmStartCache({ baseUrl: `${import.meta.env.BASE_URL}warmstarts/` });

// ---------------------------------------------------------------- backend

/** The longest a backend may take to start and pass its probe (SwiftShader on a busy CPU: ~10 s). */
const BACKEND_START_LIMIT_MS = 90_000;

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
      // A start that hangs would leave the page on "detecting…" for good (timeLimit.ts).
      const { report, outcome } = await withTimeLimit(
        (async () => {
          const report = preferred ? await chooseBackend(preferred) : ((await remembered?.(post)) ?? (await chooseBackend(preferred)));
          return { report, outcome: await probe() };
        })(),
        BACKEND_START_LIMIT_MS,
        `no tfjs backend started within ${BACKEND_START_LIMIT_MS / 1000} s: its start is hanging (a Content-Security-Policy that blocks its wasm or its threads, or a GPU that does not answer). Reload the page, or open it with ?backend=cpu`,
      );
      backend = { report, preferred };
      post({ type: 'backend', report, probe: outcome, warning, deviceLost });
      return report;
    } finally {
      preparing = null;
    }
  })();
  return preparing;
}

let lastBackendParam: string | null | undefined;

// ---------------------------------------------------------------- run control

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

/**
 * After a failed pull on WebGPU: wait briefly for the device's `lost` promise (it can settle just
 * after the failing readback) and report its message, or null when the device is fine.
 */
function deviceLostBehind(): Promise<string | null> {
  if (backend?.report.backend !== 'webgpu' && lostMessage === null) return Promise.resolve(null);
  if (lostMessage !== null) return Promise.resolve(lostMessage);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(lostMessage);
    }, 1000);
    const off = onDeviceLost(() => {
      clearTimeout(timer);
      off();
      // The module's own listener (onDeviceLost below, registered at load, so called first) has set lostMessage.
      resolve(lostMessage);
    });
  });
}

/** The message of the last device loss not yet handled by a rebuild (null: none). */
let lostMessage: string | null = null;

function driverFor(runId: number, spec: ExperimentSpec, report: BackendReport, memberPart: MemberSeat | null): RunDeps {
  return {
    post,
    now: () => performance.now(),
    sleep,
    tick,
    hint: (message) => errorHint(message, backend?.report.backend ?? report.backend),
    errorText,
    deviceLostBehind,
    warn: (m) => console.warn(m),
    async rebuild(from) {
      // Choose again: a fresh device if WebGPU still works, otherwise the next backend.
      const message = lostMessage;
      const fresh = await prepare(lastBackendParam, message ?? 'the device was lost');
      lostMessage = null;
      if (lastRunId !== runId) throw new Error('the run was replaced while its device was recovering');
      return makeRun(runId, spec, fresh, from, memberPart);
    },
  };
}
type RunDeps = ConstructorParameters<typeof RunDriver>[0];

/** ?workers= from the page (null: one per core). */
let workersParam: number | null = null;

/** Workers of a pool on `backend` (no navigator: the module driven in Node by training.worker.test.ts). */
function workersFor(backend: string): number {
  const cores = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency || 1;
  return poolSize(backend, workersParam, cores);
}

/**
 * The run of `spec` on `report`'s backend: on a pool of workers on the CPU backends (workerPool.ts);
 * a member part on this worker alone (one member: nothing to split), exchanging through the page.
 * The spec came from the page as plain data; it is resolved once here (core/experiment/resolve.ts,
 * by createRun or by the pool for its plan and lead part): a resolved one cannot cross postMessage.
 */
function makeRun(runId: number, spec: ExperimentSpec, report: BackendReport, checkpoint: Checkpoint | null, memberPart: MemberSeat | null): ExperimentRun {
  if (memberPart) return createRun(spec, { ...runOptionsFor(report, checkpoint), memberPart: { ...memberPart, exchange: memberExchange(runId) } });
  return pooledBrowserRun(spec, runOptionsFor(report, checkpoint), workersFor(report.backend), scope.location?.href ?? '');
}

// ---------------------------------------------------------------- a member part's exchange

/** The exchange a member part's run waits on (one at most: a run makes one at a time). */
let waiting: { runId: number; step: number; kind: 'train' | 'eval'; resolve: (answers: unknown) => void; reject: (e: Error) => void } | null = null;

/** Posts this member's answers and resolves with the partner's, from the page's `exchange-reply`. */
function memberExchange(runId: number): AnswerExchange {
  return (step, kind, answers) =>
    new Promise((resolve, reject) => {
      if (lastRunId !== runId) return reject(new Error('the run was stopped while it waited for the partner'));
      endWait(`run ${runId} asked for another exchange while one was waiting`);
      waiting = { runId, step, kind, resolve: resolve as (answers: unknown) => void, reject };
      post({ type: 'exchange', runId, step, kind, answers });
    });
}

/** Ends the wait (a Stop, a new start): the run's step fails and the run stops cleanly. */
function endWait(why: string): void {
  const w = waiting;
  waiting = null;
  w?.reject(new Error(`the run was stopped while it waited for the partner (${why})`));
}

/** The page's reply: to the wait of its run, step and kind; any other (late, after a stop) is dropped. */
function reply(cmd: Extract<WorkerCommand, { type: 'exchange-reply' }>): void {
  const w = waiting;
  if (!w || w.runId !== cmd.runId || w.step !== cmd.step || w.kind !== cmd.kind) {
    console.warn(`Cohort Lab: an exchange reply for run ${cmd.runId}, step ${cmd.step} (${cmd.kind}) that no run waits for was dropped`);
    return;
  }
  waiting = null;
  // Untrusted: the run checks the answers' shape (memberParts.ts checkedAnswers).
  w.resolve(cmd.answers);
}

/** Start the next run's pool workers now, on a CPU backend (none on a GPU backend: none needed). */
function prewarmFor(report: BackendReport): void {
  if (!scope.location) return;
  prewarm(workersFor(likelyRunBackend(report)) - 1, scope.location.href);
}

/**
 * The backend a run will train on, as far as the prepared one tells: an unforced start on a
 * software emulation of a GPU (SwiftShader) trains on wasm (measureBackends: it never beats wasm),
 * so the pool's spare workers for wasm start while the page is read, not after Start.
 */
function likelyRunBackend(report: BackendReport): string {
  const forced = readBackendParam(lastBackendParam).preferred;
  return !forced && report.backend === 'webgpu' && report.adapter === 'swiftshader' ? 'wasm' : report.backend;
}

function runOptionsFor(report: BackendReport, checkpoint: Checkpoint | null) {
  // memoryLimits: a run estimated above what this backend holds is refused before it starts
  // (src/core/experiment/budget.ts; docs/RELIABILITY.md).
  const memoryLimits = defaultLimits(report.backend, report.backend === 'webgpu' ? webgpuBindingLimit() : undefined);
  return { backend: report.backend, warmStartCache, checkpoint: checkpoint ?? undefined, memoryLimits };
}

onDeviceLost((info) => {
  const message = `WebGPU device lost (${info.reason}): ${info.message || 'no details'}`;
  lostMessage = message;
  backend = null;
  console.warn(`Cohort Lab: ${message}; ${active && !active.ended ? `rebuilding run ${active.runId} from its last checkpoint` : 'no run going'}`);
  if (active && !active.ended) {
    // The driver rebuilds the run from its last checkpoint (rebuild() above prepares a backend).
    active.deviceLost(message);
    return;
  }
  lostMessage = null;
  post({ type: 'error', runId: 0, message, hint: errorHint(message, 'webgpu') });
  prepare(lastBackendParam, message).catch((e) => post({ type: 'error', runId: 0, message: errorText(e), hint: errorHint(errorText(e), null) }));
});

/** Tests (e2e/lab.spec.ts) reach this through Playwright's worker handle: lose the device now. */
(scope as unknown as { cohortLabFaults?: unknown }).cohortLabFaults = {
  loseDevice: () => destroyDeviceForTesting(),
};

function preparingState(runId: number, paused: boolean): WorkerEvent {
  return { type: 'state', runId, phase: 'preparing', paused, step: 0, halted: false };
}

function refuse(runId: number, message: string, backendName: string | null): void {
  post({ type: 'error', runId, message, hint: errorHint(message, backendName) });
  post({ type: 'state', runId, phase: 'error', paused: false, step: 0, halted: false });
}

async function start(cmd: Extract<WorkerCommand, { type: 'start' }>): Promise<void> {
  const previous = active;
  if (active) active.command({ type: 'stop' });
  active = null;
  endWait('a new run started');
  lastRunId = cmd.runId;
  pauseBeforeStart = cmd.paused ?? false;
  const parsed = parseSpec(cmd.spec);
  const memberPart = cmd.memberPart ? { armId: cmd.memberPart.armId, memberId: cmd.memberPart.memberId } : null;
  const seatProblem = parsed.ok && memberPart ? memberSeatProblem(parsed.spec, memberPart) : null;
  const cpProblem = parsed.ok && !seatProblem && cmd.checkpoint ? checkpointProblem(parsed.spec, cmd.checkpoint, memberPart ?? undefined) : null;
  if (!parsed.ok || seatProblem || cpProblem) {
    const message = !parsed.ok
      ? `The experiment spec is invalid: ${parsed.errors.join('; ')}`
      : seatProblem
        ? `This experiment cannot be trained as a member part: ${seatProblem}`
        : `The saved run cannot be continued: ${cpProblem}`;
    refuse(cmd.runId, message, null);
    return;
  }
  post(preparingState(cmd.runId, pauseBeforeStart));
  if (cmd.backend !== undefined) lastBackendParam = cmd.backend;
  let report = await prepare(lastBackendParam);
  if (lastRunId !== cmd.runId) return; // another start or a stop arrived meanwhile
  if (!readBackendParam(lastBackendParam).preferred) {
    // Not forced: the backend remembered for this device and cohort shape, or measured now.
    report = await chooseBackendForRun(parsed.spec, cmd.remembered, {
      current: report,
      cancelled: () => lastRunId !== cmd.runId,
      previousReleased: () => !previous || previous.released,
      post,
      probe,
      warning: readBackendParam(lastBackendParam).warning,
    });
    backend = { report, preferred: undefined };
    if (lastRunId !== cmd.runId) return;
  }
  // Stored warm starts: the site's shipped files (presets), then IndexedDB (custom specs).
  // From a checkpoint: no warm start; the runner restores weights, optimizer state and step.
  const run = makeRun(cmd.runId, parsed.spec, report, cmd.checkpoint ?? null, memberPart);
  prewarmFor(report); // the next run's (Run N seeds starts one after another)
  active = new RunDriver(driverFor(cmd.runId, parsed.spec, report, memberPart), cmd.runId, run, {
    steps: parsed.spec.steps,
    paused: pauseBeforeStart,
    checkpoint: cmd.checkpoint ?? null,
    stepsPerSecond,
  });
}

function handle(cmd: WorkerCommand): void {
  const a = active && !active.ended ? active : null;
  switch (cmd.type) {
    case 'prepare':
      lastBackendParam = cmd.backend;
      workersParam = readWorkersParam(cmd.workers);
      prepare(cmd.backend, null, rememberedBackendFor(cmd))
        .then(prewarmFor)
        .catch((e) => post({ type: 'error', runId: 0, message: errorText(e), hint: errorHint(errorText(e), null) }));
      return;
    case 'start':
      start(cmd).catch((e) => refuse(cmd.runId, errorText(e), backend?.report.backend ?? null));
      return;
    case 'pause':
      if (a) a.command(cmd);
      else if (lastRunId !== 0 && !active) {
        // Still preparing: the run starts paused.
        pauseBeforeStart = true;
        post(preparingState(lastRunId, true));
      }
      return;
    case 'resume':
      if (a) a.command(cmd);
      else if (lastRunId !== 0 && !active && pauseBeforeStart) {
        pauseBeforeStart = false;
        post(preparingState(lastRunId, false));
      }
      return;
    case 'step':
      a?.command(cmd);
      return;
    case 'stop':
      lastRunId = 0;
      a?.command(cmd);
      // After the command: the run is 'stopped' when its failed step comes back, so it ends cleanly.
      endWait('stopped');
      return;
    case 'exchange-reply':
      reply(cmd);
      return;
    case 'ping':
      post({ type: 'pong', id: cmd.id });
      return;
    case 'setSpeed':
      stepsPerSecond = cmd.stepsPerSecond != null && Number.isFinite(cmd.stepsPerSecond) && cmd.stepsPerSecond > 0 ? cmd.stepsPerSecond : null;
      a?.command({ type: 'setSpeed', stepsPerSecond });
      return;
  }
}

/** Set when this worker serves a part of another training worker's pool (partServer.ts). */
let partServer: ((cmd: PartCommand) => void) | null = null;

scope.onmessage = (event: MessageEvent<unknown>) => {
  if (partServer || (lastRunId === 0 && !backend && isPartCommand(event.data))) {
    partServer ??= startPartServer((r) => scope.postMessage(r), warmStartCache);
    partServer(event.data as PartCommand);
    return;
  }
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
