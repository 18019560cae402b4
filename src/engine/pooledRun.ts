/**
 * A run on a pool of workers, as one ExperimentRun (the run driver, the CLI and tests drive it
 * like any other). Each part (core/experiment/parts.ts) trains some arms in its own worker; the
 * lead part (parts[0]) also warm-starts every member and evaluates the base, and usually runs in
 * the caller's own thread. Pulled like the runner:
 *
 *   warm start  the lead's 'warmstart' events are yielded; the other parts build their members
 *               meanwhile (their progress is not shown, and a pause holds only the lead's: the
 *               others finish building theirs); the lead's 'base' once all are ready
 *   each step   one pull of every part at once, the events merged (mergeSteps: arms in spec order)
 *   the end     'done' with the pool's summary, folded from the merged events as the runner folds its own
 *
 * checkpoint() merges the parts' checkpoints into one of the whole run; a run continued from it
 * gives every part the whole checkpoint (each restores its own arms). No worker API here: a part
 * is anything that answers PartHandle (localPart below; remote ones: partRpc.ts).
 */
import type { RunnerEvent, RunSummary } from '../core/experiment/events';
import { mergeCheckpoints, mergeSteps } from '../core/experiment/parts';
import { noCheckpointAfter, type Checkpoint, type ExperimentRun } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import { emptySummary, foldEvent } from '../core/experiment/summary';
import { median } from '../core/median';

/** One part of a pooled run, wherever it runs. */
export interface PartHandle {
  /** The part's next runner event (done: its generator ended). */
  next(): Promise<IteratorResult<RunnerEvent, void>>;
  checkpoint(): Promise<Checkpoint>;
  /** Close the part's generator (it is not mid-pull) before dispose. */
  close(): Promise<void>;
  /** Free the part: its tensors, or its worker. */
  dispose(): void;
}

/** A part run in this thread. */
export function localPart(run: ExperimentRun): PartHandle {
  const events = run.events();
  return {
    next: () => events.next(),
    checkpoint: () => run.checkpoint(),
    close: async () => {
      await events.return(undefined).catch(() => {});
    },
    dispose: () => run.dispose(),
  };
}

export interface PoolOptions {
  /** The checkpoint every part was created from (its summary continues). */
  checkpoint?: Checkpoint;
  /** The backend every part uses (for the summary). */
  backend: string;
  now(): number;
}

export function pooledRun(spec: ExperimentSpec, parts: PartHandle[], opts: PoolOptions): ExperimentRun {
  const summary: RunSummary = opts.checkpoint ? structuredClone(opts.checkpoint.summary) : emptySummary(spec, opts.backend);
  const stepTimes: number[] = [];
  let halted: Extract<RunnerEvent, { type: 'nonfinite' }> | null = null;
  let disposed = false;
  const [lead, ...rest] = parts;

  /** Pull a part until its 'base' (its members built), dropping its warm-start progress. */
  async function untilBase(p: PartHandle): Promise<void> {
    for (;;) {
      const r = await p.next();
      if (r.done || r.value.type === 'base') return;
      if (r.value.type !== 'warmstart') throw new Error(`a part of the pool yielded '${r.value.type}' before its base`);
    }
  }

  async function* events(): AsyncGenerator<RunnerEvent, void, void> {
    const others = rest.map(untilBase);
    others.forEach((p) => p.catch(() => {})); // awaited below; a failure surfaces there
    try {
      for (;;) {
        const r = await lead.next();
        if (r.done || disposed) return;
        if (r.value.type === 'warmstart') {
          yield r.value;
          continue;
        }
        if (r.value.type !== 'base') throw new Error(`the lead part yielded '${r.value.type}' before its base`);
        await Promise.all(others);
        if (!opts.checkpoint) foldEvent(summary, r.value, spec);
        yield r.value;
        break;
      }
      while (!disposed) {
        const t0 = opts.now();
        // The other parts first: their pull is a message, while the lead's (in this thread) runs
        // synchronously up to its first readback, and would hold theirs back until then.
        const others = rest.map((p) => p.next());
        const got = await Promise.all([lead.next(), ...others]);
        if (disposed || got.some((r) => r.done)) return;
        const evs = got.map((r) => r.value as RunnerEvent);
        if (evs.every((e) => e.type === 'done')) {
          summary.medianStepMs = median(stepTimes);
          yield { type: 'done', summary: structuredClone(summary) };
          return;
        }
        const merged = mergeSteps(spec, evs, opts.now() - t0);
        foldEvent(summary, merged, spec);
        if (merged.type === 'nonfinite') {
          halted = merged;
          yield merged;
          return;
        }
        stepTimes.push(merged.stepMs);
        summary.medianStepMs = median(stepTimes);
        yield merged;
      }
    } finally {
      await Promise.all(parts.map((p) => p.close()));
    }
  }

  async function checkpoint(): Promise<Checkpoint> {
    if (halted) throw noCheckpointAfter(halted);
    return mergeCheckpoints(spec, await Promise.all(parts.map((p) => p.checkpoint())), summary);
  }

  function dispose(): void {
    disposed = true;
    for (const p of parts) p.dispose();
  }

  return { events, checkpoint, dispose };
}

