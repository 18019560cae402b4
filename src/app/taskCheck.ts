/**
 * Task checks in a worker (src/engine/taskCheck.worker.ts), so a costly task never holds the
 * page: the editor, a shared link and a run file check their tasks here first, adopt the
 * outcome (adoptCheck), and only then run the synchronous code that reads the task (the spec's
 * validation, the preview), which finds the check already made. The check's own cost is bounded
 * (CHECK_LIMITS.work); the time budget here is the net under it: a worker past CHECK_TIME_LIMIT_MS
 * is ended and the task refused in words. One check at a time: a newer request ends an older
 * one still running (the editor's last edit is the one that matters).
 */
import { adoptCheck, type TaskDefinition } from '../core/tasks/custom/index';
import type { TaskCheckReply, TaskCheckRequest } from '../engine/taskCheckProtocol';

/** The most a check may take in the page before it is stopped and the task refused. */
export const CHECK_TIME_LIMIT_MS = 30_000;

let worker: Worker | null = null;
let nextId = 0;
let pending: { id: number; done: () => void; timer: ReturnType<typeof setTimeout> } | null = null;

function stopWorker(): void {
  worker?.terminate();
  worker = null;
}

function ensureWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('../engine/taskCheck.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (event: MessageEvent<TaskCheckReply>) => {
    const reply = event.data;
    for (const { def, summary } of reply.checked) adoptCheck(def, summary);
    if (pending?.id === reply.id) finish();
  };
  w.onerror = (event) => {
    event.preventDefault();
    // A worker that cannot load leaves the checks to the page's own thread (bounded all the same).
    stopWorker();
    finish();
  };
  worker = w;
  return w;
}

function finish(): void {
  const p = pending;
  pending = null;
  if (!p) return;
  clearTimeout(p.timer);
  p.done();
}

/** Whether the page can run workers at all (tests in Node cannot: the checks then run in place). */
const canUseWorkers = () => typeof Worker !== 'undefined';

function request(body: { defs: unknown[] } | { text: string }, refuseOnTimeout: TaskDefinition[]): Promise<void> {
  if (!canUseWorkers()) return Promise.resolve();
  // A newer request makes the older one moot: its worker stops, its caller goes on (and checks in place if it must).
  if (pending) {
    stopWorker();
    finish();
  }
  return new Promise<void>((resolve) => {
    const id = ++nextId;
    const timer = setTimeout(() => {
      if (pending?.id !== id) return;
      stopWorker();
      const seconds = Math.round(CHECK_TIME_LIMIT_MS / 1000);
      for (const def of refuseOnTimeout) adoptCheck(def, { findings: [{ severity: 'error', message: `checking this task took longer than ${seconds} s, so it was stopped: narrow the variables' ranges or shorten the rules` }] });
      finish();
    }, CHECK_TIME_LIMIT_MS);
    pending = { id, done: resolve, timer };
    ensureWorker().postMessage({ id, ...body } satisfies TaskCheckRequest);
  });
}

/** Check these definitions in the worker and adopt the outcomes; resolves when the page's own checks of them are lookups. */
export function checkTasksOffThread(defs: TaskDefinition[]): Promise<void> {
  return defs.length ? request({ defs }, defs) : Promise.resolve();
}

/** Check every task definition in a run file's text in the worker (the file is parsed there, not here). */
export function checkRunFileTasksOffThread(text: string): Promise<void> {
  return request({ text }, []);
}
