/**
 * The typed messages between the page and the training worker (Sequence Toy's train/protocol.ts).
 *
 *   page -> worker  WorkerCommand: prepare(backend?, remembered?, signature?, workers?),
 *                                  start(spec, backend?, remembered?, checkpoint?, memberPart?),
 *                                  pause, resume, step, stop, setSpeed,
 *                                  exchange-reply(runId, step, kind, answers)
 *   worker -> page  WorkerEvent:   backend(report, probe), measurement(rows, chosen),
 *                                  state(phase, paused, step, halted), runner(RunnerEvent),
 *                                  checkpoint(checkpoint, reason), recovered(fromStep),
 *                                  error(message, hint), exchange(runId, step, kind, answers)
 *
 * The page sends `prepare` once on load, so the backend (and a one-step probe that proves it
 * computes and differentiates) is known before anyone presses Start. Unless ?backend= forces one,
 * the first Start of a cohort shape on a device times one RL step on each backend that could win
 * and trains on the fastest (backendChoice.ts; a software emulation of a GPU never beats wasm, so
 * where wasm is the only other backend nothing is timed); the worker reports the figures in `measurement` events and the
 * page remembers the choice (localStorage) and hands it back in `prepare` and `start`, so a reload
 * does not measure again. Every event of a run carries
 * the `runId` the page gave in `start`, so after Reset the page can drop events still in flight
 * from the old run.
 *
 * Checkpoints (saved runs, src/app/runs/): once the base is evaluated and after every
 * CHECKPOINT_EVERY-th RL step, and when the run pauses, is stopped or finishes, the worker posts a
 * `checkpoint` event (the runner's checkpoint(): weights, optimizer state, step, summary), always
 * right after the `runner` event of the step it holds, so the page has every event up to it. A
 * `start` with a `checkpoint` continues that run exactly as the uninterrupted run would have: it
 * posts steps from checkpoint.step + 1 (not the base again: the page shows it already). Plain data only: everything
 * here survives structured clone (a checkpoint's weights are Float32Arrays).
 *
 * A peer arm across two browsers (class mode's paired rooms; docs/METHOD.md): a `start` with
 * `memberPart` trains one member of the spec's two-member peer arm (src/core/experiment/
 * memberParts.ts), on this worker alone (no pool). Whenever the run needs its partner's answers
 * (each step's votes, each evaluation's held-out answers, the base's at step 0) the worker posts
 * `exchange` with this member's answers and waits for the page's `exchange-reply` of the same
 * run, step and kind, which carries the partner's (the page relays both through the room). The
 * wait has no time limit here: the page knows the room, so it says when a partner left and for
 * how long to wait. A Pause while waiting takes effect when the reply comes (a pause never cuts
 * a step); a Stop ends the wait at once: the run stops cleanly, and its stop checkpoint is of
 * the last completed step (none when the wait was for held-out answers after the step's update:
 * the last checkpoint posted stays good). A continued or rebuilt member part asks again for every
 * step after its checkpoint: the page answers from the partner's answers it keeps.
 */
import type { MeasuredMiss } from '../core/experiment/fitMembers';
import type { RunnerEvent } from '../core/experiment/events';
import type { Checkpoint } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import type { BackendName, BackendReport } from './backend-common';
import type { BackendChoiceRecord, MeasuredRow } from './backendChoice';

export type { BackendChoiceRecord, BackendName, BackendReport, Checkpoint, MeasuredRow };

/** A member part's exchange (memberParts.ts): 'train', a step's votes; 'eval', held-out answers (step 0: the base). */
export type ExchangeKind = 'train' | 'eval';
/** Answers per prompt (null: no parseable answer). */
export type ExchangeAnswers = (string | null)[][];

/**
 * A checkpoint every this many RL steps. Taking one reads every weight and optimizer moment back
 * from the device (and the page stores it), so not every step; a resumed run redoes at most
 * this many steps minus one.
 */
export const CHECKPOINT_EVERY = 5;

/** Why a checkpoint was taken: the base (step 0), every CHECKPOINT_EVERY steps, or the run halting. */
export type CheckpointReason = 'base' | 'every' | 'paused' | 'stopped' | 'done';

/** Where a run is. `paused` is reported separately: warm start and RL can both be paused. */
export type RunPhase = 'idle' | 'preparing' | 'warmstart' | 'rl' | 'done' | 'stopped' | 'error';

