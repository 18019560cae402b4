/**
 * The experiment spec: one versioned schema (zod) for everything that defines a run. A share URL,
 * a preset, the UI and the CLI all produce one of these, and the runner consumes nothing else.
 * Every number has a range; out-of-range values are rejected with a message naming the field.
 *
 * Seeds: the experiment `seed` is the root of the generator tree. A member's `initSeed`,
 * `dataSeed` and `sampleSeed` name sub-streams under it, so two members with equal initSeed and
 * dataSeed are twins (same init, same warm-start data) and changing the experiment seed re-draws
 * everything while keeping those relations.
 */
import { z } from '../zod';
import { TASKS } from '../tasks/index';
import { checkTaskDefinition, TaskDefinitionSchema, visibleText, type TaskDefinition } from '../tasks/custom/index';
import type { TaskId } from '../tasks/types';
import { DIAL_MODES, dialProblems } from './dialSpec';

export const SPEC_VERSION = 1;

const id = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'ids are 1-24 letters, digits, - or _, starting with a letter');
const seed = z.number().int().min(0).max(2 ** 31 - 1);

export const FAMILIES = ['transformer', 'gru', 'mlp'] as const;
export const REWARD_SCHEMES = [
  'oracle',
  'self',
  'self-soft',
  'peer',
  'ring',
  'cohort',
  'teacher',
  'entropy',
  'certainty',
] as const;
export type RewardSchemeId = (typeof REWARD_SCHEMES)[number];

export const MemberSpecSchema = z.object({
  id,
  family: z.enum(FAMILIES),
  /** Width (embedding / hidden size). */
  dModel: z.number().int().min(8).max(256),
  /** Transformer blocks, GRU layers or MLP hidden layers. */
  layers: z.number().int().min(1).max(4),
  /** Transformer heads; must divide dModel. */
  heads: z.number().int().min(1).max(8).default(2),
  /** MLP context window in tokens. */
  window: z.number().int().min(1).max(16).default(6),
  /** Supervised warm-start steps (the warm-start budget; the most steps when a target is set). */
  warmStartSteps: z.number().int().min(0).max(20000),
  /**
   * Stop the warm start at the first step where the member reproduces the reference completions of
   * its validation problems (the labeled-pool problems it does not train on) with this mean
   * probability at temperature 1, a lower bound on pass@1. 0 = always train warmStartSteps. Members
   * stopped at one target start at a similar strength whatever their seeds. With scratchpad
   * 'mixed' the reference is one of two valid completions, so the probability undercounts pass@1.
   */
  warmStartTarget: z.number().min(0).max(1).default(0),
  /** Labeled problems this member warm-starts on (drawn from the labeled pool with dataSeed). */
  warmStartExamples: z.number().int().min(1).max(20000),
  /**
   * This member's warm-start learning rate and batch size, where they differ from the experiment's
   * `warmStart` (families learn at different rates: docs/RESULTS-NOTEBOOK.md, "Finding the regime").
   * Optional without a default, so specs and links without them are unchanged.
   */
  warmStartLearningRate: z.number().min(1e-5).max(0.1).optional(),
  warmStartBatchSize: z.number().int().min(1).max(256).optional(),
  initSeed: seed,
  dataSeed: seed,
  sampleSeed: seed,
  /**
   * The overlap dial (dialSpec.ts): warm-start with a share of another member's warm start.
   * Optional without a default, so specs, fingerprints and links without it are unchanged.
   */
  dial: z.object({ from: id, mode: z.enum(DIAL_MODES), share: z.number().min(0).max(1) }).optional(),
});
export type MemberSpec = z.infer<typeof MemberSpecSchema>;

