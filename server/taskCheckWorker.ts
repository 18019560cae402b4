/**
 * A worker thread of the room server (taskChecks.ts): checks `create` frames that carry a task of
 * their own (parseClientMessage: the frame's JSON, its shape, the schema and the task's check), so
 * that a check that takes seconds never runs on the server's event loop. Says `ready` once its
 * modules are loaded, then answers each frame with what it parsed and how long that took.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { getPreset } from '../src/core/experiment/presets';
import { ROOM_PROTOCOL_VERSION, parseClientMessage } from '../src/room/protocol';

/** A create of a small task of its own (the quick preset's experiment), checked once before the worker says it is ready. */
const WARM_UP = (() => {
  const spec = getPreset('quick')!.spec;
  const definition = { kind: 'generator', title: 'Warm-up', template: '{a}+{b}=', vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 99 } }, answer: 'a+b', scratchpad: 'digits(a)' };
  return { t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'warm-up', preset: null, spec: { ...spec, task: { ...spec.task, id: 'custom', difficulty: 1, definition } }, baseSeed: 1, pairing: false };
})();

if (!parentPort) throw new Error('server/taskCheckWorker.ts runs as a worker thread of server/taskChecks.ts');
const port = parentPort;

port.on('message', ({ id, text }: { id: number; text: string }) => {
  const t0 = performance.now();
  const parsed = parseClientMessage(text);
  port.postMessage({ id, parsed, ms: performance.now() - t0 });
});
// Ready once warm: the first check compiles the schemas and the task language's code, and that is
// no client's time (a budget of tens of ms would otherwise be spent on it).
parseClientMessage(JSON.stringify(WARM_UP));
port.postMessage({ ready: true });
