/**
 * What a windowed MLP can see of a task, measured before any training. An MLP member predicts each
 * token from the last `window` tokens only (models/mlp.ts, Bengio et al. 2003), so a completion
 * character that depends on a prompt character further back is out of its sight: no amount of
 * training recovers it. This module measures how much of the task is in sight.
 *
 * The measure is the window's **ceiling**: the best mean reference probability (the warm start's
 * own target measure: the chance of writing the whole reference completion at temperature 1,
 * warmstart.ts referenceProbability) that any model reading `window` tokens can reach on a sample of
 * the task's problems. For every completion position, the problems are grouped by what the window
 * holds there; the best such model writes each next token with its frequency in that group, so a
 * problem's ceiling is the product of those frequencies along its completion, and the window's
 * ceiling is their mean. Counted exactly, no training, deterministic from the seed.
 *
 * A window that sees everything the completion depends on has the ceiling of the whole sequence
 * (1 for a task whose prompt fixes its completion); a window shorter than that has a lower one,
 * and the numbers say by how much: for `{a},{b} max=` over digits, a window of 6 sees `b max=` but
 * not `a`, and no model reading it writes more than about half the answers.
 */
import { Rng } from '../random';
import { taskCodec, targetCompletion } from '../tasks/index';
import type { Problem, ScratchpadMode, Task } from '../tasks/types';
import { PAD_ID } from '../tasks/tokenizer';

/** Problems the ceilings are measured on (distinct prompts, fewer when the task has fewer). */
export const REACH_SAMPLE = 1000;

/** A sample of a task's problems as the warm start encodes them: BOS, left-padded prompt, completion, EOS. */
export interface TaskSequences {
  /** One token sequence per problem (two under a mix of scratchpads: with it and without). */
  sequences: number[][];
  /** Problems sampled. */
  problems: number;
  /** Tokens before the completion (BOS and the padded prompt): the same for every problem. */
  promptTokens: number;
  /** The longest sequence: a window this long sees everything. */
  longest: number;
}

/**
 * Up to REACH_SAMPLE problems with distinct prompts from the stream `rng` (the task's own
 * distribution, as the split draws them), encoded as the warm start encodes them.
 */
export function taskSequences(task: Task, difficulty: number, scratchpad: ScratchpadMode, rng: Rng, count = REACH_SAMPLE): TaskSequences {
  const codec = taskCodec(task, difficulty);
  const n = Math.min(count, task.problemCount(difficulty));
  const draws = rng.child('problems');
  const seen = new Set<string>();
  const problems: Problem[] = [];
  // Rejection sampling ends: n is at most the number of distinct prompts (coupon collector).
  while (problems.length < n) {
    const p = task.generate(draws, difficulty);
    if (seen.has(p.prompt)) continue;
    seen.add(p.prompt);
    problems.push(p);
  }
  // A seeded mix of scratchpads writes either completion of a problem: both are counted, so the
  // coin is what it is, noise no window can learn (a window of the whole sequence writes half).
  const withScratchpad: boolean[] = scratchpad === 'mixed' ? [true, false] : [scratchpad === 'always'];
  const sequences = problems.flatMap((p) => withScratchpad.map((s) => [...codec.prompt(p.prompt), ...codec.target(targetCompletion(p, s))]));
  return { sequences, problems: problems.length, promptTokens: 1 + task.promptLength(difficulty), longest: Math.max(...sequences.map((s) => s.length)) };
}

/**
 * The window's ceiling on these sequences: the best mean reference probability of any model that
 * predicts each completion token from the `window` tokens before it (PAD before the start, as the
 * MLP pads: models/mlp.ts).
 */
export function windowCeiling(data: TaskSequences, window: number): number {
  const { sequences, promptTokens } = data;
  if (sequences.length === 0) return 1;
  // Position t (the last token the window holds) predicts token t + 1; completion tokens start at promptTokens.
  const key = (s: number[], t: number): string => {
    // The window's tokens alone: an MLP does not know where in the sequence it stands.
    let k = '';
    for (let i = t - window + 1; i <= t; i++) k += String.fromCharCode(48 + (i < 0 ? PAD_ID : s[i]));
    return k;
  };
  const counts = new Map<string, Map<number, number>>();
  const keys: string[][] = sequences.map((s) => {
    const ks: string[] = [];
    for (let t = promptTokens - 1; t < s.length - 1; t++) {
      const k = key(s, t);
      ks.push(k);
      let next = counts.get(k);
      if (!next) counts.set(k, (next = new Map()));
      next.set(s[t + 1], (next.get(s[t + 1]) ?? 0) + 1);
    }
    return ks;
  });
  const totals = new Map<string, number>();
  for (const [k, next] of counts) totals.set(k, [...next.values()].reduce((a, b) => a + b, 0));
  let total = 0;
  sequences.forEach((s, i) => {
    let p = 1;
    keys[i].forEach((k, j) => {
      p *= counts.get(k)!.get(s[promptTokens + j])! / totals.get(k)!;
    });
    total += p;
  });
  return total / sequences.length;
}

/** Ceilings closer than this are one: a window "covers" the task when it reaches the whole sequence's ceiling less this. */
export const COVERS = 0.01;

/** What a window sees of a task: its ceiling, the whole sequence's, and whether it covers the task. */
export interface WindowReach {
  window: number;
  ceiling: number;
  /** The ceiling of a window that sees the whole sequence (1 when the prompt fixes the completion). */
  full: number;
  covers: boolean;
  /** Characters of the longest prompt. */
  promptChars: number;
  /** Problems measured. */
  problems: number;
}

export function windowReach(data: TaskSequences, window: number, full = windowCeiling(data, data.longest)): WindowReach {
  const ceiling = window >= data.longest ? full : windowCeiling(data, window);
  return { window, ceiling, full, covers: ceiling >= full - COVERS, promptChars: data.promptTokens - 1, problems: data.problems };
}

/** The narrowest window from `from` to `most` that covers the task, or null when none does. */
export function narrowestCover(data: TaskSequences, from: number, most: number): WindowReach | null {
  const full = windowCeiling(data, data.longest);
  for (let w = from; w <= most; w++) {
    const r = windowReach(data, w, full);
    if (r.covers) return r;
  }
  return null;
}

/** The stream the ceilings are measured on: under the experiment seed, apart from every other. */
export function reachRng(seed: number): Rng {
  return new Rng(seed).child('learnability/window');
}
