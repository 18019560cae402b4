/**
 * A part of a pooled run (pooledRun.ts) in another worker: the messages, the client (remotePart:
 * a PartHandle that forwards each call) and the server (servePart: runs the part where the worker
 * is). The same code serves a Web Worker (part.worker.ts) and a Node worker thread
 * (cli/experiment/part-worker.ts); each adapts its own message port to PartPort / PartServerPort.
 *
 *   pool -> part   open(spec, part, backend, checkpoint?), next, checkpoint
 *   part -> pool   result(id, value) | failed(id, message, name)
 *
 * One call at a time: the pool awaits each reply before the next call to the same part.
 * Plain data only (structured clone): events, checkpoints (Float32Array weights) and errors as text.
 */
import type { MeasuredMiss } from '../core/experiment/fitMembers';
import { measuredMissOf } from './runDriver';
import type { RunnerEvent } from '../core/experiment/events';
import type { RunPart } from '../core/experiment/parts';
import { createRun, type Checkpoint, type RunOptions } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import type { PartHandle } from './pooledRun';

export interface PartOpen {
  spec: ExperimentSpec;
  part: RunPart;
  /** The backend the pool chose: the part must run on it (a part on another backend fails). */
  backend: string;
  checkpoint?: Checkpoint;
}

export type PartCommand =
  | ({ type: 'open'; id: number } & PartOpen)
  | { type: 'next'; id: number }
  | { type: 'checkpoint'; id: number };

export type PartReply =
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string; name: string; miss?: MeasuredMiss };

/** The pool's side of a part worker's port. `fail`: the worker died (an uncaught error, it exited). */
export interface PartPort {
  post(cmd: PartCommand): void;
  listen(reply: (r: PartReply) => void, fail: (message: string) => void): void;
  terminate(): void;
}

/** An error from a part, with the name its thrower gave it (e.g. WarmStartMissError). */
function remoteError(r: Extract<PartReply, { type: 'failed' }>): Error {
  const e = new Error(r.message);
  e.name = r.name;
  // A warm-start miss keeps its member and measured cause (runDriver.ts measuredMissOf reads them).
  if (r.miss) Object.assign(e, { memberId: r.miss.memberId, measuredCause: { id: r.miss.cause } });
  return e;
}

/** A part in another worker, opened at once (its backend set up, its run created). */
export function remotePart(port: PartPort, open: PartOpen): PartHandle {
  let lastId = 0;
  let dead: Error | null = null;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const failAll = (e: Error) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  port.listen(
    (r) => {
      const p = pending.get(r.id);
      if (!p) return;
      pending.delete(r.id);
      if (r.type === 'result') p.resolve(r.value);
      else p.reject(remoteError(r));
    },
    (message) => failAll(new Error(`a worker of the pool failed: ${message}`)),
  );
  const call = <T>(cmd: Omit<PartCommand, 'id'>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (dead) return reject(dead);
      const id = ++lastId;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      port.post({ ...cmd, id } as PartCommand);
    });
  const opened = call<void>({ type: 'open', ...open });
  let isOpen = false;
  opened.then(
    () => (isOpen = true),
    () => {}, // the next call rethrows it
  );
  // Once open, a call posts its message at once (not a microtask later): the pool pulls the other
  // parts before its own, whose pull runs synchronously for a while (pooledRun.ts).
  const after = <T>(cmd: Omit<PartCommand, 'id'>): Promise<T> => (isOpen ? call<T>(cmd) : opened.then(() => call<T>(cmd)));
  return {
    next: () => after<IteratorResult<RunnerEvent, void>>({ type: 'next' }),
    checkpoint: () => after<Checkpoint>({ type: 'checkpoint' }),
    close: async () => {},
    dispose: () => {
      failAll(new Error('the part was disposed'));
      port.terminate();
    },
  };
}

/** The part worker's side of its port. */
export interface PartServerPort {
  post(r: PartReply): void;
  listen(command: (cmd: PartCommand) => void): void;
}

export interface PartServerDeps {
  /** Start `backend` (no fallback) and say which one runs. */
  init(backend: string): Promise<string>;
  /** Options of the run in this worker: its warm-start cache, its memory limits. */
  runOptions(backend: string): RunOptions;
}

/** Serve one part in this worker: commands are handled one after another, in order. */
export function servePart(port: PartServerPort, deps: PartServerDeps): void {
  let run: ReturnType<typeof createRun> | null = null;
  let events: AsyncGenerator<RunnerEvent, void, void> | null = null;
  let queue = Promise.resolve();
  const handle = async (cmd: PartCommand): Promise<unknown> => {
    if (cmd.type === 'open') {
      const used = await deps.init(cmd.backend);
      if (used !== cmd.backend) throw new Error(`a worker of the pool started ${used}, not ${cmd.backend}`);
      // The spec came as plain data (a resolved experiment holds an Rng and a Task, which do not
      // cross postMessage): createRun resolves it here, the one resolution in this worker.
      run = createRun(cmd.spec, { ...deps.runOptions(used), backend: used, part: cmd.part, checkpoint: cmd.checkpoint });
      events = run.events();
      return null;
    }
    if (!run || !events) throw new Error('the part was not opened');
    if (cmd.type === 'next') {
      const r = await events.next();
      return { done: r.done ?? false, value: r.value };
    }
    return run.checkpoint();
  };
  port.listen((cmd) => {
    queue = queue.then(async () => {
      try {
        port.post({ type: 'result', id: cmd.id, value: await handle(cmd) });
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        const miss = measuredMissOf(err);
        port.post({ type: 'failed', id: cmd.id, message: err.message, name: err.name, ...(miss ? { miss } : {}) });
      }
    });
  });
}
