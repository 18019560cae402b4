/**
 * Run slice: everything the worker has reported about the current run. Worker events are folded
 * in by the pure `reduceWorkerEvent` (unit-tested); events of an older run (another runId) are dropped.
 */
import type { MeasuredMiss } from '../../core/experiment/fitMembers';
import type { BaseEvaluation, MemberInfo, RolloutSample, RunSummary, RunnerEvent } from '../../core/experiment/events';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { BackendReport, ProbeOutcome, RunPhase, WorkerEvent } from '../../engine/protocol';
import type { LabSlice } from './types';
import { type StartupTimeline, type StepCost, type WarmCurve, type WarmProgress, RATE_WINDOW, markStartup, nextWarmCurves, nextWarmProgress } from './progress';
import { type RunSeries, appendStep, emptySeries } from './series';
import { emptySummary, foldEvent } from '../../core/experiment/summary';

/** Steps of rollout samples kept for the inspector. */
export const MAX_SAMPLE_STEPS = 200;

export interface StepSamples {
  step: number;
  samples: RolloutSample[];
}

/** What the worker reported about the backend; page-level, survives Reset. */
export interface EngineState {
  report: BackendReport | null;
  probe: ProbeOutcome | null;
  /** An ignored ?backend= value, in words. */
  warning: string | null;
  /** Set when the WebGPU device was lost and the worker chose a backend again. */
  deviceLost: string | null;
  /** The backend choice by measurement: in progress, measured or remembered (null: none yet). */
  measurement: Omit<Extract<WorkerEvent, { type: 'measurement' }>, 'type'> | null;
}

export function initialEngineState(): EngineState {
  return { report: null, probe: null, warning: null, deviceLost: null, measurement: null };
}

export interface RunState {
  /** Id of the run the page is showing; 0 = none started. */
  runId: number;
  /** The spec the worker is running (a snapshot taken at Start). */
  spec: ExperimentSpec | null;
  phase: RunPhase;
  /** Confirmed by the worker: nothing is computing. */
  paused: boolean;
  /** The user asked to pause; the step in flight is still finishing. */
  pauseRequested: boolean;
  /** A single step was asked for and has not arrived yet. */
  stepRequested: boolean;
  /** Last RL step the worker says it posted (its 'state' events), to wait on the worker's word. */
  workerStep: number;
  /** Paused for good by a non-finite number (the worker refuses Resume and Step). */
  halted: boolean;
  /**
   * The WebGPU device was lost during this run and the worker rebuilt it from the checkpoint of
   * `fromStep` (null: from the start); `lostAtStep`: the last step shown before (dropped after fromStep).
   */
  recovery: { fromStep: number | null; lostAtStep: number | null } | null;
  /** The training worker died during this run (at the step given): it can be resumed from its saved checkpoint. */
  workerDied: { atStep: number | null } | null;
  /** `miss`: a warm start's miss with its measured cause (a seed block picks the next member from it: seedRuns.ts). */
  error: { message: string; hint: string; miss?: MeasuredMiss } | null;
  warm: WarmProgress | null;
  /** The warm start's validation curves, one per member that reported one (a trained warm start with a target). */
  warmCurves: readonly WarmCurve[];
  /** Where the seconds from Start to the first RL step went (StartupTimeline); null before a Start. */
  startup: StartupTimeline | null;
  members: MemberInfo[];
  base: BaseEvaluation[];
  baseKappa: Extract<RunnerEvent, { type: 'base' }>['baseKappa'];
  /** Last RL step received and the run's total. */
  step: number | null;
  steps: number;
  stepsReceived: number;
  /** Chart columns, mutated in place; `version` changes whenever they do. */
  series: RunSeries;
  version: number;
  samples: StepSamples[];
  recent: StepCost[];
  /** Page-clock times (ms) at which the last RL steps arrived: this machine's pace, for the time left. */
  arrivals: number[];
  /** Live from the 'base' event on (history, collapse steps); the runner's own at 'done'. */
  summary: RunSummary | null;
  /**
   * The runner stopped because a number became NaN or infinite at this step (its 'step' never
   * came): the event, with its explanation for the page (RunStatus) and its step for the charts.
   */
  halt: Extract<RunnerEvent, { type: 'nonfinite' }> | null;
}

