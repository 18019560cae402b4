/**
 * Procedural, character-level, verifiable tasks.
 *
 * A problem is a prompt ending in '=' and a short answer string. The target completion the
 * warm start imitates is `scratchpad + '>' + answer`, followed by the EOS token. The scratchpad is
 * optional (empty string when absent): with it, small models learn the algorithm; without it they
 * memorise (docs/METHOD.md). Every prompt of one task at one difficulty has the same length, so a batch
 * of prompts is a dense [N, P] tensor with no left padding.
 */
import type { Rng } from '../random';
import type { Vocabulary } from './tokenizer';

export type TaskId = 'digitsum' | 'addition' | 'reverse';

/** How warm-start targets use the scratchpad: always, never, or a seeded mix. */
export type ScratchpadMode = 'always' | 'never' | 'mixed';

export interface Problem {
  /** e.g. "8+3+9+7=" */
  prompt: string;
  /** e.g. "7" */
  answer: string;
  /** e.g. "8,1,0" (the running sums); the completion is scratchpad + '>' + answer. */
  scratchpad: string;
}

export interface Task {
  /** A built-in task's id, or 'custom' for one built from a definition (custom/). */
  id: TaskId | 'custom';
  title: string;
  /** One or two sentences for students. */
  description: string;
  /** Inclusive range of the difficulty knob (e.g. number of digits). */
  difficultyRange: [number, number];
  /** The difficulty a new experiment starts with. */
  defaultDifficulty: number;
  /** Characters in every prompt at this difficulty, '=' included. */
  promptLength(difficulty: number): number;
  /** Most characters a correct completion with scratchpad has, EOS excluded. */
  maxCompletionLength(difficulty: number): number;
  /**
   * How many distinct problems (distinct prompts) exist at this difficulty, e.g. 10^n for n
   * digits. makeSplit uses it to refuse splits the problem space cannot fill.
   */
  problemCount(difficulty: number): number;
  /** A uniformly random problem. */
  generate(rng: Rng, difficulty: number): Problem;
  /** Is `s` a well-formed answer for this task at this difficulty (e.g. one digit)? */
  isWellFormedAnswer(s: string, difficulty: number): boolean;
  /**
   * A custom task's own characters (custom/vocabulary.ts); absent = the shared BASE_VOCABULARY,
   * so built-in tasks keep their 18 tokens and their models' sizes.
   */
  vocabulary?: Vocabulary;
  /**
   * A custom task's answer normalisation (custom/normalise.ts), applied to every extracted answer
   * before it votes or is checked; absent = the answer as written (built-in tasks).
   */
  normaliseAnswer?(s: string): string | null;
  /** A custom task whose every answer is an integer: its answers are compared as numbers (normalise.ts). */
  numericAnswers?: boolean;
}
