/**
 * The training worker as a worker of the page's pool (workerPool.ts): a training worker whose
 * first message is a part's `open` serves that part (partRpc.ts) instead of a page. The pool's
 * workers run the training worker's own script, so the browser loads no second bundle of tfjs.
 * Each starts the backend the pooling worker chose and reads the same stored warm starts.
 */
import { defaultLimits } from '../core/experiment/budget';
import type { WarmStartCache } from '../core/experiment/warmStartCache';
import { useBackend, type BackendName } from './backend';
import { servePart, type PartCommand, type PartReply } from './partRpc';

/** Is this message a pool's command (not the page's)? */
export function isPartCommand(x: unknown): x is PartCommand {
  const t = typeof x === 'object' && x !== null ? (x as { type?: unknown }).type : null;
  return t === 'open' || t === 'next' || t === 'checkpoint';
}

/** Serve one part: returns what to call with each command that arrives. */
export function startPartServer(post: (r: PartReply) => void, warmStartCache: WarmStartCache): (cmd: PartCommand) => void {
  let handle: (cmd: PartCommand) => void = () => {};
  servePart(
    { post, listen: (command) => (handle = command) },
    {
      init: async (backend) => (await useBackend(backend as BackendName)).backend,
      runOptions: (backend) => ({ warmStartCache, memoryLimits: defaultLimits(backend) }),
    },
  );
  return handle;
}
