/**
 * Tasks of one's own, checked off the server's event loop. A `create` whose experiment carries a
 * task definition is checked by the task's own rules (src/core/tasks/custom/check.ts: a generator
 * is run on up to 20,000 of its problems), and a generator written to be slow took 12.5 s to check
 * in Node: on the event loop, one such message stopped every class on the server for that long, and
 * could be sent again. So such a frame is parsed whole in a worker thread (taskCheckWorker.ts):
 *   - each check has a budget (limits.taskCheckMs): past it the worker is stopped (terminate()
 *     interrupts running JavaScript) and the create refused in words; a new worker serves the next;
 *   - one check runs at a time, the waiting ones taken from their addresses in turn (round robin),
 *     so one address's checks wait behind each other, not in front of another address's;
 *   - an address has at most limits.taskChecksPerAddress checks waiting or running, and
 *     limits.taskCheckMsPerMinute of checking (limits.ts; charged by the connection), and the server
 *     limits.taskChecksWaiting, beyond which creates are refused at once; the worker's heap is
 *     bounded (256 MiB).
 * Everything else a client sends, a create of a built-in task included, is checked on the event
 * loop as before: FRAME_SHAPE bounds its cost (protocol.ts).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClientMessage, ParsedMessage } from '../src/room/protocol';

export interface TaskCheck {
  parsed: ParsedMessage<ClientMessage>;
  /** Milliseconds the worker spent on it (the budget, when it was stopped). */
  ms: number;
}

interface Job {
  text: string;
  done: (r: TaskCheck) => void;
}

/** A worker thread running taskCheckWorker.ts (through tsx's API: Node 20 applies no `--import tsx` to a worker thread). */
const BOOTSTRAP = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ tsImport }) => tsImport(workerData.file, workerData.file));`;

function checkThread(): Worker {
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const file = new URL('./taskCheckWorker.ts', import.meta.url).href;
  // Its heap bounded too: a worker past it ends, and the check it had is refused (ERR_WORKER_OUT_OF_MEMORY).
  return new Worker(BOOTSTRAP, { eval: true, workerData: { tsx, file }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
}

export interface TaskCheckOptions {
  /** The most ms one check may take. */
  budgetMs: number;
  /** Checks waiting or running for one address at most. */
  perAddress: number;
  /** Checks waiting or running on the whole server at most (each holds its frame: many addresses at once stay bounded). */
  total: number;
  log: (line: string) => void;
}

export class TaskChecks {
  /** Waiting checks by address, in the order the addresses are served (an address served goes to the back). */
  private readonly waiting = new Map<string, Job[]>();
  private readonly held = new Map<string, number>();
  /** Checks waiting or running on the server. */
  private count = 0;
  private worker: Worker | null = null;
  private ready = false;
  private running: { job: Job; address: string; timer: ReturnType<typeof setTimeout>; started: number } | null = null;
  private nextId = 0;
  private closed = false;

  constructor(private readonly opts: TaskCheckOptions) {}

  /** Checks waiting or running for `address`. */
  pending(address: string): number {
    return this.held.get(address) ?? 0;
  }

  /**
   * Check `text` (a create frame with a task of its own) for `address`; or why not, in words, if
   * the address or the server already has its most checks waiting.
   */
  check(address: string, text: string): Promise<TaskCheck> | string {
    if (this.closed) return 'the room server is closing';
    if (this.pending(address) >= this.opts.perAddress) return `At most ${this.opts.perAddress} tasks of one address are checked at a time: wait for the answer to the last.`;
    if (this.count >= this.opts.total) return `The room server has ${this.opts.total} tasks waiting to be checked: try again in a minute.`;
    this.held.set(address, this.pending(address) + 1);
    this.count++;
    return new Promise((resolve) => {
      const done = (r: TaskCheck) => {
        this.count--;
        const n = this.pending(address) - 1;
        if (n > 0) this.held.set(address, n);
        else this.held.delete(address);
        resolve(r);
      };
      const queue = this.waiting.get(address) ?? [];
      queue.push({ text, done });
      this.waiting.set(address, queue);
      this.next();
    });
  }

  /** Start the next waiting check, if the worker is free and ready (starting one if there is none). */
  private next(): void {
    if (this.closed || this.running || this.waiting.size === 0) return;
    if (!this.worker) return this.startWorker();
    if (!this.ready) return;
    const [address, queue] = this.waiting.entries().next().value as [string, Job[]];
    const job = queue.shift()!;
    this.waiting.delete(address);
    if (queue.length > 0) this.waiting.set(address, queue);
    const id = ++this.nextId;
    const worker = this.worker;
    const timer = setTimeout(() => {
      if (this.running?.job !== job) return;
      this.opts.log(`stopped checking a task from ${address} after ${this.opts.budgetMs / 1000} s`);
      this.finish({ parsed: { ok: false, code: 'too-large', message: `its task takes more than ${this.opts.budgetMs / 1000} s to check on this room server: give its rules fewer steps or its variables narrower ranges` }, ms: this.opts.budgetMs });
      this.ready = false;
      this.worker = null;
      void worker.terminate();
      this.next();
    }, this.opts.budgetMs);
    timer.unref?.();
    this.running = { job, address, timer, started: performance.now() };
    worker.postMessage({ id, text: job.text });
  }

  private finish(r: TaskCheck): void {
    const run = this.running;
    if (!run) return;
    clearTimeout(run.timer);
    this.running = null;
    run.job.done(r);
  }

  private startWorker(): void {
    const worker = checkThread();
    this.worker = worker;
    this.ready = false;
    worker.on('message', (m: { ready?: true; parsed?: TaskCheck['parsed']; ms?: number }) => {
      if (this.worker !== worker) return;
      if (m.ready) {
        this.ready = true;
      } else if (m.parsed && this.running) {
        this.finish({ parsed: m.parsed, ms: m.ms ?? performance.now() - this.running.started });
      }
      this.next();
    });
    // A worker that fails (its modules, its memory) fails the check it had; the next check starts another.
    const failed = (why: string) => {
      if (this.worker !== worker) return;
      const started = this.ready;
      this.worker = null;
      this.ready = false;
      this.opts.log(`the task-checking worker ended: ${why}`);
      const refused: TaskCheck = { parsed: { ok: false, code: 'bad-message', message: 'its task could not be checked on this room server (its log says why)' }, ms: 0 };
      this.finish(refused);
      // A worker that never became ready would fail again: the checks waiting are refused, not retried forever.
      if (!started) this.refuseWaiting(refused);
      this.next();
    };
    worker.on('error', (e) => failed(e.message));
    worker.on('exit', (code) => failed(`it exited with code ${code}`));
  }

  private refuseWaiting(r: TaskCheck): void {
    const jobs = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const job of jobs) job.done(r);
  }

  /** Stop the worker; checks waiting are refused. */
  close(): void {
    this.closed = true;
    const refused: TaskCheck = { parsed: { ok: false, code: 'bad-message', message: 'the room server is closing' }, ms: 0 };
    this.finish(refused);
    this.refuseWaiting(refused);
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
  }
}
