/**
 * The page's task checks, off its main thread: a definition (the editor's, a link's, each run of
 * a run file's) is checked here and its outcome posted back as plain data (checkSummary), which
 * the page adopts (adoptCheck) so its own checks of the same task are lookups. The check is
 * bounded by its work budget (src/core/tasks/custom/cost.ts); the page also gives it a time
 * budget and ends this worker when it runs past it (src/app/taskCheck.ts).
 *
 * In:  { id, defs }   definitions to check
 *      { id, text }   a run file's text: every task definition in it ("task": {"definition": ...}) is checked
 * Out: { id, checked: [{ def, summary }] }
 */
import { parseStrictJson } from '../core/strictJson';
import { checkSummary, type TaskDefinition } from '../core/tasks/custom/index';
import type { TaskCheckReply, TaskCheckRequest } from './taskCheckProtocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/** Task definitions in a parsed run file: every object under "task"."definition", deduplicated by content. */
function definitionsIn(value: unknown): unknown[] {
  const found = new Map<string, unknown>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 12 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'task' && x !== null && typeof x === 'object' && 'definition' in x) {
        const def = (x as { definition: unknown }).definition;
        found.set(JSON.stringify(def), def);
      } else if (k !== 'events') walk(x, depth + 1);
    }
  };
  walk(value, 0);
  return [...found.values()];
}

scope.onmessage = (event: MessageEvent<TaskCheckRequest>) => {
  const req = event.data;
  let defs: unknown[] = [];
  if ('defs' in req) defs = req.defs;
  else {
    const json = parseStrictJson(req.text);
    if (json.ok) defs = definitionsIn(json.value);
  }
  const checked = defs.slice(0, 64).map((def) => ({ def: def as TaskDefinition, summary: checkSummary(def as TaskDefinition) }));
  scope.postMessage({ id: req.id, checked } satisfies TaskCheckReply);
};
