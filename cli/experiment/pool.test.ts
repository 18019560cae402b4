import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../src/core/testing/fixed-policy';
import { getPreset } from '../../src/core/experiment/presets';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import type { RunSummary } from '../../src/core/experiment/events';
import { runSeed } from './experiment-lib';
import { pooledSeedRun } from './pool';

/** The quick preset (shipped warm starts) for 3 steps: every arm, an evaluation at the end. */
const spec: ExperimentSpec = { ...structuredClone(getPreset('quick')!.spec), steps: 3 };
const timeless = (s: RunSummary) => ({ ...s, medianStepMs: 0 });

describe('the CLI pool (worker_threads, wasm)', () => {
  beforeAll(() => useBackend('wasm'));
  let one: RunSummary;
  beforeAll(async () => {
    one = await runSeed(spec, 'wasm');
  });

  it('trains a seed on 2 threads with the one-thread numbers bit for bit', async () => {
    for (const workers of [2]) {
      expect(timeless(await runSeed(spec, 'wasm', undefined, { workers }))).toEqual(timeless(one));
    }
  });

  it('runs a whole seed in a worker thread with the same numbers', async () => {
    expect(timeless(await runSeed(spec, 'wasm', undefined, { thread: true }))).toEqual(timeless(one));
  });

  it('checkpoints across threads: a pooled run continued from its checkpoint ends as the uninterrupted one', async () => {
    const first = pooledSeedRun(spec, 'wasm', 2);
    let cp;
    for await (const e of first.events()) {
      if (e.type === 'step' && e.step === 1) {
        cp = await first.checkpoint();
        break;
      }
    }
    first.dispose();
    const rest = pooledSeedRun(spec, 'wasm', 3, cp);
    let done: RunSummary | null = null;
    for await (const e of rest.events()) if (e.type === 'done') done = e.summary;
    rest.dispose();
    const { members: _members, ...plain } = one as RunSummary & { members: unknown };
    void _members;
    expect(timeless(done!)).toEqual(timeless(plain));
  });
});
