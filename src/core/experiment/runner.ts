/**
 * The experiment runner: an async step generator that the UI worker and the CLI both drive.
 *
 *   warm start every member once  ->  evaluate the base  ->  stack the arms' copies by shape
 *   ->  for each RL step: draw B prompts  ->  one cohort step (step.ts)  ->  evaluate every E steps
 *
 * It is pull-driven: nothing runs while nobody pulls, which is how the UI pauses and single-steps.
 * After the warm start, each pull yields exactly one 'step' event. Between steps `checkpoint()`
 * captures everything (weights, optimizer state, step, history) as plain data; a run created
 * from that checkpoint continues exactly as the uninterrupted run would have: every random
 * stream after the warm start is derived from (seed, purpose, step), not from a running state.
 *
 * createRun reads as its phases (runPhases.ts) over the experiment resolved once (resolve.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { Checkpoint } from './checkpoint';
import type { WarmStartCache } from './warmStartCache';
import { warmStartCohort } from './warmStartCohort';
import type { Stacking } from './stacks';
import { buildTrainingStacks } from './stacks';
import { foldEvent } from './summary';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent } from './events';
import { checkMemory, type MemoryLimits } from './budget';
import type { BlowUp } from './blowUp';
import type { RunPart } from './parts';
import type { MemberPart } from './memberParts';
import { resolveExperiment, warmStartInputs, type ResolvedSpec } from './resolve';
import { captureCheckpoint, disposeRun, evaluateBase, newRunState, restoreRun, rlStep, type RunFaults } from './runPhases';

/** The completion length cap L (lengths.ts). */
export { lengthCap } from './lengths';

/** Thrown by events() before the base evaluation when a member missed its warm-start target. */
export { WarmStartMissError } from './warmStartCohort';

/** The checkpoint format (checkpoint.ts: its version, schema, migrations and checks). */
export { CHECKPOINT_VERSION, CheckpointError, type Checkpoint } from './checkpoint';

export interface RunOptions {
  checkpoint?: Checkpoint;
  /** Reported in the summary (the backend the caller initialised). */
  backend?: string;
  /** 'shape' (default): same-shape copies train as one stack; 'slot': one model at a time. */
  stacking?: Stacking;
  /** Stored warm starts: a member found there skips its warm start; one trained is saved there. */
  warmStartCache?: WarmStartCache;
  /** What the backend can hold: a run estimated above it throws RunTooLargeError before it starts. */
  memoryLimits?: MemoryLimits;
  /**
   * A pooled run's part (parts.ts): train only these arms, build only the members they need, and
   * evaluate the base only in the lead part (the others yield a 'base' event without evaluations).
   * A checkpoint then holds only these arms; resume a part from the merged checkpoint of the pool.
   */
  part?: RunPart;
  /**
   * A member part (memberParts.ts): train only this member of this two-member peer arm, whose
   * partner trains elsewhere (class mode: another browser), exchanging answers with it through
   * `exchange` at every step and evaluation (the base's at step 0). Its events hold its own
   * member's metrics and the pair's; mergeMemberSteps merges the pair's. Its checkpoint holds
   * its member alone and resumes a member part (the exchanges after its step are made again).
   */
  memberPart?: MemberPart;
  /**
   * Tests only: faults injected to test what catches them. `poisonWeight` writes `value` (default
   * NaN) into the first weight of one trained copy right after its update at RL step `step`.
   */
  faults?: RunFaults;
}

/** Thrown by checkpoint() once a 'nonfinite' event was yielded: the weights are poisoned, never saved. */
export class NonFiniteRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonFiniteRunError';
  }
}

/** Thrown by events() before anything is computed when the run would not fit its backend's memory. */
export class RunTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunTooLargeError';
  }
}

/** What checkpoint() throws once a run halted on a non-finite number. */
export function noCheckpointAfter(h: BlowUp): NonFiniteRunError {
  return new NonFiniteRunError(`no checkpoint after step ${h.step}: a ${h.quantity} of member ${h.memberId} in arm ${h.armId} became ${h.value}, so the weights are not finite (the last checkpoint, of step ${h.step - 1} or before, is still good)`);
}

export interface ExperimentRun {
  events(): AsyncGenerator<RunnerEvent, void, void>;
  /** Plain-data snapshot between steps (call it when the generator is not mid-step). */
  checkpoint(): Promise<Checkpoint>;
  dispose(): void;
}

/**
 * A run of `experiment`: a spec, resolved here, or one its caller resolved already (a pool
 * resolves once for its plan and its lead part: resolve.ts).
 */
export function createRun(experiment: ExperimentSpec | ResolvedSpec, opts: RunOptions = {}): ExperimentRun {
  // The task, lengths, split and what this run trains, derived once (resolve.ts).
  const x = resolveExperiment(experiment, opts.part, opts.memberPart);
  const { spec } = x;
  // An over-large run is refused before any tensor exists (budget.ts; the caller's limits).
  const tooLarge = opts.memoryLimits ? checkMemory(spec, opts.memoryLimits, x.maxLen) : null;
  const st = newRunState(x, opts.backend ?? tf.getBackend());

  async function* events(): AsyncGenerator<RunnerEvent, void, void> {
    if (tooLarge) throw new RunTooLargeError(tooLarge);
    // 1. The cohort: restored from a checkpoint, or warm-started and evaluated.
    if (opts.checkpoint) {
      await restoreRun(x, st, opts.checkpoint, opts.stacking);
    } else {
      // Warm start each member once (or load it); every arm's copies start from these weights.
      // A member that missed its warm-start target throws WarmStartMissError here, before the
      // base evaluation: no RL with a member weaker than the spec asked for (docs/WARMSTARTS.md).
      const cohort = { ...warmStartInputs(x), backend: st.summary.backend, cache: opts.warmStartCache, only: x.needed };
      yield* warmStartCohort(cohort, st.warm, () => st.disposed);
      if (st.disposed) return;
      const base = await evaluateBase(x, st);
      if (!base) return;
      st.stacks = buildTrainingStacks(x.trainSpec, st.warm, opts.stacking);
      foldEvent(st.summary, base, spec);
    }
    yield { type: 'base', members: [...st.warm.values()].map((w) => w.info), base: st.summary.base, baseKappa: st.summary.baseKappa };

    // 2. The RL steps, one event each; a non-finite number ends the run at its step.
    while (st.step < spec.steps && !st.disposed) {
      const event = await rlStep(x, st, opts.faults);
      if (!event) return;
      yield event;
      if (event.type === 'nonfinite') return;
    }

    // 3. The end.
    if (!st.disposed) yield { type: 'done', summary: structuredClone(st.summary) };
  }

  async function checkpoint(): Promise<Checkpoint> {
    if (st.halted) throw noCheckpointAfter(st.halted);
    if (st.torn) {
      throw new Error(`no checkpoint: step ${st.step + 1} was stopped while it waited for the partner's held-out answers, after its update (the last checkpoint, of step ${st.step} or before, is still good)`);
    }
    return captureCheckpoint(x, st);
  }

  return { events, checkpoint, dispose: () => disposeRun(st) };
}
