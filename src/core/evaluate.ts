/**
 * Held-out evaluation: pass@1 (the mean fraction of G samples that are correct, an unbiased
 * estimate of single-sample accuracy) and maj@G (the plurality of the G samples is correct).
 */
import type { Rng } from './random';
import type { Policy } from './models/policy';
import type { Problem, Task } from './tasks/types';
import { encodePrompt } from './tasks/tokenizer';
import { checkAnswer } from './tasks/extract';
import { sampleRollouts } from './rollout';
import { pluralityVote } from './rewards/vote';

export interface EvaluationOptions {
  groupSize: number;
  temperature: number;
  maxNewTokens: number;
  /** Prompts per rollout batch (memory bound, not a statistic). */
  batchSize: number;
  rng: Rng;
}

export interface Evaluation {
  passAt1: number;
  majAtG: number;
  /** Per problem: the G sampled answers (null = no vote). */
  answers: (string | null)[][];
  /** Per problem: the plurality answer (seeded tie-break), null if no parseable answer. */
  plurality: (string | null)[];
  /** Per problem: is the plurality correct (the per-prompt correctness used for kappa). */
  majCorrect: boolean[];
  /** Per problem: fraction of the G samples that are correct. */
  sampleAccuracy: number[];
  meanLength: number;
}

export async function evaluatePolicy(
  policy: Policy,
  task: Task,
  difficulty: number,
  problems: Problem[],
  opts: EvaluationOptions,
): Promise<Evaluation> {
  const G = opts.groupSize;
  const answers: (string | null)[][] = [];
  const plurality: (string | null)[] = [];
  const majCorrect: boolean[] = [];
  const sampleAccuracy: number[] = [];
  let lengthSum = 0;
  const tieRng = opts.rng.child('ties');
  for (let start = 0; start < problems.length; start += opts.batchSize) {
    const chunk = problems.slice(start, start + opts.batchSize);
    const batch = await sampleRollouts(policy, chunk.map((p) => encodePrompt(p.prompt)), task, difficulty, {
      groupSize: G,
      temperature: opts.temperature,
      maxNewTokens: opts.maxNewTokens,
      rng: opts.rng,
    });
    chunk.forEach((p, b) => {
      const group = batch.answers.slice(b * G, (b + 1) * G);
      answers.push(group);
      const vote = pluralityVote(group, tieRng);
      plurality.push(vote.label);
      majCorrect.push(checkAnswer(vote.label, p.answer));
      sampleAccuracy.push(group.filter((a) => checkAnswer(a, p.answer)).length / G);
      for (let g = 0; g < G; g++) lengthSum += batch.lengths[b * G + g];
    });
  }
  const n = problems.length;
  return {
    passAt1: n ? sampleAccuracy.reduce((s, x) => s + x, 0) / n : 0,
    majAtG: n ? majCorrect.filter(Boolean).length / n : 0,
    answers,
    plurality,
    majCorrect,
    sampleAccuracy,
    meanLength: n ? lengthSum / (n * G) : 0,
  };
}