export type WorkerCommand =
  /**
   * Choose the backend now. `backend` is the untrusted ?backend= value: the worker validates it
   * and ignores an unknown name with a warning. `remembered`: the page's stored choices;
   * `signature`: the cohort signature of the experiment on screen (cohortSignature), so a choice
   * remembered for it is used from the start.
   */
  /**
   * `workers`: the untrusted ?workers= value: how many workers train a run on a CPU backend
   * (workerPool.ts; absent or invalid: one per core).
   */
  | { type: 'prepare'; backend?: string | null; remembered?: BackendChoiceRecord[]; signature?: string | null; workers?: string | null }
  /**
   * Start a run (preparing first if needed); a run already going is stopped. Without a forcing
   * ?backend=, the backend is the one remembered for this device and cohort, or measured now.
   * With `checkpoint` (taken from a run of this same spec) the run continues from it: no warm
   * start, the 'base' event again, then steps checkpoint.step + 1 ... spec.steps.
   */
  | {
      type: 'start';
      runId: number;
      spec: ExperimentSpec;
      backend?: string | null;
      paused?: boolean;
      remembered?: BackendChoiceRecord[];
      checkpoint?: Checkpoint;
      /** Train only this member of this two-member peer arm; its partner's answers come by `exchange-reply`. */
      memberPart?: { armId: string; memberId: string };
    }
  /** Stop pulling steps; takes effect before the next step starts. */
  | { type: 'pause' }
  | { type: 'resume' }
  /** While paused: run exactly one more RL step (during warm start: finish it, then one step). */
  | { type: 'step' }
  /** End the run and free its tensors. */
  | { type: 'stop' }
  /** At most this many RL steps per second; null = as fast as possible. */
  | { type: 'setSpeed'; stepsPerSecond: number | null }
  /**
   * The partner's answers for the `exchange` of this run, step and kind (a member part only).
   * Untrusted (another browser's): the run checks their shape and stops with words when wrong.
   */
  | { type: 'exchange-reply'; runId: number; step: number; kind: ExchangeKind; answers: ExchangeAnswers }
  /** Answer with a `pong` of this id: a worker that does not within a while is stuck (Reset then ends it). */
  | { type: 'ping'; id: number };

/** The probe computation (src/engine/probe.ts) on the chosen backend. */
export interface ProbeOutcome {
  ok: boolean;
  lossBefore: number | null;
  lossAfter: number | null;
  ms: number | null;
  error: string | null;
}

export type WorkerEvent =
  /** The backend in use: after prepare, and again after a device loss made the worker choose anew. */
  | { type: 'backend'; report: BackendReport; probe: ProbeOutcome | null; warning: string | null; deviceLost: string | null }
  /**
   * The backend choice by measurement: while `measuring` (rows so far, `current` being timed), then
   * `measured` (the page stores it under `key`) or `remembered` (a stored choice was reused).
   * `chosen` is null when no backend finished a timed step (the default order is used then).
   */
  | {
      type: 'measurement';
      status: 'measuring' | 'measured' | 'remembered';
      key: string;
      rows: MeasuredRow[];
      current: BackendName | null;
      chosen: BackendName | null;
      reason: string | null;
      measuredAt: number | null;
    }
  /**
   * The worker is the only source of a run's phase (runController.ts). `paused` is true only once
   * nothing is in flight; `step` is the last RL step posted (0 before and at the base); `halted`:
   * paused for good by a non-finite number (the 'nonfinite' runner event says where and why).
   */
  | { type: 'state'; runId: number; phase: RunPhase; paused: boolean; step: number; halted: boolean }
  /**
   * The WebGPU device was lost mid-run and the run was rebuilt on a fresh backend from the
   * checkpoint of `fromStep` (null: from the start): the page drops what it showed after that step.
   */
  | { type: 'recovered'; runId: number; fromStep: number | null }
  | { type: 'runner'; runId: number; event: RunnerEvent }
  /** The run's state after its last posted step (or the base: step 0), to continue it later. */
  | { type: 'checkpoint'; runId: number; reason: CheckpointReason; checkpoint: Checkpoint }
  /**
   * Something failed; `hint` says what to do next, in plain words. runId 0: not about a run.
   * `miss`: a warm start missed its target, with the cause measured (core/experiment/missCause.ts),
   * from which the page picks the member to try next (fitMembers.ts refitAfterMiss).
   */
  | { type: 'error'; runId: number; message: string; hint: string; miss?: MeasuredMiss }
  /**
   * A member part's run waits for its partner's answers of this step and kind (the page replies
   * with `exchange-reply`); `answers`: this member's, per prompt, for the partner.
   */
  | { type: 'exchange'; runId: number; step: number; kind: ExchangeKind; answers: ExchangeAnswers }
  /** The answer to a `ping`: the worker's event loop turns. */
  | { type: 'pong'; id: number };

const COMMAND_TYPES = new Set(['prepare', 'start', 'pause', 'resume', 'step', 'stop', 'setSpeed', 'exchange-reply', 'ping']);

const wholeNumber = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const isKind = (x: unknown): x is ExchangeKind => x === 'train' || x === 'eval';

/**
 * A cheap shape check for messages arriving at the worker (the spec itself is parsed with zod; an
 * exchange reply's answers are checked by the run, which knows how many it needs; a start's
 * member part by memberSeatProblem).
 */
