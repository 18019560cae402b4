/**
 * The worker's check of a checkpoint the page hands back in `start` (protocol.ts): it came from
 * IndexedDB, so before the runner restores weights from it, it must be of this format, of this
 * very experiment, at a step the experiment has, and of its members' shapes. The check is the
 * runner's own (src/core/experiment/checkpointShapes.ts readCheckpoint, which restore() runs
 * again): asked here first, the refusal reaches the page before a backend is prepared.
 */
import type { Checkpoint } from '../core/experiment/runner';
import { readCheckpoint } from '../core/experiment/checkpointShapes';
import type { ExperimentSpec } from '../core/experiment/spec';
import { memberLayout, type MemberSeat } from '../core/experiment/memberParts';

/**
 * Why `cp` cannot continue a run of `spec`, in words (null: it can). A member part's run
 * (`memberPart`: its seat was checked) continues only from a checkpoint of that member part.
 */
export function checkpointProblem(spec: ExperimentSpec, cp: Checkpoint, memberPart?: MemberSeat): string | null {
  const read = readCheckpoint(spec, cp, undefined, memberPart ? memberLayout(spec, memberPart).scope : undefined);
  return read.ok ? null : read.problem;
}
