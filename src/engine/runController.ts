/**
 * The run controller: what the training worker does with one run, as pure transitions.
 *
 *   transition(state, input) -> { state, effects }
 *
 * An input is a command from the page (pause, resume, step, stop, setSpeed) or the outcome of an
 * effect the driver carried out (a tick passed, an event pulled from the runner, a checkpoint taken, a wait over,
 * a device lost and the run rebuilt). Effects are what to do next: post an event to the page, yield
 * one tick to the message loop (so a command sent meanwhile is seen before the next pull), pull
 * the runner's next event, take a checkpoint, wait (the speed limit), rebuild the run after a lost
 * device, dispose it. At most one of tick / pull / checkpoint / wait / recover is in flight (`busy`); the
 * driver (runDriver.ts) executes them and feeds their outcomes back. Nothing here touches tfjs, a
 * clock or the worker scope, so every rule below is unit-tested with plain objects
 * (runController.test.ts).
 *
 * The rules:
 * - The runner is pull-driven, so pausing is not pulling: a Pause takes effect before the next step
 *   starts, and `paused: true` is posted only once nothing is in flight. A Step while paused pulls
 *   exactly one more RL step.
 * - Checkpoints (protocol.ts) after the base, every CHECKPOINT_EVERY steps, on pausing, at the last
 *   step and when stopped; always right after the runner event of the step they hold, and never of
 *   a step the page has not been sent.
 * - A step that was in flight when Stop arrived is still posted, then the stop's checkpoint.
 * - A 'nonfinite' event (a NaN or infinity at some step, the runner's weights are poisoned) pauses
 *   the run for good: it is `halted`, Resume and Step are refused, nothing more is checkpointed.
 * - A lost WebGPU device during the run: the run is rebuilt from the last checkpoint (or from the
 *   start before the first one) on a fresh backend; the page is told with a 'recovered' event and
 *   drops what it was shown after that step. Outcomes of the lost run arriving late are ignored
 *   (each rebuild bumps `generation`).
 * - Every state event carries the last step posted, so the page (and e2e tests) can wait on the
 *   worker's word instead of on time.
 */
import type { MeasuredMiss } from '../core/experiment/fitMembers';
import type { RunnerEvent } from '../core/experiment/events';
import type { Checkpoint } from '../core/experiment/runner';
import { CHECKPOINT_EVERY, type CheckpointReason, type RunPhase, type WorkerEvent } from './protocol';

export type NonFiniteEvent = Extract<RunnerEvent, { type: 'nonfinite' }>;

export interface RunControllerState {
  runId: number;
  /** The run's RL steps (spec.steps): a checkpoint is taken at the last. */
  steps: number;
  phase: RunPhase;
  /** The page asked to pause: no more pulls (until Resume or Step). */
  paused: boolean;
  /** `paused: true` was posted for the current pause. */
  pausedPosted: boolean;
  /** Single steps asked for while paused. */
  pendingSteps: number;
  busy: 'tick' | 'pull' | 'checkpoint' | 'wait' | 'recover' | null;
  /** A tick passed since the last pull: commands queued meanwhile were seen, so the next pull may go. */
  ticked: boolean;
  /** Last RL step posted to the page (0 once the base is posted; -1 before). */
  postedStep: number;
  /** The last checkpoint posted (null: none yet), kept to rebuild the run after a device loss. */
  lastCheckpoint: Checkpoint | null;
  /** The step a continued run started from (its checkpoint); -1 for a fresh run. */
  startedFrom: number;
  /** The stop's checkpoint was asked for (asked once). */
  stopCheckpointAsked: boolean;
  /** A checkpoint of this step failed: not asked again (the run goes on without it). */
  checkpointFailedAt: number;
  /** Set by a 'nonfinite' event: the run cannot go on. */
  halt: NonFiniteEvent | null;
  stepsPerSecond: number | null;
  /** Clock time of the last RL step posted (for the speed limit). */
  lastStepAt: number | null;
  /** Bumped by every rebuild: outcomes of an older generation are dropped. */
  generation: number;
  disposed: boolean;
}

export type ControllerCommand =
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'step' }
  | { type: 'stop' }
  | { type: 'setSpeed'; stepsPerSecond: number | null };

export type ControllerInput =
  | ControllerCommand
  /** The runner's next event (null: its generator finished). */
  | { type: 'pulled'; generation: number; event: RunnerEvent | null; now: number }
  | { type: 'pullFailed'; generation: number; message: string; hint: string; miss?: MeasuredMiss }
  /** A checkpoint the driver took (null: it failed; the run goes on without it). */
  | { type: 'checkpointed'; generation: number; reason: CheckpointReason; checkpoint: Checkpoint | null }
  | { type: 'waited'; generation: number; now: number }
  /** A macrotask tick passed (messages queued before it were handled). */
  | { type: 'ticked'; generation: number }
  | { type: 'deviceLost'; message: string }
  /** The run was rebuilt on a fresh backend (from `lastCheckpoint`, or from the start). */
  | { type: 'recovered'; generation: number }
  | { type: 'recoveryFailed'; generation: number; message: string; hint: string };

