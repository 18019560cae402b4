/**
 * A worker thread of the room server (taskChecks.ts): checks `create` frames that carry a task of
 * their own (parseClientMessage: the frame's JSON, its shape, the schema and the task's check), so
 * that a check that takes seconds never runs on the server's event loop. Says `ready` once its
 * modules are loaded, then answers each frame with what it parsed and how long that took.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { parseClientMessage } from '../src/room/protocol';

if (!parentPort) throw new Error('server/taskCheckWorker.ts runs as a worker thread of server/taskChecks.ts');
const port = parentPort;

port.on('message', ({ id, text }: { id: number; text: string }) => {
  const t0 = performance.now();
  const parsed = parseClientMessage(text);
  port.postMessage({ id, parsed, ms: performance.now() - t0 });
});
port.postMessage({ ready: true });
