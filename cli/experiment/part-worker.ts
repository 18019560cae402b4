/**
 * A Node worker thread of the CLI's pool (cli/experiment/pool.ts): serves one part of a pooled run, or a
 * whole seed (a part with every arm), on the backend the main thread chose (src/engine/partRpc.ts).
 */
import { parentPort } from 'node:worker_threads';
import { defaultLimits } from '../../src/core/experiment/budget';
import { initNodeBackend, type NodeBackendName } from '../../src/engine/node-backend';
import { servePart, type PartCommand } from '../../src/engine/partRpc';
import { nodeWarmStartCache } from '../../src/engine/warmStartNode';

if (!parentPort) throw new Error('cli/experiment/part-worker.ts runs as a worker thread of cli/experiment/pool.ts');
const port = parentPort;

servePart(
  { post: (r) => port.postMessage(r), listen: (command) => port.on('message', (cmd: PartCommand) => command(cmd)) },
  {
    init: async (backend) => (await initNodeBackend(backend as NodeBackendName, { fallback: false })).backend,
    runOptions: (backend) => ({ warmStartCache: nodeWarmStartCache(), memoryLimits: defaultLimits(backend) }),
  },
);
