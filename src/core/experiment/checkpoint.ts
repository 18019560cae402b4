/**
 * Checkpoints: the runner's state between two RL steps as plain data (every copy's weights and
 * Adam moments, the warm-started references, the step, the summary so far). The page keeps the
 * latest one of a run in IndexedDB and hands it back to the worker to continue the run; the
 * runner's restore() rebuilds the run from it (runner.ts).
 *
 * A stored checkpoint is untrusted (an older page, another tab or a hand edit may have written
 * it), so reading one is three checks, all before any tensor exists:
 *   parseCheckpoint          the format: its version (CHECKPOINT_VERSION is written; an older one
 *                            is brought up by CHECKPOINT_MIGRATIONS or refused, a newer one
 *                            refused: src/core/persisted.ts), then every field, weights as long as
 *                            their shapes say, and every weight, moment and summary number finite;
 *   checkpointSpecProblem    of this experiment: the same spec, a step in 0..steps, exactly the
 *                            spec's members and arms, a summary of them up to that step;
 *   checkpointShapeProblem   (checkpointShapes.ts) every weight and moment of its model's shape.
 * readCheckpoint (checkpointShapes.ts) does all three for the runner's restore() and the worker
 * (src/engine/checkpoints.ts); the saved-runs list (src/app/runs/runData.ts) does the first two,
 * as this file does not load the models (nor tfjs). Pure: no DOM, no Node.
 */
import { z } from '../zod';
import type { AdamState } from '../adam';
import { sortedJson } from '../json';
import type { NamedWeight } from '../models/policy';
import { isPlainObject, quoteText, upgrade, zodIssues, type Migrations } from '../persisted';
import type { MemberInfo, RunSummary } from './events';
import { ExperimentSpecSchema, type ExperimentSpec } from './spec';
import { FINITE_SUMMARY, RUN_LIMITS, runId } from './summarySchema';
import { MAX_WARM_START_TENSORS, weightName, weightShape } from './warmStartFile';

/**
 * The checkpoint format this code writes. Bump it, and add a CHECKPOINT_MIGRATIONS entry, when
 * the shape of a Checkpoint changes (docs/RELIABILITY.md, "Saved formats").
 */
export const CHECKPOINT_VERSION = 1;

export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION;
  spec: ExperimentSpec;
  /** Last completed RL step. */
  step: number;
  members: MemberInfo[];
  references: Record<string, NamedWeight[]>;
  arms: { id: string; members: { id: string; weights: NamedWeight[]; optimizer: AdamState }[] }[];
  summary: RunSummary;
}

/**
 * `CHECKPOINT_MIGRATIONS[n]` turns a version-n checkpoint (structured-cloned data, not yet
 * validated) into a version-(n+1) one, e.g. for a renamed field
 *   1: (cp) => ({ ...cp, version: 2, arms: renamed(cp.arms) })
 * so a saved run made before keeps resuming. None yet: every checkpoint ever written is version 1.
 */
export const CHECKPOINT_MIGRATIONS: Migrations<Record<string, unknown>> = {};
const WORDS = { what: 'checkpoint format' };

/** Thrown by the runner's restore(), before any tensor exists, for a checkpoint it must not continue. */
export class CheckpointError extends Error {
  override name = 'CheckpointError';
  constructor(readonly problem: string) {
    super(`The checkpoint cannot be restored: ${problem}.`);
  }
}

// ---- the format ---------------------------------------------------------------------------------

/** Index of the first value that is NaN or infinite, or -1. */
export function firstNonFinite(values: Float32Array): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}

const finiteValues = z
  .custom<Float32Array>((v) => v instanceof Float32Array, 'expected a Float32Array')
  .superRefine((values, ctx) => {
    const i = firstNonFinite(values);
    if (i >= 0) ctx.addIssue({ code: 'custom', message: `value ${i} is not finite (${values[i]})` });
  });

const WeightSchema = z.object({ name: weightName, shape: weightShape, values: finiteValues }).superRefine((w, ctx) => {
  const n = w.shape.reduce((a, b) => a * b, 1);
  if (w.values.length !== n) {
    ctx.addIssue({ code: 'custom', path: ['values'], message: `weight "${w.name}" of shape [${w.shape.join(', ')}] needs ${n} values, it holds ${w.values.length}` });
  }
});
const WeightsSchema = z.array(WeightSchema).max(MAX_WARM_START_TENSORS);

const AdamStateSchema = z
  .object({
    step: z.number().int().min(0),
    m: z.array(finiteValues).max(MAX_WARM_START_TENSORS),
    v: z.array(finiteValues).max(MAX_WARM_START_TENSORS),
  })
  .superRefine((s, ctx) => {
    if (s.m.length !== s.v.length || s.m.some((m, i) => m.length !== s.v[i].length)) {
      ctx.addIssue({ code: 'custom', message: 'its first and second moments differ in number or size' });
    }
  });

