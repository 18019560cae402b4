/**
 * The last check of a checkpoint before the runner restores it (checkpoint.ts has the first two):
 * every weight and Adam moment of the shape its member's model has, read from the spec without
 * creating a tensor (models/index.ts paramSpecs), and optimizer steps one stack can hold. Apart
 * from checkpoint.ts because it loads the models, and with them tfjs, which the page's main
 * bundle never imports.
 */
import type { AdamState } from '../adam';
import { paramSpecs, shapeKey, type NamedWeight, type ParamSpec } from '../models/index';
import { sizeOf } from '../models/layers';
import type { Migrations } from '../persisted';
import { quoteText } from '../persisted';
import { checkpointSpecProblem, parseCheckpoint, wholeRun, type Checkpoint, type CheckpointScope, type ReadCheckpoint } from './checkpoint';
import { policyConfigFor } from './cohort';
import type { ExperimentSpec } from './spec';
import { runMaxLen, runVocabSize } from './lengths';

/**
 * A checkpoint `spec`'s run can continue from, or why not in words: its format (parseCheckpoint),
 * of this experiment (checkpointSpecProblem), of these shapes (checkpointShapeProblem). `scope`:
 * what it holds (checkpoint.ts CheckpointScope; a member part's: memberPart.ts). `maxLen`: the
 * resolved experiment's (resolve.ts), where the caller has it.
 */
export function readCheckpoint(
  spec: ExperimentSpec,
  raw: unknown,
  migrations?: Migrations<Record<string, unknown>>,
  scope: CheckpointScope = wholeRun(spec),
  maxLen?: number,
): ReadCheckpoint {
  const parsed = parseCheckpoint(raw, migrations);
  if (!parsed.ok) return parsed;
  const problem = checkpointSpecProblem(spec, parsed.checkpoint, scope) ?? checkpointShapeProblem(spec, parsed.checkpoint, scope, maxLen);
  return problem ? { ok: false, problem } : parsed;
}

/**
 * Why the weights or optimizer states of a checkpoint of `spec` (checkpointSpecProblem passed)
 * do not fit its members' models: a weight missing, extra or of another shape, moments of
 * another number or size, or copies of one shape (one stack, one Adam) at different steps.
 */
export function checkpointShapeProblem(spec: ExperimentSpec, cp: Checkpoint, scope: CheckpointScope = wholeRun(spec), maxLen: number = runMaxLen(spec)): string | null {
  const configs = new Map(spec.members.map((m) => [m.id, policyConfigFor(m, runVocabSize(spec), maxLen)]));
  const shapes = new Map([...configs].map(([id, c]) => [id, paramSpecs(c)]));
  const member = (id: string) => `member ${quoteText(id)}`;
  for (const id of scope.members) {
    const problem = weightsProblem(`the warm-started weights of ${member(id)}`, cp.references[id], shapes.get(id)!);
    if (problem) return problem;
  }
  const stepOfShape = new Map<string, number>();
  for (const arm of cp.arms) {
    for (const m of arm.members) {
      const copy = `${member(m.id)} in arm ${quoteText(arm.id)}`;
      const want = shapes.get(m.id)!;
      const problem = weightsProblem(`the weights of ${copy}`, m.weights, want) ?? momentsProblem(`the optimizer state of ${copy}`, m.optimizer, want);
      if (problem) return problem;
      // Copies of one shape train as one stack with one Adam step count (stacks.ts).
      const key = shapeKey(configs.get(m.id)!);
      const seen = stepOfShape.get(key);
      if (seen !== undefined && seen !== m.optimizer.step) return `the optimizer states of the ${key} copies disagree on their step (${seen} and ${m.optimizer.step})`;
      stepOfShape.set(key, m.optimizer.step);
    }
  }
  return null;
}

/** Weights that must be exactly the model's: every name once, each of its shape. */
function weightsProblem(where: string, weights: NamedWeight[], want: ParamSpec[]): string | null {
  const byName = new Map(want.map((s) => [s.name, s.shape]));
  const seen = new Set<string>();
  for (const w of weights) {
    const shape = byName.get(w.name);
    if (!shape) return `${where}: weight ${quoteText(w.name)} is not one of its model's`;
    if (seen.has(w.name)) return `${where}: weight ${quoteText(w.name)} appears twice`;
    seen.add(w.name);
    if (w.shape.length !== shape.length || w.shape.some((d, i) => d !== shape[i])) {
      return `${where}: weight ${quoteText(w.name)} has shape [${w.shape.join(', ')}]; its model's is [${shape.join(', ')}]`;
    }
  }
  const missing = want.find((s) => !seen.has(s.name));
  return missing ? `${where}: weight ${quoteText(missing.name)} is missing` : null;
}

/** Adam's moments: one per weight of the model, in its order, each of its size. */
function momentsProblem(where: string, state: AdamState, want: ParamSpec[]): string | null {
  if (state.m.length !== want.length) return `${where}: ${state.m.length} moments for a model of ${want.length} weights`;
  const i = want.findIndex((s, k) => state.m[k].length !== sizeOf(s.shape));
  return i < 0 ? null : `${where}: the moment of weight ${quoteText(want[i].name)} holds ${state.m[i].length} values; the weight has ${sizeOf(want[i].shape)}`;
}