export function isWorkerCommand(x: unknown): x is WorkerCommand {
  if (typeof x !== 'object' || x === null || !COMMAND_TYPES.has((x as { type?: unknown }).type as string)) return false;
  const c = x as Record<string, unknown>;
  if (c.type === 'exchange-reply') return wholeNumber(c.runId) && wholeNumber(c.step) && isKind(c.kind);
  if (c.type === 'ping') return wholeNumber(c.id);
  if (c.type === 'start' && c.memberPart !== undefined) {
    const m = c.memberPart as Record<string, unknown> | null;
    return typeof m === 'object' && m !== null && typeof m.armId === 'string' && typeof m.memberId === 'string';
  }
  return true;
}

/** Phases in which a run holds tensors and can be paused, stepped or stopped. */
export function isActivePhase(phase: RunPhase): boolean {
  return phase === 'preparing' || phase === 'warmstart' || phase === 'rl';
}

/**
 * Whether an error's text is a warm-start miss (WarmStartMissError: missMessage, or outOfReach in a
 * student's words): a member that did not reach its target, not a fault of the page or the device.
 */
export function isWarmStartMiss(message: string): boolean {
  return /did not reach its warm-start target|looks out of its reach/i.test(message);
}

/**
 * What to do about an error, from its text and the backend in use. Shown under the message.
 * Device loss and missing kernels are the WebGPU failures we know (docs/TFJS-AND-BROWSER.md; tfjs #5180).
 */
export function errorHint(message: string, backend: string | null): string {
  const m = message.toLowerCase();
  if (isWarmStartMiss(m)) {
    // WarmStartMissError (docs/WARMSTARTS.md, "The guard"): deterministic, so Start alone repeats it.
    return 'The warm start is deterministic: starting again gives the same result. Go on from the best it reached, or change what the sentence suggests in the Experiment panel and Start again.';
  }
  if (/^the saved run cannot be continued|^the checkpoint cannot be restored/.test(m)) {
    // A stored checkpoint the worker or the runner refused (src/core/experiment/checkpoint.ts):
    // its words say what is wrong; the experiment itself is fine.
    return 'The saved checkpoint of this run cannot be used, as the message says. Start the experiment again from the beginning, or delete the run from Saved runs.';
  }
  if (/^this run needs about|^one tensor of this run/.test(m)) {
    // RunTooLargeError (src/core/experiment/budget.ts): the message already says what to reduce.
    return 'Make the run smaller as the message says (the Experiment panel), then Start again. The estimate is an upper bound measured on wasm (docs/RELIABILITY.md).';
  }
  if (/device (was )?lost|device is lost|instance reference no longer exists|gpudevice.*(destroyed|lost)/.test(m)) {
    return 'The GPU device was lost (driver reset, sleep, or too much work at once). Reload the page to try WebGPU again, or open it with ?backend=webgl or ?backend=wasm to train without WebGPU.';
  }
  if (/kernel .*not registered|not (yet )?implemented|is not supported on/.test(m)) {
    return `The ${backend ?? 'current'} backend lacks an operation this model needs. Open the page with ?backend=wasm (or ?backend=cpu) to run on another backend.`;
  }
  if (/out of memory|oom|allocation failed|failed to allocate|exceeds the max/.test(m)) {
    return 'The device ran out of memory. Make the cohort smaller (fewer or narrower members, fewer arms) or lower prompts per step and group size, then Start again.';
  }
  if (/no usable tfjs backend/.test(m)) {
    return 'No TensorFlow.js backend could start in this browser. Try a current Chrome, Edge or Firefox, or open the page with ?backend=cpu.';
  }
  if (/spec|expected|invalid/.test(m)) {
    return 'The experiment settings were rejected. Fix the fields marked in the Experiment panel, then Start again.';
  }
  if (backend === 'webgpu') {
    return 'Press Reset and Start again. If it happens again, open the page with ?backend=wasm or ?backend=webgl and compare.';
  }
  return 'Press Reset and Start again. If it happens again, try a smaller experiment or another backend (?backend=wasm).';
}

/**
 * Read an untrusted ?workers= value: a whole number 1-64 is the pool size; anything else is
 * ignored (null: one worker per core).
 */
export function readWorkersParam(raw: string | null | undefined): number | null {
  if (raw == null || !/^\d{1,2}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= 64 ? n : null;
}

const BACKEND_NAMES: readonly string[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

/**
 * Read an untrusted ?backend= value: a known name is a preference; anything else is ignored with
 * a warning (quoted with JSON.stringify, shown as text, never as HTML). (Kept free of tfjs imports:
 * the page bundle imports this file.)
 */
export function readBackendParam(raw: string | null | undefined): { preferred?: BackendName; warning: string | null } {
  if (raw == null || raw === '') return { warning: null };
  if (BACKEND_NAMES.includes(raw)) return { preferred: raw as BackendName, warning: null };
  return { warning: `unknown backend ${JSON.stringify(raw.slice(0, 40))} ignored (use webgpu, webgl, wasm or cpu)` };
}