const CheckpointSchema = z.object({
  version: z.literal(CHECKPOINT_VERSION),
  spec: ExperimentSpecSchema,
  // Any whole number here: checkpointMismatch says in words when it is outside 0..steps.
  step: z.number().int('the step is a whole number'),
  members: z.array(FINITE_SUMMARY.MemberInfo).max(RUN_LIMITS.members),
  references: z.record(runId, WeightsSchema),
  arms: z
    .array(z.object({ id: runId, members: z.array(z.object({ id: runId, weights: WeightsSchema, optimizer: AdamStateSchema })).max(RUN_LIMITS.members) }))
    .max(RUN_LIMITS.arms),
  summary: FINITE_SUMMARY.RunSummary,
});
// What the schema gives is a Checkpoint (a field added to the type but not here fails the typecheck).
const asCheckpoint = (cp: z.output<typeof CheckpointSchema>): Checkpoint => cp;

export type ReadCheckpoint = { ok: true; checkpoint: Checkpoint } | { ok: false; problem: string };

/** The checkpoint's format (untrusted data): brought to this version, every field checked. */
export function parseCheckpoint(raw: unknown, migrations: Migrations<Record<string, unknown>> = CHECKPOINT_MIGRATIONS): ReadCheckpoint {
  if (!isPlainObject(raw)) return { ok: false, problem: 'it is not a checkpoint' };
  const up = upgrade(raw, CHECKPOINT_VERSION, migrations, WORDS);
  if (!up.ok) return { ok: false, problem: up.why };
  const r = CheckpointSchema.safeParse(up.doc);
  return r.success ? { ok: true, checkpoint: asCheckpoint(r.data) } : { ok: false, problem: `it holds invalid values: ${zodIssues(r.error)}` };
}

// ---- of this experiment ------------------------------------------------------------------------

/**
 * What a checkpoint of a run holds: the warm-started members and the trained copies (arm by arm).
 * A run holds every member and arm of its spec (wholeRun); a member part of a peer arm trained
 * across two browsers holds one member and its copy in that arm (memberPart.ts).
 */
export interface CheckpointScope {
  members: readonly string[];
  arms: readonly { id: string; members: readonly string[] }[];
}

export const wholeRun = (spec: ExperimentSpec): CheckpointScope => ({ members: spec.members.map((m) => m.id), arms: spec.arms });

/**
 * Why a well-formed checkpoint cannot continue a run of `spec`, in words (null: it can): another
 * spec, a step outside 0..spec.steps, members or arms missing or extra (of `scope`: by default
 * the spec's), or a summary of other arms or later steps. (The shapes of its weights:
 * checkpointShapes.ts.)
 */
export function checkpointSpecProblem(spec: ExperimentSpec, cp: Checkpoint, scope: CheckpointScope = wholeRun(spec)): string | null {
  if (sortedJson(cp.spec) !== sortedJson(spec)) return 'the checkpoint was taken from another experiment';
  if (!Number.isInteger(cp.step) || cp.step < 0 || cp.step > spec.steps) return `the checkpoint is at step ${String(cp.step)}, outside 0-${spec.steps}`;
  const member = (id: string) => `member ${quoteText(id)}`;
  const problem =
    idsProblem(cp.members.map((m) => m.id), scope.members, member) ??
    idsProblem(Object.keys(cp.references), scope.members, (id) => `warm-started weights of ${member(id)}`) ??
    idsProblem(cp.arms.map((a) => a.id), scope.arms.map((a) => a.id), (id) => `arm ${quoteText(id)}`) ??
    scope.arms.reduce<string | null>((p, armScope) => {
      const arm = cp.arms.find((a) => a.id === armScope.id)!;
      return p ?? idsProblem(arm.members.map((m) => m.id), armScope.members, (id) => `${member(id)} in arm ${quoteText(arm.id)}`);
    }, null);
  return problem ?? summaryProblem(spec, cp);
}

/** Ids that must be exactly `want`: none missing, none extra, none twice. */
function idsProblem(got: string[], want: readonly string[], noun: (id: string) => string): string | null {
  const seen = new Set<string>();
  for (const id of got) {
    if (seen.has(id)) return `the checkpoint holds ${noun(id)} twice`;
    seen.add(id);
    if (!want.includes(id)) return `the checkpoint holds ${noun(id)}, which the experiment does not have`;
  }
  const missing = want.find((id) => !seen.has(id));
  return missing === undefined ? null : `the checkpoint lacks ${noun(missing)}`;
}

/** The summary so far must be of this spec's seed, arms and members, and end by the checkpoint's step. */
function summaryProblem(spec: ExperimentSpec, cp: Checkpoint): string | null {
  const s = cp.summary;
  if (s.seed !== spec.seed) return `the checkpoint's summary is of seed ${s.seed}, the experiment's seed is ${spec.seed}`;
  const armProblem = idsProblem(s.arms.map((a) => a.id), spec.arms.map((a) => a.id), (id) => `a summary of arm ${quoteText(id)}`);
  if (armProblem) return armProblem;
  for (const arm of s.arms) {
    const armSpec = spec.arms.find((a) => a.id === arm.id)!;
    const noun = (id: string) => `a summary of member ${quoteText(id)} in arm ${quoteText(arm.id)}`;
    const problem = idsProblem(arm.members.map((m) => m.id), armSpec.members, noun);
    if (problem) return problem;
    const late = arm.members.find((m) => m.history.some((h) => h.step > cp.step));
    if (late) return `the checkpoint's summary of member ${quoteText(late.id)} in arm ${quoteText(arm.id)} goes past its step ${cp.step}`;
  }
  return null;
}
