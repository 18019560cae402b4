/**
 * The run driver: carries out the run controller's effects (runController.ts) with what it is
 * given — the run, a clock, `post` and a way to rebuild the run after a lost device — and feeds
 * their outcomes back as inputs. All the rules live in the controller; this file only executes.
 * Injected, so runDriver.test.ts drives it with a fake run and a fake clock.
 */
import type { MeasuredMiss } from '../core/experiment/fitMembers';
import type { ExperimentRun, Checkpoint } from '../core/experiment/runner';
import type { RunnerEvent } from '../core/experiment/events';
import type { CheckpointReason, WorkerEvent } from './protocol';
import {
  type ControllerCommand,
  type ControllerEffect,
  type ControllerInput,
  type RunControllerState,
  isEnded,
  startRun,
  transition,
} from './runController';

/** A warm-start miss's member and measured cause (WarmStartMissError.measuredCause), for the page to pick the next member. */
export function measuredMissOf(e: unknown): MeasuredMiss | undefined {
  if (!(e instanceof Error) || e.name !== 'WarmStartMissError') return undefined;
  const x = e as Error & { memberId?: unknown; measuredCause?: { id?: unknown } };
  return typeof x.memberId === 'string' && typeof x.measuredCause?.id === 'string' ? { memberId: x.memberId, cause: x.measuredCause.id as MeasuredMiss['cause'] } : undefined;
}

export interface RunDriverDeps {
  post(event: WorkerEvent): void;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** A macrotask tick (before each pull, so commands queued meanwhile are seen first). */
  tick(): Promise<void>;
  /** What to tell the user about an error, in plain words. */
  hint(message: string): string;
  errorText(e: unknown): string;
  /**
   * A pull failed: was it because the device was lost? Resolves with the loss's message (the
   * driver rebuilds the run) or null (the run fails with the error).
   */
  deviceLostBehind(error: unknown): Promise<string | null>;
  /** After a device loss: prepare a backend again and build the run anew from `from` (null: the start). */
  rebuild(from: Checkpoint | null): Promise<ExperimentRun>;
  warn?(message: string): void;
}

export class RunDriver {
  private state: RunControllerState;
  private run: ExperimentRun;
  private events: AsyncGenerator<RunnerEvent, void, void>;
  /** Resolves once the run is disposed and its generator closed (it holds no tensors any more). */
  readonly finished: Promise<void>;
  private markFinished!: () => void;
  private releasedFlag = false;

  constructor(
    private readonly deps: RunDriverDeps,
    readonly runId: number,
    run: ExperimentRun,
    opts: { steps: number; paused?: boolean; checkpoint?: Checkpoint | null; stepsPerSecond?: number | null },
  ) {
    this.run = run;
    this.events = run.events();
    this.finished = new Promise((r) => (this.markFinished = r));
    const t = startRun(runId, opts.steps, opts);
    this.state = t.state;
    this.execute(t.effects);
  }

  get released(): boolean {
    return this.releasedFlag;
  }

  get ended(): boolean {
    return this.state.disposed || isEnded(this.state.phase);
  }

  /** The controller's state (read-only; for tests and the worker's bookkeeping). */
  get snapshot(): Readonly<RunControllerState> {
    return this.state;
  }

  command(cmd: ControllerCommand): void {
    this.input(cmd);
  }

  deviceLost(message: string): void {
    this.input({ type: 'deviceLost', message });
  }

  private input(input: ControllerInput): void {
    const t = transition(this.state, input, this.deps.now());
    this.state = t.state;
    this.execute(t.effects);
  }

  private execute(effects: ControllerEffect[]): void {
    for (const e of effects) {
      switch (e.type) {
        case 'post':
          this.deps.post(e.event);
          break;
        case 'tick':
          void this.deps.tick().then(() => this.input({ type: 'ticked', generation: e.generation }));
          break;
        case 'pull':
          void this.pull(e.generation);
          break;
        case 'checkpoint':
          void this.checkpoint(e.generation, e.reason);
          break;
        case 'wait':
          void this.deps.sleep(e.ms).then(() => this.input({ type: 'waited', generation: e.generation, now: this.deps.now() }));
          break;
        case 'recover':
          void this.recover(e.generation, e.from);
          break;
        case 'dispose':
          void this.dispose(this.run, this.events).then(() => {
            this.releasedFlag = true;
            this.markFinished();
          });
          break;
      }
    }
  }

  private async pull(generation: number): Promise<void> {
    const events = this.events;
    let r: IteratorResult<RunnerEvent, void>;
    try {
      r = await events.next();
    } catch (e) {
      if (generation !== this.state.generation) return; // the lost run, already replaced
      const lost = await this.deps.deviceLostBehind(e);
      if (lost !== null) return this.input({ type: 'deviceLost', message: lost });
      const message = this.deps.errorText(e);
      const miss = measuredMissOf(e);
      return this.input({ type: 'pullFailed', generation, message, hint: this.deps.hint(message), ...(miss ? { miss } : {}) });
    }
    this.input({ type: 'pulled', generation, event: r.done ? null : r.value, now: this.deps.now() });
  }

  private async checkpoint(generation: number, reason: CheckpointReason): Promise<void> {
    let checkpoint: Checkpoint | null = null;
    try {
      checkpoint = await this.run.checkpoint();
    } catch (e) {
      this.deps.warn?.(`Cohort Lab: no checkpoint at step ${this.state.postedStep}: ${this.deps.errorText(e)}`);
    }
    this.input({ type: 'checkpointed', generation, reason, checkpoint });
  }

  private async recover(generation: number, from: Checkpoint | null): Promise<void> {
    // A pull of the lost run may never settle, and an async generator queues return() behind a
    // running next(): free the tensors now and let the generator close whenever it can.
    try {
      this.run.dispose();
    } catch {
      /* tensors of a lost device */
    }
    this.events.return(undefined).catch(() => {});
    try {
      const run = await this.deps.rebuild(from);
      this.run = run;
      this.events = run.events();
      this.input({ type: 'recovered', generation });
    } catch (e) {
      const message = this.deps.errorText(e);
      this.input({ type: 'recoveryFailed', generation, message, hint: this.deps.hint(message) });
    }
  }

  /** Close the generator and free the run's tensors; errors (e.g. a lost device's) are expected. */
  private async dispose(run: ExperimentRun, events: AsyncGenerator<RunnerEvent, void, void>): Promise<void> {
    try {
      await events.return(undefined);
    } catch {
      /* the generator may have failed already */
    }
    try {
      run.dispose();
    } catch {
      /* e.g. tensors already gone after a device loss */
    }
  }
}
