/**
 * An experiment's problems: its disjoint split (labeled pool, RL pool, held-out) and the B prompts
 * each RL step draws from the RL pool. Pure (no tfjs), so the runner and the exports
 * (src/export/trl) draw exactly the same problems from the same seed.
 */
import { Rng } from '../random';
import { makeSplit, resolveTask, type Split } from '../tasks/index';
import type { Task } from '../tasks/types';
import type { ExperimentSpec } from './spec';

/** The experiment's split, from the stream `split` under the experiment seed (resolve.ts passes its task). */
export function experimentSplit(spec: ExperimentSpec, root: Rng = new Rng(spec.seed), task: Task = resolveTask(spec.task)): Split {
  return makeSplit(task, spec.task.difficulty, root.child('split'), {
    warmStart: spec.data.labeledPool,
    rl: spec.data.rlPool,
    heldOut: spec.data.heldOut,
  });
}

/**
 * Indices into the RL pool of the prompts of RL step `step` (1-based): B uniform draws with
 * replacement from the stream `prompts/<step>`, so a step's prompts depend only on (seed, step).
 */
export function stepPromptIndices(root: Rng, step: number, promptsPerStep: number, poolSize: number): number[] {
  const rng = root.child(`prompts/${step}`);
  return Array.from({ length: promptsPerStep }, () => rng.int(poolSize));
}