export function initialRunState(): RunState {
  return {
    runId: 0,
    spec: null,
    phase: 'idle',
    paused: false,
    pauseRequested: false,
    stepRequested: false,
    workerStep: 0,
    halted: false,
    recovery: null,
    workerDied: null,
    error: null,
    warm: null,
    warmCurves: [],
    startup: null,
    members: [],
    base: [],
    baseKappa: [],
    step: null,
    steps: 0,
    stepsReceived: 0,
    series: emptySeries(),
    version: 0,
    samples: [],
    recent: [],
    arrivals: [],
    summary: null,
    halt: null,
  };
}

/**
 * The state right after Start: a fresh run with the given id and spec. `pressed`: when Start was
 * pressed (page clock) and how long after the page opened, which begins the start-up timeline; a
 * run replayed from a record has none.
 */
export function startedRunState(runId: number, spec: ExperimentSpec, pressed?: { now: number; openToStartMs: number | null }): RunState {
  const startup = pressed ? { openToStartMs: pressed.openToStartMs, startedAt: pressed.now, marks: [] } : null;
  return { ...initialRunState(), runId, spec, phase: 'preparing', steps: spec.steps, startup };
}

function reduceRunnerEvent(run: RunState, ev: RunnerEvent, now: number): RunState {
  switch (ev.type) {
    case 'warmstart': {
      const memberSteps = run.spec?.members.map((m) => m.warmStartSteps);
      return {
        ...run,
        warm: nextWarmProgress(run.warm, ev, now, memberSteps),
        warmCurves: nextWarmCurves(run.warmCurves, ev),
        startup: markStartup(run.startup, 'warm', now),
      };
    }
    case 'base': {
      // The run summary, kept live by the fold the runner and the CLI use (core/experiment/summary.ts).
      const summary = run.spec ? foldEvent(emptySummary(run.spec, ''), ev, run.spec) : null;
      return { ...run, members: ev.members, base: ev.base, baseKappa: ev.baseKappa, summary, version: run.version + 1, startup: markStartup(run.startup, 'base', now) };
    }
    case 'step': {
      const appended = appendStep(run.series, ev);
      // In place, like the series columns: the version bump below tells React.
      if (appended && run.summary && run.spec) foldEvent(run.summary, ev, run.spec);
      const samples = ev.samples.length ? [...run.samples, { step: ev.step, samples: ev.samples }] : run.samples;
      return {
        ...run,
        step: ev.step,
        steps: ev.steps,
        startup: markStartup(run.startup, 'step', now),
        stepsReceived: run.stepsReceived + (appended ? 1 : 0),
        stepRequested: false,
        samples: samples.length > MAX_SAMPLE_STEPS ? samples.slice(samples.length - MAX_SAMPLE_STEPS) : samples,
        recent: [...run.recent, { stepMs: ev.stepMs, tokens: ev.tokens }].slice(-RATE_WINDOW),
        arrivals: appended ? [...run.arrivals, now].slice(-(RATE_WINDOW + 1)) : run.arrivals,
        version: run.version + 1,
      };
    }
    case 'nonfinite':
      // In place, like 'step': the summary records where the run stopped, with none of the step's numbers.
      if (run.summary && run.spec) foldEvent(run.summary, ev, run.spec);
      return { ...run, halt: ev, stepRequested: false, version: run.version + 1 };
    case 'done':
      return { ...run, summary: ev.summary, version: run.version + 1 };
    default:
      return run;
  }
}

/** Fold a backend or measurement event into the engine state. */
export function reduceEngineEvent(engine: EngineState, ev: WorkerEvent): EngineState {
  if (ev.type === 'measurement') {
    const { type: _, ...measurement } = ev;
    return { ...engine, measurement };
  }
  if (ev.type !== 'backend') return engine;
  return { ...engine, report: ev.report, probe: ev.probe, warning: ev.warning, deviceLost: ev.deviceLost ?? engine.deviceLost };
}