export const ArmSpecSchema = z.object({
  id,
  scheme: z.enum(REWARD_SCHEMES),
  /** Ids of the cohort members trained in this arm (each arm trains its own clones). */
  members: z.array(id).min(1).max(6),
  /** teacher scheme: the member whose frozen warm-started copy supplies the labels. */
  teacher: id.optional(),
  /** Minimum majority ratio for a prompt to be labeled (TTRL/SRT threshold); 0 labels every prompt. */
  tau: z.number().min(0).max(1).default(0),
});
export type ArmSpec = z.infer<typeof ArmSpecSchema>;

export const GrpoSpecSchema = z.object({
  /** B: prompts per RL step. */
  promptsPerStep: z.number().int().min(1).max(128),
  /** G: completions sampled per prompt. */
  groupSize: z.number().int().min(2).max(32),
  /**
   * n_vote: samples per prompt that vote (TTRL votes over 64 and trains on 32; docs/METHOD.md,
   * "Votes and rewards"). 0 = G. Must be >= groupSize when set; the first G of each prompt train.
   * Absent = 0. Optional without a zod default, so the presets' parsed specs, their fingerprints
   * and old share links stay as they were.
   */
  voteSize: z.number().int().min(0).max(64).optional(),
  temperature: z.number().min(0.1).max(2),
  /** Length cap in tokens (EOS included); 0 = the task's longest correct completion + 2. */
  maxNewTokens: z.number().int().min(0).max(64).default(0),
  learningRate: z.number().min(1e-6).max(0.1),
  /** PPO clip range epsilon. */
  clipEps: z.number().min(0).max(1).default(0.2),
  /** KL weight towards the warm-started reference (0 = no KL, as in Dr. GRPO and the probe). */
  beta: z.number().min(0).max(1).default(0),
  advantageScale: z.enum(['group', 'batch', 'none']).default('group'),
  lossNormalisation: z.enum(['grpo', 'bnpo', 'dr_grpo']).default('grpo'),
  updatesPerBatch: z.number().int().min(1).max(8).default(1),
  /** Global gradient-norm clip; 0 turns it off. */
  maxGradNorm: z.number().min(0).max(100).default(1),
});
export type GrpoSpec = z.infer<typeof GrpoSpecSchema>;

/** n_vote: the samples per prompt that vote; voteSize 0 means G (docs/METHOD.md, "Votes and rewards"). */
export function voteCount(grpo: GrpoSpec): number {
  return Math.max(grpo.groupSize, grpo.voteSize ?? 0);
}

/** The most members a spec holds (8: the overlap preset's anchor, five same-family dial levels and a partner of another shape); the cohort editor stops here. */
export const MAX_MEMBERS = 8;

export const ExperimentSpecSchema = z
  .object({
    version: z.literal(SPEC_VERSION),
    seed,
    task: z.object({
      id: z.enum(['digitsum', 'addition', 'reverse', 'custom']),
      difficulty: z.number().int().min(1).max(8),
      /** Warm-start targets with the scratchpad always, never, or a seeded mix (lets length vary). */
      scratchpad: z.enum(['always', 'never', 'mixed']).default('always'),
      /**
       * A custom task's definition (docs/TASKS.md), with id 'custom' and difficulty 1. Optional
       * without a default, so built-in specs, their fingerprints and old links are unchanged.
       */
      definition: TaskDefinitionSchema.optional(),
    }),
    data: z.object({
      /** Labeled problems available for warm starts (members draw their sets from it). */
      labeledPool: z.number().int().min(1).max(20000),
      /** Unlabeled problems RL prompts are drawn from (disjoint from labeled and held-out). */
      rlPool: z.number().int().min(1).max(20000),
      /** Held-out evaluation problems. */
      heldOut: z.number().int().min(4).max(2000),
    }),
    warmStart: z.object({
      batchSize: z.number().int().min(1).max(256),
      learningRate: z.number().min(1e-5).max(0.1),
      /**
       * A member that misses its warm-start target (docs/WARMSTARTS.md, "The guard"): 'stop' the
       * run before RL with a message naming it, 'retry' it with the next init seeds (initSeed
       * + 1, + 2, ...; the data seed stays), or 'continue' into RL from what it reached (a custom
       * task's warm start ends with its best weights: docs/TASKS.md). Absent = 'stop'. Optional without a zod default, so
       * the presets' parsed specs, their fingerprints and old share links stay as they were.
       */
      onMiss: z.enum(['stop', 'retry', 'continue']).optional(),
      /** With onMiss 'retry': the most rebuilds before the run stops. Absent = 2. */
      retries: z.number().int().min(1).max(5).optional(),
    }),
    members: z.array(MemberSpecSchema).min(1).max(MAX_MEMBERS),
    arms: z.array(ArmSpecSchema).min(1).max(10),
    grpo: GrpoSpecSchema,
    /** RL steps. */
    steps: z.number().int().min(1).max(5000),
    /** Held-out evaluation every E steps (and at step 0 and the last step). */
    evalEvery: z.number().int().min(1).max(1000),
    /** Collapse (metrics/dynamics.ts collapseStep): smoothed held-out accuracy this far below its smoothed best while the reward rose. */
    collapseDelta: z.number().min(0).max(1).default(0.1),
  })
  .superRefine((spec, ctx) => {
    for (const issue of [...specProblems(spec), ...taskProblems(spec), ...warmStartProblems(spec), ...dialProblems(spec)]) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    }
  });
