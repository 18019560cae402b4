/**
 * The page's side of the worker protocol: owns the training worker, sends commands, and folds
 * the events it posts into the store. Events are batched and applied in an animation frame at most
 * every MIN_FLUSH_MS, so an unthrottled run (hundreds of events a second on wasm) costs a few React
 * commits a second, not one per event or per frame (the page must not take the
 * worker's core). The time each batch costs (store, render and commit) is counted in perf/mainThread.ts.
 *
 * A peer arm across two browsers (class mode's paired rooms; src/engine/protocol.ts): the room
 * client starts a member part with `lab.start({ memberPart: { armId, memberId } })` (or continues
 * one: `lab.continueRun(..., { memberPart })`), registers `lab.setExchangeHandler(handler)`, and
 * relays: each `exchange` request the worker posts (this member's answers of a step and kind; step
 * 0 'eval': the base) goes to the handler, not to the store; the handler sends it through the
 * room and answers with `lab.replyExchange({ runId, step, kind, answers })` once the partner's
 * answers of that step and kind arrive. The worker waits without a time limit: the wait's limit,
 * the "your partner left" message and the resume when the partner returns are the room client's
 * (it knows the room); a Reset (Stop) ends a wait at once. A continued or rebuilt member part asks
 * again for every step after its checkpoint, so the room client keeps (or can fetch again) the
 * partner's answers of the steps since the last checkpoint. A reply the run does not wait for is
 * dropped by the worker; answers of the wrong shape stop the run with words saying what is wrong.
 */
import type { MeasuredMiss } from '../core/experiment/fitMembers';
import { nextFit, resetFitTries } from './run/autoFit';
import { cohortSignature } from '../engine/backendChoice';
import type { ExperimentSpec } from '../core/experiment/spec';
import { type Checkpoint, type ExchangeAnswers, type ExchangeKind, type WorkerCommand, type WorkerEvent, isActivePhase } from '../engine/protocol';
import type { RunState } from './store/runSlice';
import { loadRememberedChoices, rememberChoice } from './backendMemory';
import { useLab } from './store';
import { recordOf, recordWorkerEvents, startRecord } from './store/liveRecord';
import { replayRecord } from './store/record';
import { validationOf } from './controls/validation';
import { addStoreTime } from './perf/mainThread';

/** The least time between two batches folded into the store (and so between two React commits). */
export const MIN_FLUSH_MS = 200;

let worker: Worker | null = null;
let queue: WorkerEvent[] = [];
let scheduled = false;
let lastFlush = -Infinity;
let runCounter = 0;
let backendParam: string | null = null;

/** Follows the runs Start begins and every worker event: the saved runs (src/app/runs/). */
export interface RunObserver {
  /** `memberPart`: a paired seat's member part (saved with the run: it resumes only as one). */
  started(runId: number, spec: ExperimentSpec, memberPart?: MemberPartChoice): void;
  event(ev: WorkerEvent): void;
}
let observer: RunObserver | null = null;

/** A member part's run waits for its partner's answers of `step` and `kind`; `answers`: this member's, to send. */
export type ExchangeRequest = Extract<WorkerEvent, { type: 'exchange' }>;
/** The partner's answers for a request (same runId, step and kind). */
export interface ExchangeReply {
  runId: number;
  step: number;
  kind: ExchangeKind;
  answers: ExchangeAnswers;
}
/** The member part of the spec's peer arm this browser trains (class mode's paired rooms). */
export interface MemberPartChoice {
  armId: string;
  memberId: string;
}
let exchangeHandler: ((req: ExchangeRequest) => void) | null = null;

export function observeRuns(o: RunObserver | null): void {
  observer = o;
}

/** Tell the observer; a failure there (saving) must never disturb the run. */
function observe(call: (o: RunObserver) => void): void {
  if (!observer) return;
  try {
    call(observer);
  } catch (e) {
    console.error('Cohort Lab: the saved-runs observer failed', e);
  }
}

/** Others that follow the worker's events as the store gets them (class mode streams a seat's run: src/app/room/). */
export type WorkerEventTap = (events: readonly WorkerEvent[]) => void;
const taps = new Set<WorkerEventTap>();

export function tapWorkerEvents(tap: WorkerEventTap): () => void {
  taps.add(tap);
  return () => taps.delete(tap);
}

