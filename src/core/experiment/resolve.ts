/**
 * An experiment resolved once, before a run builds anything: its task and difficulty, the length
 * cap and sequence length its policies take, its data split, and which arms and members this run
 * trains (all of them, a pool part's, or a member part's one member). The runner's phases
 * (runPhases.ts), the warm starts (cohort.ts, overlapDial.ts, warmStartCache.ts), the pool's plan
 * (parts.ts) and the memory check (budget.ts) read these fields instead of deriving them again
 * from the spec's ids.
 *
 * One resolution per thread: a pool (cli/experiment/pool.ts, src/engine/workerPool.ts) resolves the spec once
 * for its plan and its lead part. A resolved experiment holds an Rng and a Task (functions), so it
 * cannot cross postMessage: a pool's worker receives the spec and resolves it once on its side
 * (src/engine/partRpc.ts servePart).
 */
import { Rng } from '../random';
import { resolveTask, type Split } from '../tasks/index';
import type { Task } from '../tasks/types';
import type { WarmStartInputs } from './cohort';
import { experimentSplit } from './data';
import { lengthCap, runMaxLen, runVocabSize } from './lengths';
import { memberPlan, type MemberPart, type MemberPlan } from './memberParts';
import { partMembers, type RunPart } from './parts';
import type { ExperimentSpec } from './spec';

/** What every part of a run shares: the spec's task, lengths, split and root stream. */
export interface ResolvedSpec {
  spec: ExperimentSpec;
  /** The root of every random stream (streams are named children: the order of use is free). */
  root: Rng;
  task: Task;
  difficulty: number;
  /** The completion length cap L (lengthCap). */
  lengthCap: number;
  /** The policies' sequence length: the task's longest sequence, or the prompt plus L. */
  maxLen: number;
  /** The policies' vocabulary size: 18 for built-in tasks, more for a custom task's own characters. */
  vocabSize: number;
  split: Split;
}

/** A resolved spec and what one run of it trains. */
export interface ResolvedExperiment extends ResolvedSpec {
  /** A pooled run's part (parts.ts), if this run is one. */
  part: RunPart | undefined;
  /** A member part's plan (memberParts.ts), if this run is one. */
  member: MemberPlan | null;
  /** The arms this run trains: the spec's, a part's, or the member's one arm. */
  trainSpec: ExperimentSpec;
  /** The members this run builds (undefined: every member). */
  needed: ReadonlySet<string> | undefined;
}

/** The one place a spec's ids become its task, lengths and split. */
export function resolveSpec(spec: ExperimentSpec): ResolvedSpec {
  const root = new Rng(spec.seed);
  const task = resolveTask(spec.task);
  const split = experimentSplit(spec, root, task);
  return { spec, root, task, difficulty: spec.task.difficulty, lengthCap: lengthCap(spec, task), maxLen: runMaxLen(spec, task), vocabSize: runVocabSize(spec, task), split };
}

/** Already resolved? (A spec has no split: its data sizes are under `data`.) */
export function isResolved(x: ExperimentSpec | ResolvedSpec): x is ResolvedSpec {
  return 'split' in x;
}

export function resolveExperiment(experiment: ExperimentSpec | ResolvedSpec, part?: RunPart, memberPart?: MemberPart): ResolvedExperiment {
  const r = isResolved(experiment) ? experiment : resolveSpec(experiment);
  const { spec } = r;
  // A member part builds one member and trains its copy in one arm; the partner's answers come by exchange.
  const member = memberPart ? memberPlan(spec, memberPart) : null;
  if (member && part) throw new Error('a run is a part of a pool or a member part, not both');
  // A part trains some arms (the steps see only those); one-part runs train every arm.
  const trainSpec: ExperimentSpec = member ? member.trainSpec : part ? { ...spec, arms: spec.arms.filter((a) => part.arms.includes(a.id)) } : spec;
  const needed = member ? new Set(member.scope.members) : part ? partMembers(spec, part) : undefined;
  return { ...r, part, member, trainSpec, needed };
}

/**
 * What a member's warm start reads of its experiment (cohort.ts WarmStartInputs): the labeled
 * pool of the split, the policies' sizes and the root stream. The runner, the script that makes
 * the shipped files and the tests all take it from here, so they train what a run would.
 */
export function warmStartInputs(experiment: ExperimentSpec | ResolvedSpec, vocabSize?: number): WarmStartInputs {
  const x = isResolved(experiment) ? experiment : resolveSpec(experiment);
  return { spec: x.spec, task: x.task, pool: x.split.warmStart, vocabSize: vocabSize ?? x.vocabSize, maxLen: x.maxLen, root: x.root };
}