export type ControllerEffect =
  | { type: 'post'; event: WorkerEvent }
  /** Yield to the message loop before pulling, so a Pause or Stop sent meanwhile is seen first. */
  | { type: 'tick'; generation: number }
  | { type: 'pull'; generation: number }
  | { type: 'checkpoint'; generation: number; reason: CheckpointReason }
  | { type: 'wait'; generation: number; ms: number }
  /** Dispose the lost run, prepare a backend again, build the run from `from` (null: the start). */
  | { type: 'recover'; generation: number; from: Checkpoint | null }
  | { type: 'dispose' };

export interface Transition {
  state: RunControllerState;
  effects: ControllerEffect[];
}

/** Longest single wait of the speed limit, so a pause or stop is seen quickly. */
export const WAIT_SLICE_MS = 50;

export function isEnded(phase: RunPhase): boolean {
  return phase === 'done' || phase === 'stopped' || phase === 'error';
}

/**
 * A run just started (its backend ready, its runner created): from the start (warm start first)
 * or continued from `checkpoint`.
 */
export function startRun(
  runId: number,
  steps: number,
  opts: { paused?: boolean; checkpoint?: Checkpoint | null; stepsPerSecond?: number | null },
): Transition {
  const from = opts.checkpoint ?? null;
  const state: RunControllerState = {
    runId,
    steps,
    phase: from ? 'rl' : 'warmstart',
    paused: opts.paused ?? false,
    pausedPosted: false,
    pendingSteps: 0,
    busy: null,
    ticked: false,
    postedStep: -1,
    lastCheckpoint: from,
    startedFrom: from ? from.step : -1,
    stopCheckpointAsked: false,
    checkpointFailedAt: -1,
    halt: null,
    stepsPerSecond: opts.stepsPerSecond ?? null,
    lastStepAt: null,
    generation: 0,
    disposed: false,
  };
  return schedule(state, [{ type: 'post', event: stateEvent(state) }], 0);
}

/** The `state` event the page folds (the worker is the only source of the phase). */
export function stateEvent(s: RunControllerState): Extract<WorkerEvent, { type: 'state' }> {
  const paused = s.paused && s.pendingSteps === 0 && s.busy === null;
  return { type: 'state', runId: s.runId, phase: s.phase, paused, step: Math.max(s.postedStep, 0), halted: s.halt !== null };
}

const checkpointStep = (s: RunControllerState) => (s.lastCheckpoint ? s.lastCheckpoint.step : -1);

export function transition(s0: RunControllerState, input: ControllerInput, now = 0): Transition {
  if (s0.disposed) return { state: s0, effects: [] };
  const s = { ...s0 };
  const out: ControllerEffect[] = [];
  const ended = isEnded(s.phase);
  const stale = 'generation' in input && input.generation !== s.generation;
  if (stale) return { state: s0, effects: [] };
  switch (input.type) {
    case 'pause':
      if (ended || s.paused) return { state: s0, effects: [] };
      s.paused = true;
      s.pendingSteps = 0;
      s.pausedPosted = false;
      break;
    case 'resume':
      if (ended) return { state: s0, effects: [] };
      if (s.halt) {
        out.push({ type: 'post', event: stateEvent(s) });
        return { state: s, effects: out };
      }
      if (!s.paused) return { state: s0, effects: [] };
      s.paused = false;
      s.pausedPosted = false;
      out.push({ type: 'post', event: stateEvent(s) });
      break;
    case 'step':
      if (ended || !s.paused || s.halt) return { state: s0, effects: [] };
      s.pendingSteps += 1;
      s.pausedPosted = false;
      break;
    case 'stop':
      if (ended) return { state: s0, effects: [] };
      s.phase = 'stopped';
      out.push({ type: 'post', event: stateEvent(s) });
      break;
    case 'setSpeed':
      s.stepsPerSecond = input.stepsPerSecond;
      break;
    case 'waited':
      s.busy = null;
      break;
    case 'ticked':
      s.busy = null;
      s.ticked = true;
      break;
    case 'pulled':
      s.busy = null;
      s.ticked = false;
      onPulled(s, input.event, input.now, out);
      break;
    case 'pullFailed':
    case 'recoveryFailed':
      s.busy = null;
      if (!ended) fail(s, input.message, input.hint, out, input.type === 'pullFailed' ? input.miss : undefined);
      break;
    case 'checkpointed': {
      s.busy = null;
      const cp = input.checkpoint;
      // Only a checkpoint of the last posted step: never one the page has not seen.
      if (cp && cp.step === s.postedStep && cp.step > checkpointStep(s)) {
        s.lastCheckpoint = cp;
        out.push({ type: 'post', event: { type: 'checkpoint', runId: s.runId, reason: input.reason, checkpoint: cp } });
      } else {
        s.checkpointFailedAt = s.postedStep;
      }
      break;
    }
    case 'deviceLost':
      if (ended || s.busy === 'recover') return { state: s0, effects: [] };
      s.generation += 1;
      s.busy = 'recover';
      out.push({ type: 'recover', generation: s.generation, from: s.lastCheckpoint });
      return { state: s, effects: out };
    case 'recovered': {
      s.busy = null;
      const from = s.lastCheckpoint;
      s.startedFrom = from ? from.step : -1;
      s.postedStep = from ? from.step : -1;
      s.lastStepAt = null;
      if (!ended) s.phase = from ? 'rl' : 'warmstart';
      out.push({ type: 'post', event: { type: 'recovered', runId: s.runId, fromStep: from ? from.step : null } });
      if (!ended) out.push({ type: 'post', event: stateEvent(s) });
      break;
    }
  }
  return schedule(s, out, now);
}

