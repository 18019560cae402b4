/**
 * The task registry and the pieces an experiment needs from it: warm-start targets, the
 * scratchpad coin, disjoint data splits and the sequence length models must allocate.
 */
import type { Rng } from '../random';
import { additionTask } from './addition';
import { digitsumTask } from './digitsum';
import { reverseTask } from './reverse';
import type { Problem, ScratchpadMode, Task, TaskId } from './types';
import { customTask, type TaskDefinition } from './custom/index';

export type { Problem, ScratchpadMode, Task, TaskId } from './types';
export * from './tokenizer';
import { BASE_VOCABULARY, encodePrompt, encodeTarget, PAD_ID, type Vocabulary } from './tokenizer';
export { checkAnswer, completionText, extractAnswer } from './extract';
export { digitsumTask, digitsumProblem } from './digitsum';
export { additionTask, additionProblem } from './addition';
export { reverseTask, reverseProblem } from './reverse';

export const TASKS: Record<TaskId, Task> = {
  digitsum: digitsumTask,
  addition: additionTask,
  reverse: reverseTask,
};

export function getTask(id: TaskId | 'custom'): Task {
  if (id === 'custom') throw new Error('a custom task is built from its definition: resolveTask(spec.task), not getTask');
  const task = TASKS[id];
  if (!task) throw new Error(`Unknown task "${id}"; known tasks: ${Object.keys(TASKS).join(', ')}`);
  return task;
}

/**
 * The task a spec names: a built-in by its id, or 'custom' built from the definition it carries
 * (custom/check.ts; throws in words when the definition cannot run: specs are checked first).
 */
export function resolveTask(t: { id: TaskId | 'custom'; definition?: TaskDefinition }): Task {
  if (t.id !== 'custom') return getTask(t.id);
  if (!t.definition) throw new Error('a custom task needs its definition');
  return customTask(t.definition);
}

/** The vocabulary a task's models read and write (the shared 18 tokens for built-in tasks). */
export function taskVocabulary(task: Task): Vocabulary {
  return task.vocabulary ?? BASE_VOCABULARY;
}

/**
 * A prompt as the model reads it: BOS and the prompt in the task's vocabulary, left-padded with
 * PAD to the task's longest prompt (1 + promptLength), so every prompt of a task starts its
 * completion at the same position in warm start and in sampling alike. Built-in tasks' prompts
 * all have that length, so they get no padding and the same tokens as encodePrompt. The padding
 * is not masked: models see PAD tokens at the start of a short prompt (docs/TASKS.md, "Prompts of
 * different lengths").
 */
export function promptTokens(task: Task, difficulty: number, prompt: string): number[] {
  const ids = encodePrompt(prompt, task.vocabulary);
  const width = 1 + task.promptLength(difficulty);
  if (ids.length > width) throw new Error(`prompt ${JSON.stringify(prompt)} has ${ids.length - 1} characters; the task's longest is ${width - 1}`);
  return ids.length === width ? ids : [...new Array<number>(width - ids.length).fill(PAD_ID), ...ids];
}

/** How a task's prompts and warm-start targets become tokens. */
export interface TaskCodec {
  prompt(prompt: string): number[];
  target(completion: string): number[];
}

/** A task's codec: promptTokens for prompts, the task's vocabulary for targets. */
export function taskCodec(task: Task, difficulty: number): TaskCodec {
  return { prompt: (p) => promptTokens(task, difficulty, p), target: (c) => encodeTarget(c, task.vocabulary) };
}

/** What the warm start imitates (EOS excluded): `scratchpad>answer`, or `>answer` without one. */
export function targetCompletion(problem: Problem, withScratchpad: boolean): string {
  return (withScratchpad ? problem.scratchpad : '') + '>' + problem.answer;
}

/** Whether one warm-start example shows its scratchpad; 'mixed' tosses a fair seeded coin. */
export function scratchpadFor(mode: ScratchpadMode, rng: Rng): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return rng.next() < 0.5;
}

/** Tokens a model must hold for one full example: BOS, prompt, longest completion, EOS. */
export function sequenceLength(task: Task, difficulty: number): number {
  return 1 + task.promptLength(difficulty) + task.maxCompletionLength(difficulty) + 1;
}

export interface SplitSizes {
  warmStart: number;
  rl: number;
  heldOut: number;
}

export interface Split {
  warmStart: Problem[];
  rl: Problem[];
  heldOut: Problem[];
}

/**
 * Three sets of problems with pairwise disjoint prompts, so held-out accuracy measures
 * generalisation and never memorised warm-start or RL prompts.
 *
 * Each set draws from its own child stream of `rng`, held-out first, then RL, then warm start,
 * each skipping prompts already taken. The held-out set therefore depends only on the seed and
 * its own size: changing the warm-start size does not move the evaluation set.
 */
export function makeSplit(task: Task, difficulty: number, rng: Rng, sizes: SplitSizes): Split {
  for (const [name, n] of Object.entries(sizes)) {
    if (!Number.isInteger(n) || n < 0) {
      throw new RangeError(`makeSplit: size ${name} must be a non-negative integer, got ${n}`);
    }
  }
  const total = sizes.warmStart + sizes.rl + sizes.heldOut;
  const available = task.problemCount(difficulty);
  if (total > available) {
    throw new Error(
      `makeSplit: ${task.id} at difficulty ${difficulty} has only ${available} distinct problems, ` +
        `but the split asks for ${total} (warm start ${sizes.warmStart} + RL ${sizes.rl} + ` +
        `held-out ${sizes.heldOut}). Lower the sizes or raise the difficulty.`,
    );
  }
  const taken = new Set<string>();
  // Far past the coupon collector's mean (total × (ln total + 1)) for prompts drawn evenly.
  const maxDraws = Math.ceil(50 * (total + 1) * (Math.log(total + 1) + 1)) + 10_000;
  const draw = (name: keyof SplitSizes): Problem[] => {
    const stream = rng.child(`split/${name}`);
    const set: Problem[] = [];
    // Rejection sampling: cheap while the sets are small next to the problem space, and it
    // still ends (coupon collector, about N ln N draws) when they fill it completely. The draws
    // are bounded all the same: a task that claims more prompts than it makes stops in words
    // instead of drawing for ever.
    let draws = 0;
    while (set.length < sizes[name]) {
      if (++draws > maxDraws) {
        throw new Error(
          `makeSplit: ${task.id} claims ${available} distinct problems, but ${maxDraws} draws found only ${taken.size} ` +
            `(the split needs ${total}); its problems repeat more than its count says`,
        );
      }
      const problem = task.generate(stream, difficulty);
      if (taken.has(problem.prompt)) continue;
      taken.add(problem.prompt);
      set.push(problem);
    }
    return set;
  };
  const heldOut = draw('heldOut');
  const rl = draw('rl');
  const warmStart = draw('warmStart');
  return { warmStart, rl, heldOut };
}