export type ExperimentSpec = z.infer<typeof ExperimentSpecSchema>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpecSchema>;

export interface SpecProblem {
  path: (string | number)[];
  message: string;
}

/** Cross-field rules, also used by the UI to explain an invalid combination next to its control. */
export function specProblems(spec: {
  members: { id: string; family: string; dModel: number; heads?: number }[];
  arms: { id: string; scheme: string; members: string[]; teacher?: string }[];
  grpo?: { groupSize: number; voteSize?: number };
}): SpecProblem[] {
  const out: SpecProblem[] = [];
  const memberIds = new Set<string>();
  spec.members.forEach((m, i) => {
    if (memberIds.has(m.id)) out.push({ path: ['members', i, 'id'], message: `member id "${m.id}" is used twice` });
    memberIds.add(m.id);
    const heads = m.heads ?? 2;
    if (m.family === 'transformer' && m.dModel % heads !== 0) {
      out.push({ path: ['members', i, 'heads'], message: `member ${m.id}: width ${m.dModel} is not divisible by ${heads} heads` });
    }
  });
  const armIds = new Set<string>();
  spec.arms.forEach((a, i) => {
    if (armIds.has(a.id)) out.push({ path: ['arms', i, 'id'], message: `arm id "${a.id}" is used twice` });
    armIds.add(a.id);
    a.members.forEach((m, j) => {
      if (!memberIds.has(m)) out.push({ path: ['arms', i, 'members', j], message: `arm ${a.id}: no member "${m}"` });
    });
    if (new Set(a.members).size !== a.members.length) {
      out.push({ path: ['arms', i, 'members'], message: `arm ${a.id}: a member is listed twice` });
    }
    const n = a.members.length;
    if (a.scheme === 'peer' && n !== 2) {
      out.push({ path: ['arms', i, 'members'], message: `arm ${a.id}: peer reward needs exactly 2 members (use ring or cohort for more)` });
    }
    if (a.scheme === 'ring' && n < 3) {
      out.push({ path: ['arms', i, 'members'], message: `arm ${a.id}: ring reward needs at least 3 members` });
    }
    if (a.scheme === 'cohort' && n < 2) {
      out.push({ path: ['arms', i, 'members'], message: `arm ${a.id}: cohort reward needs at least 2 members` });
    }
    if (a.scheme === 'teacher') {
      if (!a.teacher) out.push({ path: ['arms', i, 'teacher'], message: `arm ${a.id}: choose a teacher member` });
      else if (!memberIds.has(a.teacher)) out.push({ path: ['arms', i, 'teacher'], message: `arm ${a.id}: no member "${a.teacher}" to be the teacher` });
    }
  });
  if (spec.grpo) out.push(...voteProblems(spec.grpo));
  return out;
}

