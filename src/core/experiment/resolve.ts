/**
 * An experiment resolved once, before a run builds anything: its task and difficulty, the length
 * cap and sequence length its policies take, its data split, and which arms and members this run
 * trains (all of them, a pool part's, or a member part's one member). The runner's phases
 * (runPhases.ts) read these fields instead of deriving them again from the spec's ids.
 */
import { Rng } from '../random';
import { getTask, type Split } from '../tasks/index';
import type { Task } from '../tasks/types';
import { experimentSplit } from './data';
import { lengthCap, runMaxLen } from './lengths';
import { memberPlan, type MemberPart, type MemberPlan } from './memberParts';
import { partMembers, type RunPart } from './parts';
import type { ExperimentSpec } from './spec';

export interface ResolvedExperiment {
  spec: ExperimentSpec;
  /** The root of every random stream (streams are named children: the order of use is free). */
  root: Rng;
  task: Task;
  difficulty: number;
  /** The completion length cap L (lengthCap). */
  lengthCap: number;
  /** The policies' sequence length: the task's longest sequence, or the prompt plus L. */
  maxLen: number;
  split: Split;
  /** A pooled run's part (parts.ts), if this run is one. */
  part: RunPart | undefined;
  /** A member part's plan (memberParts.ts), if this run is one. */
  member: MemberPlan | null;
  /** The arms this run trains: the spec's, a part's, or the member's one arm. */
  trainSpec: ExperimentSpec;
  /** The members this run builds (undefined: every member). */
  needed: ReadonlySet<string> | undefined;
}

export function resolveExperiment(spec: ExperimentSpec, part?: RunPart, memberPart?: MemberPart): ResolvedExperiment {
  const root = new Rng(spec.seed);
  const task = getTask(spec.task.id);
  const difficulty = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const maxLen = runMaxLen(spec, task);
  // A member part builds one member and trains its copy in one arm; the partner's answers come by exchange.
  const member = memberPart ? memberPlan(spec, memberPart) : null;
  if (member && part) throw new Error('a run is a part of a pool or a member part, not both');
  // A part trains some arms (the steps see only those); one-part runs train every arm.
  const trainSpec: ExperimentSpec = member ? member.trainSpec : part ? { ...spec, arms: spec.arms.filter((a) => part.arms.includes(a.id)) } : spec;
  const needed = member ? new Set(member.scope.members) : part ? partMembers(spec, part) : undefined;
  return { spec, root, task, difficulty, lengthCap: L, maxLen, split: experimentSplit(spec, root), part, member, trainSpec, needed };
}