/** The run failed (a step threw, or it could not be rebuilt): the error in words, then the phase. */
function fail(s: RunControllerState, message: string, hint: string, out: ControllerEffect[], miss?: MeasuredMiss): void {
  out.push({ type: 'post', event: { type: 'error', runId: s.runId, message, hint, ...(miss ? { miss } : {}) } });
  s.phase = 'error';
  out.push({ type: 'post', event: stateEvent(s) });
}

/** Fold what the runner yielded: post it, move the phase, plan checkpoints. */
function onPulled(s: RunControllerState, ev: RunnerEvent | null, now: number, out: ControllerEffect[]): void {
  if (isEnded(s.phase)) {
    // Stopped while this was in flight: the page still gets a finished step (then the stop's checkpoint).
    if (s.phase === 'stopped' && ev?.type === 'step') {
      out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
      s.postedStep = ev.step;
    }
    return;
  }
  if (ev === null || ev.type === 'done') {
    if (ev) out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
    s.phase = 'done';
    out.push({ type: 'post', event: stateEvent(s) });
    return;
  }
  switch (ev.type) {
    case 'warmstart':
      if (s.phase !== 'warmstart') {
        s.phase = 'warmstart';
        out.push({ type: 'post', event: stateEvent(s) });
      }
      out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
      return;
    case 'base': {
      const continued = s.startedFrom >= 0;
      s.postedStep = continued ? s.startedFrom : 0;
      if (s.phase !== 'rl') {
        s.phase = 'rl';
        out.push({ type: 'post', event: stateEvent(s) });
      }
      // A continued (or rebuilt) run evaluates its base again; the page has it already.
      if (!continued) out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
      return;
    }
    case 'step':
      if (s.phase !== 'rl') {
        s.phase = 'rl';
        out.push({ type: 'post', event: stateEvent(s) });
      }
      out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
      s.postedStep = ev.step;
      s.lastStepAt = now;
      if (s.pendingSteps > 0) s.pendingSteps -= 1;
      return;
    case 'nonfinite':
      out.push({ type: 'post', event: { type: 'runner', runId: s.runId, event: ev } });
      s.halt = ev;
      s.paused = true;
      s.pendingSteps = 0;
      s.pausedPosted = false;
      return;
  }
}

/** Why a checkpoint is due now (null: none). Only between steps, and only of a posted step. */
function dueCheckpoint(s: RunControllerState): CheckpointReason | null {
  if (s.halt || s.postedStep < 0 || s.postedStep <= checkpointStep(s) || s.postedStep === s.checkpointFailedAt) return null;
  if (s.phase === 'stopped') return s.stopCheckpointAsked ? null : 'stopped';
  if (s.phase === 'error') return null;
  if (s.phase === 'done' || s.postedStep === s.steps) return 'done';
  if (s.postedStep === 0) return 'base';
  if (s.postedStep % CHECKPOINT_EVERY === 0) return 'every';
  if (s.paused && s.pendingSteps === 0) return 'paused';
  return null;
}

/** With nothing in flight: what to do next. */
function schedule(s: RunControllerState, out: ControllerEffect[], now: number): Transition {
  if (s.busy !== null || s.disposed) return { state: s, effects: out };
  const g = s.generation;
  const reason = dueCheckpoint(s);
  if (reason) {
    if (reason === 'stopped') s.stopCheckpointAsked = true;
    s.busy = 'checkpoint';
    out.push({ type: 'checkpoint', generation: g, reason });
    return { state: s, effects: out };
  }
  if (isEnded(s.phase)) {
    s.disposed = true;
    out.push({ type: 'dispose' });
    return { state: s, effects: out };
  }
  if (s.paused && s.pendingSteps === 0) {
    if (!s.pausedPosted) {
      s.pausedPosted = true;
      out.push({ type: 'post', event: stateEvent(s) });
    }
    return { state: s, effects: out };
  }
  if (s.phase === 'rl' && s.pendingSteps === 0 && s.stepsPerSecond != null && s.lastStepAt != null && s.postedStep < s.steps) {
    const wait = s.lastStepAt + 1000 / s.stepsPerSecond - now;
    if (wait > 0) {
      s.busy = 'wait';
      out.push({ type: 'wait', generation: g, ms: Math.min(wait, WAIT_SLICE_MS) });
      return { state: s, effects: out };
    }
  }
  if (!s.ticked) {
    s.busy = 'tick';
    out.push({ type: 'tick', generation: g });
    return { state: s, effects: out };
  }
  s.busy = 'pull';
  out.push({ type: 'pull', generation: g });
  return { state: s, effects: out };
}
