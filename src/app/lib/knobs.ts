/**
 * Labels, help text and ranges of the numeric controls. Ranges are read from the zod schema
 * (src/core/experiment/spec.ts), so a control can never offer a value the spec would reject.
 */
import type { z } from '../../core/zod';
import { ExperimentSpecSchema, GrpoSpecSchema, MemberSpecSchema } from '../../core/experiment/spec';

export interface Range {
  min: number;
  max: number;
  integer: boolean;
}

interface NumberLike {
  minValue: number | null;
  maxValue: number | null;
  isInt: boolean;
}

/** The numeric range of a zod number schema, looking through `.default()`/`.optional()`. */
export function rangeOf(schema: z.ZodType): Range {
  let s: unknown = schema;
  for (let i = 0; i < 4 && s && typeof (s as { unwrap?: unknown }).unwrap === 'function'; i++) s = (s as { unwrap(): unknown }).unwrap();
  const n = s as Partial<NumberLike>;
  return { min: n.minValue ?? -Infinity, max: n.maxValue ?? Infinity, integer: n.isInt ?? false };
}

export interface Knob {
  key: string;
  label: string;
  help: string;
  range: Range;
  /** Input step; 'any' for log-scale values like learning rates. */
  step: number | 'any';
}

function knob(schema: z.ZodType, key: string, label: string, help: string, step?: number | 'any'): Knob {
  const range = rangeOf(schema);
  return { key, label, help, range, step: step ?? (range.integer ? 1 : 'any') };
}

const g = GrpoSpecSchema.shape;
export const GRPO_KNOBS: Knob[] = [
  knob(g.promptsPerStep, 'promptsPerStep', 'Prompts per step (B)', 'How many problems every member answers in one RL step.'),
  knob(g.groupSize, 'groupSize', 'Group size (G)', 'Completions sampled per prompt. They vote for the pseudo-label and are compared with each other for the advantage.'),
  knob(g.temperature, 'temperature', 'Temperature', 'Sampling temperature. 1 samples the model as it is; lower is greedier and less diverse.', 0.1),
  knob(g.maxNewTokens, 'maxNewTokens', 'Length cap (tokens)', 'Most tokens a completion may have, EOS included. 0 = the longest correct completion plus 2.'),
  knob(g.learningRate, 'learningRate', 'Learning rate', 'Adam step size for RL. Around 3e-4 self-reward collapses within ~50 steps in our probe; 1e-3 and above collapses every arm.'),
  knob(g.clipEps, 'clipEps', 'Clip ε', 'PPO clip range: how far one update may move a token probability ratio away from 1.', 0.05),
  knob(g.beta, 'beta', 'KL weight β', 'Pull towards the warm-started model. 0 turns the KL term off (as in Dr. GRPO).', 0.01),
  knob(g.updatesPerBatch, 'updatesPerBatch', 'Updates per batch', 'Gradient steps on each batch of rollouts. Above 1, the clip starts to matter.'),
  knob(g.maxGradNorm, 'maxGradNorm', 'Max grad norm', 'Global gradient-norm clip; 0 turns it off.', 0.1),
];

const m = MemberSpecSchema.shape;
export const MEMBER_KNOBS: Record<'dModel' | 'layers' | 'heads' | 'window' | 'warmStartSteps' | 'warmStartExamples' | 'warmStartTarget' | 'initSeed' | 'dataSeed' | 'sampleSeed', Knob> = {
  dModel: knob(m.dModel, 'dModel', 'Width', 'Embedding / hidden size.'),
  layers: knob(m.layers, 'layers', 'Depth', 'Transformer blocks, GRU layers or MLP hidden layers.'),
  heads: knob(m.heads, 'heads', 'Heads', 'Attention heads (transformer); must divide the width.'),
  window: knob(m.window, 'window', 'Window', 'How many previous tokens the MLP sees.'),
  warmStartSteps: knob(m.warmStartSteps, 'warmStartSteps', 'Warm-start steps', 'Supervised steps on labeled problems before RL (the most steps when a target is set). More steps: a stronger base model.'),
  warmStartTarget: knob(m.warmStartTarget, 'warmStartTarget', 'Warm-start target', 'Stop the warm start once the member gets this share of its validation problems (labeled problems it does not train on) right at temperature 1. 0 = train every step. Members with one target start at a similar strength.', 0.05),
  warmStartExamples: knob(m.warmStartExamples, 'warmStartExamples', 'Warm-start examples', 'Labeled problems this member warm-starts on (drawn with its data seed).'),
  initSeed: knob(m.initSeed, 'initSeed', 'Init seed', 'Seed of the initial weights. Equal init and data seeds make twins.'),
  dataSeed: knob(m.dataSeed, 'dataSeed', 'Data seed', 'Seed of the warm-start data draw and order.'),
  sampleSeed: knob(m.sampleSeed, 'sampleSeed', 'Sample seed', 'Seed of the sampling noise during RL.'),
};

const e = ExperimentSpecSchema.shape;
export const RUN_KNOBS: Record<'seed' | 'steps' | 'evalEvery', Knob> = {
  seed: knob(e.seed, 'seed', 'Seed', 'Root of every random stream: same spec, seed and backend give the same run.'),
  steps: knob(e.steps, 'steps', 'RL steps', 'How many GRPO steps each arm takes.'),
  evalEvery: knob(e.evalEvery, 'evalEvery', 'Evaluate every', 'Held-out evaluation every this many steps (and at the last step).'),
};

export const DATA_KNOBS: Record<'labeledPool' | 'rlPool' | 'heldOut', Knob> = {
  labeledPool: knob(e.data.shape.labeledPool, 'labeledPool', 'Labeled pool', 'Labeled problems the warm starts draw from.'),
  rlPool: knob(e.data.shape.rlPool, 'rlPool', 'RL pool', 'Unlabeled problems RL prompts come from (disjoint from the others).'),
  heldOut: knob(e.data.shape.heldOut, 'heldOut', 'Held-out set', 'Problems used only to measure accuracy.'),
};

export const WARM_KNOBS: Record<'batchSize' | 'learningRate', Knob> = {
  batchSize: knob(e.warmStart.shape.batchSize, 'batchSize', 'Warm-start batch', 'Examples per supervised warm-start step.'),
  learningRate: knob(e.warmStart.shape.learningRate, 'learningRate', 'Warm-start LR', 'Learning rate of the supervised warm start.'),
};

/** Tooltip text: the help plus the allowed range. */
export function knobTitle(k: Knob): string {
  const { min, max } = k.range;
  return `${k.help} Allowed: ${min} to ${max}${k.range.integer ? ' (whole numbers)' : ''}.`;
}
