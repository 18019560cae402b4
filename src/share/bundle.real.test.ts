/**
 * Run files against the real runner: the events of a tiny run with every reward scheme (null
 * rates of the intrinsic schemes, a teacher, eval steps, the done summary) survive
 * serialize -> parse exactly, so the event schemas accept everything the runner reports.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../core/experiment/events';
import { layered, member } from '../core/experiment/presets';
import { createRun } from '../core/experiment/runner';
import { useBackend } from '../core/testing/fixed-policy';
import { emptyRecord, recordEvent, replayRecord } from '../app/store/record';
import { parseBundle, serializeBundle } from './bundle';

const spec = layered({
  seed: 5,
  task: { id: 'digitsum', difficulty: 3 },
  data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
  members: ['A', 'B', 'C'].map((id) => member({ id, family: 'mlp', dModel: 16, layers: 1, window: 4, warmStartSteps: 10, warmStartExamples: 200 })),
  arms: [
    { id: 'oracle', scheme: 'oracle', members: ['A'] },
    { id: 'self', scheme: 'self', members: ['A', 'B'], tau: 0.3 },
    { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    { id: 'ring', scheme: 'ring', members: ['A', 'B', 'C'] },
    { id: 'teacher', scheme: 'teacher', members: ['B'], teacher: 'A' },
    { id: 'entropy', scheme: 'entropy', members: ['C'] },
    { id: 'certainty', scheme: 'certainty', members: ['B'] },
  ],
  grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 1e-3, beta: 0.05 },
  steps: 3,
  evalEvery: 2,
});

describe('run files of a real run', () => {
  beforeAll(() => useBackend('wasm'));

  it('round-trip every event the runner reports', async () => {
    const run = createRun(spec);
    const record = emptyRecord(spec, 'wasm');
    const events: RunnerEvent[] = [];
    for await (const e of run.events()) {
      events.push(e);
      recordEvent(record, e);
    }
    run.dispose();
    expect(record.events.map((e) => e.type)).toEqual(['base', 'step', 'step', 'step', 'done']);
    const parsed = parseBundle(serializeBundle(record, 'every scheme'));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.bundle.record).toEqual(record);
    expect(replayRecord(parsed.bundle.record, 2)).toEqual(replayRecord(record, 2));
  });
});
