import { describe, expect, it } from 'vitest';
import { summariseTrace } from './trace-profile';

// A worker thread (pid 1, tid 7) with a call tree root -> step -> readSync, sampled 5 times over
// two chunks; the main thread (tid 2) idles. Deltas are the microseconds before each sample.
const frame = (functionName: string, url = '') => ({ functionName, url });
const trace = {
  traceEvents: [
    { name: 'thread_name', ph: 'M', pid: 1, tid: 7, args: { name: 'DedicatedWorker thread' } },
    { name: 'thread_name', ph: 'M', pid: 1, tid: 2, args: { name: 'CrRendererMain' } },
    { name: 'Profile', ph: 'P', pid: 1, tid: 7, id: '0x1' },
    { name: 'Profile', ph: 'P', pid: 1, tid: 2, id: '0x2' },
    {
      name: 'ProfileChunk',
      ph: 'P',
      pid: 1,
      tid: 9,
      id: '0x1',
      args: {
        data: {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: frame('(root)') },
              { id: 2, parent: 1, callFrame: frame('step', 'http://x/assets/worker-abc.js') },
              { id: 3, parent: 2, callFrame: frame('readSync', 'http://x/assets/worker-abc.js?v=1') },
            ],
            samples: [2, 3, 3],
          },
          timeDeltas: [0, 1000, 2000],
        },
      },
    },
    {
      name: 'ProfileChunk',
      ph: 'P',
      pid: 1,
      tid: 9,
      id: '0x1',
      args: { data: { cpuProfile: { nodes: [{ id: 4, parent: 1, callFrame: frame('(idle)') }], samples: [4, 2] }, timeDeltas: [3000, 4000] } },
    },
    {
      name: 'ProfileChunk',
      ph: 'P',
      pid: 1,
      tid: 9,
      id: '0x2',
      args: { data: { cpuProfile: { nodes: [{ id: 1, callFrame: frame('(idle)') }], samples: [1, 1] }, timeDeltas: [0, 500] } },
    },
  ],
};

describe('summariseTrace', () => {
  it('gives each sample the gap to the next one, per thread, with names from the metadata', () => {
    const [worker, main] = summariseTrace(trace, ['step', 'readSync']);
    expect(worker.thread).toBe('DedicatedWorker thread');
    // Samples step, readSync, readSync, (idle), step; gaps 1, 2, 3, 4 ms; the last has none.
    expect(worker.totalMs).toBe(10);
    expect(worker.idleMs).toBe(4);
    expect(worker.self).toEqual([
      { fn: 'readSync (worker-abc.js)', ms: 5 },
      { fn: '(idle)', ms: 4 },
      { fn: 'step (worker-abc.js)', ms: 1 },
    ]);
    // step is on the stack of the readSync samples too.
    expect(worker.inclusive).toEqual({ step: 6, readSync: 5 });
    expect(main).toMatchObject({ thread: 'CrRendererMain', totalMs: 0.5, idleMs: 0.5 });
  });

  it('accepts a bare event array and a trace without profiles', () => {
    expect(summariseTrace([])).toEqual([]);
    expect(summariseTrace(trace.traceEvents).length).toBe(2);
  });
});
