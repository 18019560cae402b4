/**
 * The worker's check of a checkpoint the page hands back in `start` (protocol.ts): it came from
 * IndexedDB, so before the runner restores weights from it, it must be of this format, of this
 * very experiment, and at a step the experiment has. (The page validates shapes when it reads
 * a saved run: src/app/runs/runData.ts.)
 */
import { sortedJson } from '../core/json';
import { CHECKPOINT_VERSION, type Checkpoint } from '../core/experiment/runner';
import type { ExperimentSpec } from '../core/experiment/spec';

/** Why `cp` cannot continue a run of `spec`, in words (null: it can). */
export function checkpointProblem(spec: ExperimentSpec, cp: Checkpoint): string | null {
  if (cp.version !== CHECKPOINT_VERSION) return `the checkpoint has format ${String(cp.version)}; this page reads ${CHECKPOINT_VERSION}`;
  if (!Number.isInteger(cp.step) || cp.step < 0 || cp.step > spec.steps) return `the checkpoint is at step ${String(cp.step)}, outside 0-${spec.steps}`;
  if (sortedJson(cp.spec) !== sortedJson(spec)) return 'the checkpoint was taken from another experiment';
  return null;
}