function flush(): void {
  scheduled = false;
  if (queue.length === 0) return;
  const batch = queue;
  queue = [];
  const t0 = performance.now();
  lastFlush = t0;
  const steps = batch.filter((ev) => ev.type === 'runner' && ev.event.type === 'step').length;
  // React renders and commits a store change in a microtask queued by the change: this one runs after it.
  queueMicrotask(() => addStoreTime(performance.now() - t0, steps));
  // A 'recovered' event cuts the batch: what came before it is folded, then the charts are rebuilt.
  let from = 0;
  batch.forEach((ev, i) => {
    if (ev.type !== 'recovered') return;
    apply(batch.slice(from, i + 1));
    showRecovered(ev);
    from = i + 1;
  });
  apply(batch.slice(from));
}

function apply(events: WorkerEvent[]): void {
  if (events.length === 0) return;
  recordWorkerEvents(events);
  for (const tap of taps) {
    try {
      tap(events);
    } catch (e) {
      console.error('Cohort Lab: a follower of the run failed', e);
    }
  }
  useLab.getState().applyWorkerEvents(events);
}

/**
 * The worker rebuilt the run after a lost device from the checkpoint of `fromStep`: show the run
 * as it was at that step (the record already dropped what came after; liveRecord.ts) and say so.
 */
function showRecovered(ev: Extract<WorkerEvent, { type: 'recovered' }>): void {
  const s = useLab.getState();
  const shown = recordOf(ev.runId);
  if (s.run.runId !== ev.runId || !shown) return;
  const replayed = replayRecord(shown.record, ev.runId);
  const live = s.run;
  useLab.setState({
    run: {
      ...replayed,
      spec: live.spec,
      phase: live.phase,
      paused: live.paused,
      pauseRequested: live.pauseRequested,
      workerStep: ev.fromStep ?? 0,
      warm: live.warm,
      recovery: { fromStep: ev.fromStep, lostAtStep: live.step },
    },
  });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  const wait = Math.max(0, lastFlush + MIN_FLUSH_MS - performance.now());
  // rAF pauses in background tabs; the second timer keeps the store current there.
  setTimeout(() => requestAnimationFrame(flush), wait);
  setTimeout(flush, wait + 250);
}

function send(cmd: WorkerCommand): void {
  worker?.postMessage(cmd);
}

/** ?backend=... from the page URL (untrusted: the worker validates it). */
export function backendFromUrl(search = window.location.search): string | null {
  const v = new URLSearchParams(search).get('backend');
  return v ? v.slice(0, 40) : null;
}

/** ?workers=N from the page URL: the training pool's size (untrusted: the worker validates it). */
function workersFromUrl(search = window.location.search): string | null {
  return new URLSearchParams(search).get('workers')?.slice(0, 8) ?? null;
}

/** Start the worker and choose the backend. Returns the cleanup for React's effect. */
export function connectTrainingWorker(param: string | null): () => void {
  backendParam = param;
  let w: Worker;
  try {
    w = new Worker(new URL('../engine/training.worker.ts', import.meta.url), { type: 'module' });
  } catch (e) {
    useLab.getState().reportPageError(`Could not start the training worker: ${e instanceof Error ? e.message : String(e)}`, 'This browser may not support module workers. Use a current Chrome, Edge or Firefox.');
    return () => {};
  }
  worker = w;
  w.onmessage = (event: MessageEvent<WorkerEvent>) => {
    const ev = event.data;
    // A measured backend choice is remembered for this device and cohort shape (the worker has no
    // localStorage), so the next visit does not measure again.
    if (ev.type === 'measurement' && ev.status === 'measured' && ev.chosen && ev.measuredAt != null) {
      rememberChoice({ key: ev.key, chosen: ev.chosen, reason: ev.reason ?? '', rows: ev.rows, measuredAt: ev.measuredAt });
    }
    if (ev.type === 'pong') {
      if (stuckWatch?.id === ev.id) {
        clearTimeout(stuckWatch.timer);
        stuckWatch = null;
      }
      return;
    }
    if (ev.type === 'exchange') {
      // For the room client only (lab.setExchangeHandler): neither the store nor the saved run.
      try {
        exchangeHandler?.(ev);
      } catch (e) {
        console.error('Cohort Lab: the exchange handler failed', e);
      }
      return;
    }
    observe((o) => o.event(ev));
    fitAfterMiss(ev);
    if (ev.type === 'checkpoint') return; // for saving only: the store has no use for weights
    queue.push(ev);
    schedule();
  };
  w.onerror = (event) => {
    event.preventDefault();
    workerDied(w, event.message || 'it could not be loaded', param);
  };
  w.onmessageerror = () => {
    useLab.getState().reportPageError('A message from the training worker could not be read.', 'Reload the page.');
  };
  // The experiment on screen (a shared link is already applied): its remembered choice, if any.
  const v = validationOf(useLab.getState().draft);
  send({ type: 'prepare', backend: param, workers: workersFromUrl(), remembered: loadRememberedChoices(), signature: v.ok ? cohortSignature(v.spec) : null });
  send({ type: 'setSpeed', stepsPerSecond: useLab.getState().ui.stepsPerSecond });
  return () => {
    w.terminate();
    if (worker === w) worker = null;
    queue = [];
  };
}

