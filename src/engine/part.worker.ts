/**
 * A worker of the page's pool (workerPool.ts): serves one part of a pooled run (partRpc.ts) on the
 * backend the training worker chose, with the same stored warm starts (the site's, then IndexedDB).
 */
import { defaultLimits } from '../core/experiment/budget';
import { useBackend, type BackendName } from './backend';
import { servePart, type PartCommand } from './partRpc';
import { browserWarmStartCache } from './warmStartSource';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const warmStartCache = browserWarmStartCache({ baseUrl: `${import.meta.env.BASE_URL}warmstarts/` });

servePart(
  {
    post: (r) => scope.postMessage(r),
    listen: (command) => {
      scope.onmessage = (event: MessageEvent<PartCommand>) => command(event.data);
    },
  },
  {
    init: async (backend) => (await useBackend(backend as BackendName)).backend,
    runOptions: (backend) => ({ warmStartCache, memoryLimits: defaultLimits(backend) }),
  },
);