/** The samples that vote include the G that train: n_vote is 0 (= G) or at least G. */
export function voteProblems(grpo: { groupSize: number; voteSize?: number }): SpecProblem[] {
  const n = grpo.voteSize ?? 0;
  if (n !== 0 && n < grpo.groupSize) {
    return [{
      path: ['grpo', 'voteSize'],
      message: `samples that vote (voteSize ${n}) must be 0 (= the group size) or at least the group size G = ${grpo.groupSize}: the G trained samples are among the votes`,
    }];
  }
  return [];
}

/** A warm-start target needs labeled problems the member does not train on, to validate on. */
export function warmStartProblems(spec: {
  data: { labeledPool: number };
  members: { id: string; warmStartTarget?: number; warmStartExamples: number }[];
}): SpecProblem[] {
  const out: SpecProblem[] = [];
  spec.members.forEach((m, i) => {
    if ((m.warmStartTarget ?? 0) > 0 && m.warmStartExamples >= spec.data.labeledPool) {
      out.push({
        path: ['members', i, 'warmStartTarget'],
        message: `member ${m.id}: a warm-start target needs fewer warm-start examples (${m.warmStartExamples}) than the labeled pool (${spec.data.labeledPool}); the rest are its validation problems`,
      });
    }
  });
  return out;
}

/** The task's difficulty range, and whether the problem space holds the requested data sets. */
export function taskProblems(spec: {
  task: { id: TaskId | 'custom'; difficulty: number; definition?: TaskDefinition };
  data: { labeledPool: number; rlPool: number; heldOut: number };
}): SpecProblem[] {
  if (spec.task.id === 'custom' || spec.task.definition) return customTaskProblems(spec);
  const task = TASKS[spec.task.id];
  const [lo, hi] = task.difficultyRange;
  const d = spec.task.difficulty;
  if (d < lo || d > hi) {
    return [{ path: ['task', 'difficulty'], message: `${task.title}: difficulty must be between ${lo} and ${hi}, got ${d}` }];
  }
  const total = spec.data.labeledPool + spec.data.rlPool + spec.data.heldOut;
  const available = task.problemCount(d);
  if (total > available) {
    return [{
      path: ['data'],
      message: `${task.title} at difficulty ${d} has ${available} distinct problems; labeled + RL + held-out = ${total}`,
    }];
  }
  return [];
}

/** A custom task: its definition runs (check.ts's error findings) and fills the split. */
function customTaskProblems(spec: {
  task: { id: TaskId | 'custom'; difficulty: number; definition?: TaskDefinition };
  data: { labeledPool: number; rlPool: number; heldOut: number };
}): SpecProblem[] {
  if (spec.task.id !== 'custom') return [{ path: ['task', 'definition'], message: `a task definition goes with the task id 'custom', not '${spec.task.id}'` }];
  if (!spec.task.definition) return [{ path: ['task', 'definition'], message: 'a custom task needs its definition' }];
  if (spec.task.difficulty !== 1) return [{ path: ['task', 'difficulty'], message: `a custom task has one difficulty, 1; got ${spec.task.difficulty}` }];
  const { findings } = checkTaskDefinition(spec.task.definition, spec.data);
  return findings
    .filter((f) => f.severity === 'error')
    .slice(0, 5)
    .map((f) => ({ path: ['task', 'definition'], message: `${visibleText(String(spec.task.definition!.title))}: ${f.line ? `line ${f.line}: ` : ''}${f.message}` }));
}

/** Parse untrusted data into a spec, or a list of readable problems (never throws). */
export function parseSpec(data: unknown): { ok: true; spec: ExperimentSpec } | { ok: false; errors: string[] } {
  const r = ExperimentSpecSchema.safeParse(data);
  if (r.success) return { ok: true, spec: r.data };
  return {
    ok: false,
    errors: r.error.issues.slice(0, 10).map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`),
  };
}