/**
 * The worker died (an uncaught error or running out of memory inside it: its state is unknown, so
 * it is not trusted again). The page says so, the saved run is marked stopped with the reason (its
 * last checkpoint is already saved), and a fresh worker is started so that run can be resumed.
 */
function workerDied(w: Worker, detail: string, param: string | null): void {
  if (worker !== w) return;
  w.terminate();
  worker = null;
  flush();
  const s = useLab.getState();
  const { runId, phase, workerStep, step } = s.run;
  const message = `The training worker stopped: ${detail}`;
  if (runId !== 0 && isActivePhase(phase)) {
    const hint = 'Your run is saved up to its last checkpoint: press Resume to continue it from there. If it happens again, make the run smaller or open the page with ?backend=wasm.';
    observe((o) => o.event({ type: 'error', runId, message, hint }));
    observe((o) => o.event({ type: 'state', runId, phase: 'stopped', paused: false, step: workerStep, halted: false }));
    s.workerDied(message, hint, step ?? 0);
  } else {
    s.workerDied(message, 'A fresh worker was started. If it happens again, reload the page or open it with ?backend=wasm.', null);
  }
  connectTrainingWorker(param);
}

/** How long a worker told to stop may take to answer a ping before it is taken as stuck and ended. */
export const STUCK_AFTER_MS = 5000;
let pings = 0;
let stuckWatch: { id: number; timer: ReturnType<typeof setTimeout> } | null = null;

function watchForStuckWorker(): void {
  const w = worker;
  if (!w) return;
  if (stuckWatch) clearTimeout(stuckWatch.timer);
  const id = ++pings;
  stuckWatch = {
    id,
    timer: setTimeout(() => {
      if (stuckWatch?.id !== id || worker !== w) return;
      stuckWatch = null;
      w.terminate();
      worker = null;
      queue = [];
      connectTrainingWorker(backendParam);
    }, STUCK_AFTER_MS),
  };
  send({ type: 'ping', id });
}

// ---- members the lab picks after a measured miss (run/autoFit.ts) --------------------------------

/** The run a miss may refit (a plain Start's), and the miss its error reported. */
let fitRun: number | null = null;
let pendingMiss: { runId: number; miss: MeasuredMiss } | null = null;

/**
 * A plain run of a task of one's own that stopped on a measured miss a member can answer starts
 * again with that member, once its 'error' state has arrived (the worker is then idle).
 */
function fitAfterMiss(ev: WorkerEvent): void {
  if (ev.type === 'error' && ev.miss && ev.runId === fitRun) pendingMiss = { runId: ev.runId, miss: ev.miss };
  if (ev.type !== 'state' || ev.phase !== 'error' || pendingMiss?.runId !== ev.runId) return;
  const { miss } = pendingMiss;
  pendingMiss = null;
  const next = nextFit(useLab.getState().draft, miss);
  if (!next) return;
  // The store shows the miss first; the next run begins after the events already queued.
  setTimeout(() => {
    const now = useLab.getState();
    now.setFitNotes([...now.ui.fitNotes, next.note]);
    now.editDraft(() => next.spec);
    lab.start({ fitting: true });
  }, 0);
}

