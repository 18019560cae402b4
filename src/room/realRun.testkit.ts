/**
 * Test kit for class mode's tests that need a real run (not numbers drawn to look like one): a
 * tiny experiment with a two-member peer arm (pairs, an ensemble, evaluations at steps 2 and 3)
 * trained by the engine in this process on the backend the test picked, and its recorded events
 * as a seat streams them (no rollout samples, through JSON as the wire carries them).
 * (Test code only; the page never loads it.)
 */
import { layered, member } from '../core/experiment/presets';
import { createRun, type RunOptions } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';
import type { RecordedEvent } from '../share/record';

/** Two small MLPs in a peer arm and a third in a self arm; three steps, evaluated at 2 and 3. */
export function tinyRoomSpec(seed = 100): ExperimentSpec {
  const mlp = (id: string) => member({ id, family: 'mlp', dModel: 16, layers: 1, window: 4, warmStartSteps: 20, warmStartExamples: 200 });
  return layered({
    seed,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [mlp('C'), mlp('B'), mlp('A')],
    arms: [
      { id: 'self', scheme: 'self', members: ['C'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    grpo: { promptsPerStep: 3, groupSize: 4, learningRate: 3e-3, beta: 0.05 },
    steps: 3,
    evalEvery: 2,
  });
}

/** A run's recorded events, in order, as the runner yields them (warm-start progress left out). */
export async function recordRun(spec: ExperimentSpec, opts: RunOptions = {}): Promise<RecordedEvent[]> {
  const run = createRun(spec, opts);
  const events: RecordedEvent[] = [];
  try {
    for await (const e of run.events()) if (e.type !== 'warmstart') events.push(e);
  } finally {
    run.dispose();
  }
  return events;
}

/** The events as a seat streams them: no rollout samples, through JSON. */
export function asStreamed(events: readonly RecordedEvent[]): RecordedEvent[] {
  return JSON.parse(JSON.stringify(events.map((e) => (e.type === 'step' ? { ...e, samples: [] } : e)))) as RecordedEvent[];
}
