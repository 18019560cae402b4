/**
 * The cohort: every member is built and warm-started ONCE from its own seeds; each arm then trains
 * clones of these warm-started weights, so all arms start from identical weights (docs/METHOD.md).
 */
import type { Rng } from '../random';
import type { Policy, PolicyConfig } from '../models/policy';
import { createPolicy, describePolicy } from '../models/index';
import { validationValue, warmStart, type WarmStartOptions, type WarmStartResult } from '../warmstart';
import type { Problem, ScratchpadMode, Task } from '../tasks/types';
import { taskCodec } from '../tasks/index';
import type { ExperimentSpec, MemberSpec } from './spec';
import type { MemberInfo } from './events';
import { warmStartPercent } from './missWords';

/**
 * What building a member's warm start reads of its experiment, resolved once (resolve.ts
 * warmStartInputs): every builder (buildMember, overlapDial.ts, warmStartCache.ts) takes it.
 */
export interface WarmStartInputs {
  spec: ExperimentSpec;
  task: Task;
  /** The labeled pool members draw their warm-start sets from (the split's warmStart). */
  pool: Problem[];
  vocabSize: number;
  /** The policies' sequence length (resolve.ts maxLen). */
  maxLen: number;
  root: Rng;
}

/** A warm start's progress, reported every few steps. */
/** A warm start's progress: its step, budget and loss, and with a target its latest validation value. */
export type WarmStartProgress = (step: number, steps: number, loss: number, validation?: number) => void | Promise<void>;

export function policyConfigFor(member: MemberSpec, vocabSize: number, maxLen: number): PolicyConfig {
  return {
    family: member.family,
    vocabSize,
    maxLen,
    dModel: member.dModel,
    layers: member.layers,
    heads: member.heads,
    window: member.window,
  };
}

export interface WarmMember {
  spec: MemberSpec;
  /** The warm-started weights: the reference for KL, the teacher, and the source of every clone. */
  reference: Policy;
  info: MemberInfo;
}

/**
 * The labeled problems a member warm-starts on: `warmStartExamples` drawn from the shared labeled
 * pool by the member's data seed, so members with one dataSeed see the same data in the same order.
 */
export function warmStartSet(pool: Problem[], member: MemberSpec, root: Rng): Problem[] {
  return labeledSplit(pool, member, root).train;
}

/** Most validation problems checked per warm-start step (one forward pass over them). */
export const MAX_VALIDATION = 200;

/**
 * The member's share of the labeled pool: its warm-start set, and the labeled problems it does
 * not train on (up to MAX_VALIDATION), which decide when a warm-start target is reached.
 */
export function labeledSplit(pool: Problem[], member: MemberSpec, root: Rng): { train: Problem[]; validation: Problem[] } {
  const rng = root.child(`data/${member.dataSeed}/subset`);
  const n = Math.min(member.warmStartExamples, pool.length);
  const shuffled = rng.shuffle(pool.slice());
  return { train: shuffled.slice(0, n), validation: shuffled.slice(n, n + MAX_VALIDATION) };
}

export interface WarmStartCallbacks {
  onProgress?: (memberIndex: number, step: number, steps: number, loss: number) => void | Promise<void>;
}

/** The warm start's stream of a member: its scratchpad coins and minibatch order. */
export function warmStartRng(member: MemberSpec, root: Rng): Rng {
  return root.child(`data/${member.dataSeed}/order`);
}

/**
 * The options of a member's warm start on its labeled set (buildMember; overlapDial.ts replays a
 * source and continues a dial member with the same ones): its budget and target, batch size and
 * learning rate, its stream, and its progress every few steps.
 */
