/** The messages of the page's task-check worker (taskCheck.worker.ts; the page's side: src/app/taskCheck.ts). */
import type { CheckSummary, TaskDefinition } from '../core/tasks/custom/index';

/** Definitions to check, or a run file's text whose definitions are found and checked in the worker. */
export type TaskCheckRequest = { id: number; defs: unknown[] } | { id: number; text: string };

/** Each definition checked, with its outcome as plain data (adoptCheck takes it as the page's). */
export interface TaskCheckReply {
  id: number;
  checked: { def: TaskDefinition; summary: CheckSummary }[];
}
