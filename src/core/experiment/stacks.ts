/**
 * The cohort as stacks. Every arm trains its own copy of each of its members; copies of the same
 * shape (family and sizes), across members and arms, train as one stacked model (models/stack.ts):
 * one rollout, one loss, one backward pass and one Adam step for all of them. Different shapes form
 * separate stacks. A slot is one (arm, member) copy; its weights and results stay its own.
 */
import type { ModelStack } from '../models/stack';
import { ModelStack as Stack, shapeKey } from '../models/stack';
import { stackOf } from '../models/index';
import { Adam } from '../adam';
import type { ExperimentSpec } from './spec';
import type { WarmMember } from './cohort';

/** One trained copy of a member in an arm. */
export interface Slot {
  armId: string;
  memberId: string;
  sampleSeed: number;
}

export interface TrainingStack {
  /** The shape every model of the stack shares (models/stack.ts shapeKey). */
  key: string;
  /** Model k of `models` is the copy `slots[k]`. */
  slots: Slot[];
  models: ModelStack;
  optimizer: Adam;
  /** The frozen warm-started weights of each slot (the KL reference); only when beta > 0. */
  references: ModelStack | null;
}

export const slotId = (armId: string, memberId: string) => `${armId}/${memberId}`;

/**
 * How copies are grouped: 'shape' (default) stacks every copy of one shape together; 'slot' gives
 * each copy a stack of its own, i.e. trains the models one at a time (a reference for tests and
 * benchmarks: both must give the same metrics).
 */
export type Stacking = 'shape' | 'slot';

/** Group every (arm, member) copy by shape, in spec order, and clone the warm-started weights. */
export function buildTrainingStacks(spec: ExperimentSpec, warm: Map<string, WarmMember>, stacking: Stacking = 'shape'): TrainingStack[] {
  const groups = new Map<string, Slot[]>();
  for (const arm of spec.arms) {
    for (const memberId of arm.members) {
      const w = warm.get(memberId);
      if (!w) throw new Error(`arm ${arm.id}: member ${memberId} was not built`);
      const key = stacking === 'shape' ? shapeKey(w.reference.config) : `${shapeKey(w.reference.config)} ${slotId(arm.id, memberId)}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push({ armId: arm.id, memberId, sampleSeed: w.spec.sampleSeed });
    }
  }
  return [...groups].map(([key, slots]) => {
    const warmStacks = slots.map((s) => {
      const st = stackOf(warm.get(s.memberId)!.reference);
      if (!st) throw new Error(`member ${s.memberId}: not a stackable policy`);
      return st;
    });
    const models = Stack.concat(warmStacks);
    return {
      key,
      slots,
      models,
      optimizer: new Adam(models.variables, { learningRate: spec.grpo.learningRate }),
      references: spec.grpo.beta > 0 ? Stack.concat(warmStacks) : null,
    };
  });
}

export function disposeTrainingStacks(stacks: TrainingStack[]): void {
  for (const s of stacks) {
    s.models.dispose();
    s.optimizer.dispose();
    s.references?.dispose();
  }
}