export function warmStartOptions(c: WarmStartInputs, member: MemberSpec, validation: Problem[], onProgress?: WarmStartProgress): WarmStartOptions {
  return {
    steps: member.warmStartSteps,
    target: member.warmStartTarget > 0 ? { validation, value: member.warmStartTarget } : undefined,
    ...memberWarmStart(c.spec, member),
    scratchpad: c.spec.task.scratchpad as ScratchpadMode,
    rng: warmStartRng(member, c.root),
    // Built-in tasks read the shared vocabulary with prompts of one length; passing their codec
    // anyway gives the same tokens (tasks/index.ts promptTokens).
    codec: taskCodec(c.task, c.spec.task.difficulty),
    reportEvery: Math.max(1, Math.min(25, Math.floor(member.warmStartSteps / 20))),
    // A custom task's warm start that misses its target ends with its best weights (warmStartCohort.ts).
    ...(c.spec.task.id === 'custom' ? { keepBest: true } : {}),
    ...(onProgress ? { onProgress: async (p: { step: number; steps: number; loss: number; validation?: number }) => void (await onProgress(p.step, p.steps, p.loss, p.validation)) } : {}),
  };
}

/**
 * How a warm-started policy stands against its member's target: the reference probability on the
 * member's validation problems, measured as its warm start measures it (one forward pass). For a
 * member that took no warm-start step, and for a stored warm start that does not record it.
 */
export async function measureTarget(policy: Policy, c: WarmStartInputs, member: MemberSpec): Promise<number> {
  const { validation } = labeledSplit(c.pool, member, c.root);
  return validationValue(policy, validation, c.spec.task.scratchpad as ScratchpadMode, warmStartRng(member, c.root), taskCodec(c.task, c.spec.task.difficulty));
}

/**
 * A warm start's record against its target (docs/WARMSTARTS.md, "The guard"), for MemberInfo:
 * whether it was reached, and the best and the last validation value. Empty without a target.
 */
export type TargetRecord = Pick<MemberInfo, 'warmStartReached' | 'warmStartBest' | 'warmStartLast'>;

export function targetRecord(member: MemberSpec, curve: WarmStartResult['validation'], reached: boolean): TargetRecord {
  if (member.warmStartTarget <= 0) return {};
  const values = curve.map((c) => c.value);
  return {
    warmStartReached: reached,
    ...(values.length ? { warmStartBest: Math.max(...values), warmStartLast: values[values.length - 1] } : {}),
  };
}

/**
 * Build and warm-start one member. With a target, its info records whether the target was
 * reached (a miss is not an error here: warmStartCohort.ts decides what a miss does).
 */
export async function buildMember(c: WarmStartInputs, member: MemberSpec, onProgress?: WarmStartProgress): Promise<WarmMember> {
  const { root } = c;
  const { train, validation } = labeledSplit(c.pool, member, root);
  const useTarget = member.warmStartTarget > 0;
  if (useTarget && validation.length === 0) throw new Error(`member ${member.id}: a warm-start target needs labeled problems outside its warm-start set`);
  const config = policyConfigFor(member, c.vocabSize, c.maxLen);
  const policy = createPolicy(config, root.child(`init/${member.initSeed}/${member.family}`));
  let stepsTaken = 0;
  let record: TargetRecord = {};
  let note: string | undefined;
  try {
    if (member.warmStartSteps > 0) {
      const result = await warmStart(policy, train, warmStartOptions(c, member, validation, onProgress));
      stepsTaken = result.steps;
      record = targetRecord(member, result.validation, result.reachedTarget);
      if (result.restoredBest) note = `the warm start ends with its best weights, from step ${result.restoredBest.step} (${warmStartPercent(result.restoredBest.value)})`;
    } else if (useTarget) {
      // No warm-start step: the untrained policy is what is measured against the target.
      const value = await measureTarget(policy, c, member);
      record = targetRecord(member, [{ step: 0, value }], value >= member.warmStartTarget);
    }
  } catch (e) {
    policy.dispose();
    throw e;
  }
  return {
    spec: member,
    reference: policy,
    info: { id: member.id, family: member.family, params: policy.paramCount(), label: describePolicy(config), warmStartSteps: stepsTaken, ...record, ...(note ? { warmStartNote: note } : {}) },
  };
}

/** The batch size and learning rate a member warm-starts with: its own where set, else the experiment's. */
export function memberWarmStart(spec: ExperimentSpec, member: MemberSpec): { batchSize: number; learningRate: number } {
  return {
    batchSize: member.warmStartBatchSize ?? spec.warmStart.batchSize,
    learningRate: member.warmStartLearningRate ?? spec.warmStart.learningRate,
  };
}