/**
 * Fold one worker event into the run state (series columns are mutated, the rest is copied).
 * Events of another run are dropped; errors with runId 0 (not about a run) are always shown.
 * The phase comes from the worker's 'state' events only (src/engine/runController.ts): runner
 * events fill the charts, they never move the phase.
 */
export function reduceWorkerEvent(run: RunState, ev: WorkerEvent, now: number): RunState {
  if (ev.type === 'measurement') {
    // A choice made (or reused) while this run prepares is the run's backend phase.
    const chose = ev.status !== 'measuring' && run.phase === 'preparing' && run.runId !== 0;
    return chose ? { ...run, startup: markStartup(run.startup, 'backend', now) } : run;
  }
  if (ev.type === 'backend' || ev.type === 'pong') return run;
  if (ev.runId !== run.runId && !(ev.type === 'error' && ev.runId === 0)) return run;
  switch (ev.type) {
    case 'state':
      return {
        ...run,
        phase: ev.phase,
        paused: ev.paused,
        workerStep: ev.step,
        halted: ev.halted,
        pauseRequested: ev.paused ? false : run.pauseRequested,
        stepRequested: ev.phase === 'rl' || ev.phase === 'warmstart' ? run.stepRequested && !ev.halted : false,
      };
    case 'runner':
      return reduceRunnerEvent(run, ev.event, now);
    case 'error':
      // The worker follows a run's error with its 'error' state; one not about a run moves no phase.
      return { ...run, error: { message: ev.message, hint: ev.hint, ...(ev.miss ? { miss: ev.miss } : {}) }, pauseRequested: false, stepRequested: false };
    default:
      return run;
  }
}

export interface RunSlice {
  engine: EngineState;
  run: RunState;
  /** Begin showing a new run (the controller sends the start command). */
  beginRun(runId: number, spec: ExperimentSpec): void;
  applyWorkerEvents(events: readonly WorkerEvent[], now?: number): void;
  requestPause(): void;
  requestStep(): void;
  markResumed(): void;
  /** An error that did not come from the worker protocol (worker failed to load, bad message). */
  reportPageError(message: string, hint: string): void;
  /** The worker died (trainingWorker.ts): the run ends in error; `atStep` null: no run was going. */
  workerDied(message: string, hint: string, atStep: number | null): void;
  /** Forget the run. runId goes back to 0, so events still in flight from it are dropped. */
  resetRun(): void;
}

export const createRunSlice: LabSlice<RunSlice> = (set) => ({
  engine: initialEngineState(),
  run: initialRunState(),
  beginRun: (runId, spec) =>
    set({ run: startedRunState(runId, spec, { now: Date.now(), openToStartMs: typeof performance === 'undefined' ? null : Math.round(performance.now()) }) }),
  applyWorkerEvents: (events, now = Date.now()) =>
    set((s) => {
      let run = s.run;
      let engine = s.engine;
      for (const ev of events) {
        engine = reduceEngineEvent(engine, ev);
        run = reduceWorkerEvent(run, ev, now);
      }
      return run === s.run && engine === s.engine ? {} : { run, engine };
    }),
  requestPause: () => set((s) => ({ run: { ...s.run, pauseRequested: true } })),
  requestStep: () => set((s) => ({ run: { ...s.run, stepRequested: true } })),
  markResumed: () => set((s) => ({ run: { ...s.run, paused: false, pauseRequested: false } })),
  reportPageError: (message, hint) => set((s) => ({ run: { ...s.run, phase: 'error', error: { message, hint } } })),
  workerDied: (message, hint, atStep) =>
    set((s) => ({
      run: {
        ...s.run,
        phase: s.run.runId !== 0 && atStep !== null ? 'error' : s.run.phase,
        paused: false,
        pauseRequested: false,
        stepRequested: false,
        error: { message, hint },
        workerDied: s.run.runId !== 0 && atStep !== null ? { atStep } : null,
      },
    })),
  resetRun: () => set({ run: initialRunState() }),
});