/** What the run bar's buttons do. */
export const lab = {
  /**
   * Start the draft; returns false (and does nothing) when the draft is invalid. `seed` runs it
   * with that experiment seed (one seed of "Run N seeds", seedRuns.ts); a plain Start forgets the
   * seeds of an earlier "Run N seeds".
   */
  start(opts: { seed?: number; memberPart?: MemberPartChoice; fitting?: boolean } = {}): boolean {
    const s = useLab.getState();
    const v = validationOf(s.draft);
    if (!v.ok || !worker) return false;
    if (!opts.fitting && opts.seed === undefined) {
      resetFitTries();
      if (s.ui.fitNotes.length) s.setFitNotes([]);
    }
    const spec = opts.seed === undefined ? v.spec : { ...v.spec, seed: opts.seed };
    if (opts.seed === undefined) s.clearSeeds();
    flush();
    const runId = ++runCounter;
    // Only a plain Start is refitted after a miss: a block of seeds or a seat keeps its members.
    fitRun = opts.seed === undefined && !opts.memberPart ? runId : null;
    s.beginRun(runId, spec);
    startRecord(runId, spec, s.engine.report?.backend ?? null, s.presetId);
    s.selectInspectorStep(null);
    observe((o) => o.started(runId, spec, opts.memberPart));
    send({ type: 'start', runId, spec, backend: backendParam, remembered: loadRememberedChoices(), ...memberPartOf(opts) });
    return true;
  },
  /**
   * Continue a saved run: show `shown` (its saved events replayed, up to the checkpoint's step)
   * and train on from `checkpoint` (none: from the start). `attach(runId)` is called before the
   * worker is told, so whoever saves the run sees all of its events. False when no worker runs.
   */
  continueRun(shown: RunState, checkpoint: Checkpoint | null, attach: (runId: number) => void, opts: { memberPart?: MemberPartChoice } = {}): boolean {
    if (!worker || !shown.spec) return false;
    const spec = shown.spec;
    flush();
    const runId = ++runCounter;
    useLab.setState({ run: { ...shown, runId, phase: 'preparing', paused: false, pauseRequested: false, stepRequested: false, error: null } });
    useLab.getState().selectInspectorStep(null);
    attach(runId);
    send({ type: 'start', runId, spec, backend: backendParam, remembered: loadRememberedChoices(), checkpoint: checkpoint ?? undefined, ...memberPartOf(opts) });
    return true;
  },
  /** Show a run that is not training (a saved one, replayed); events of an older run are dropped. */
  showRun(shown: RunState): void {
    flush();
    useLab.setState({ run: { ...shown, runId: ++runCounter } });
    useLab.getState().selectInspectorStep(null);
  },
  pause(): void {
    useLab.getState().requestPause();
    send({ type: 'pause' });
  },
  resume(): void {
    useLab.getState().markResumed();
    send({ type: 'resume' });
  },
  step(): void {
    useLab.getState().requestStep();
    send({ type: 'step' });
  },
  /** Stop the run and keep what it drew ('stopped'; a paired seat's run whose partner can no longer answer). */
  stop(): void {
    send({ type: 'stop' });
  },
  /**
   * Stop the run and clear everything it drew (the rest of a "Run N seeds" is cancelled). A worker
   * that does not answer within STUCK_AFTER_MS (held by a computation that never yields) is ended
   * and a fresh one started, so nothing the run began keeps a core busy, and the next Start runs.
   */
  reset(): void {
    const wasActive = isActivePhase(useLab.getState().run.phase);
    send({ type: 'stop' });
    if (wasActive) watchForStuckWorker();
    queue = [];
    useLab.getState().clearSeeds();
    useLab.getState().resetRun();
    useLab.getState().selectInspectorStep(null);
  },
  setSpeed(stepsPerSecond: number | null): void {
    useLab.getState().setStepsPerSecond(stepsPerSecond);
    send({ type: 'setSpeed', stepsPerSecond });
  },
  /** Who relays a member part's exchanges (the room client); null: nobody (requests are dropped). */
  setExchangeHandler(handler: ((req: ExchangeRequest) => void) | null): void {
    exchangeHandler = handler;
  },
  /** The partner's answers for the worker's exchange request of the same run, step and kind. */
  replyExchange(reply: ExchangeReply): void {
    send({ type: 'exchange-reply', runId: reply.runId, step: reply.step, kind: reply.kind, answers: reply.answers });
  },
};

/** A start's member part (none: the whole run). */
const memberPartOf = (opts: { memberPart?: MemberPartChoice }) =>
  opts.memberPart ? { memberPart: { armId: opts.memberPart.armId, memberId: opts.memberPart.memberId } } : {};
