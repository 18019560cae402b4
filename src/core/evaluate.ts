/**
 * Held-out evaluation: pass@1 (the mean fraction of G samples that are correct, an unbiased
 * estimate of single-sample accuracy) and maj@G (the plurality of the G samples is correct).
 */
import type { Rng } from './random';
import type { Policy, PolicyStack } from './models/policy';
import { asStack } from './models/index';
import type { Problem, Task } from './tasks/types';
import { promptTokens } from './tasks/index';
import { checkAnswer } from './tasks/extract';
import { sampleStack } from './rollout';
import { pluralityVotes, type Answer, type PluralityVote } from './rewards/vote';

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
  const { rng, ...rest } = opts;
  const [evaluation] = await evaluateStack(asStack(policy), task, difficulty, problems, { ...rest, rngs: [rng] });
  return evaluation;
}

export interface StackEvaluationOptions extends Omit<EvaluationOptions, 'rng'> {
  /** One stream per model: model k samples (and breaks ties) as it would alone with rngs[k]. */
  rngs: Rng[];
}

/** Evaluate every model of a stack on the same problems, one rollout per chunk for all of them. */
export async function evaluateStack(
  stack: PolicyStack,
  task: Task,
  difficulty: number,
  problems: Problem[],
  opts: StackEvaluationOptions,
): Promise<Evaluation[]> {
  const G = opts.groupSize;
  const K = stack.size;
  const acc = Array.from({ length: K }, () => ({ answers: [] as (string | null)[][], lengthSum: 0 }));
  for (let start = 0; start < problems.length; start += opts.batchSize) {
    const chunk = problems.slice(start, start + opts.batchSize);
    const batches = await sampleStack(stack, chunk.map((p) => promptTokens(task, difficulty, p.prompt)), task, difficulty, {
      groupSize: G,
      temperature: opts.temperature,
      maxNewTokens: opts.maxNewTokens,
      rngs: opts.rngs,
    });
    batches.forEach((batch, k) => {
      const a = acc[k];
      chunk.forEach((_, b) => {
        a.answers.push(batch.answers.slice(b * G, (b + 1) * G));
        for (let g = 0; g < G; g++) a.lengthSum += batch.lengths[b * G + g];
      });
    });
  }
  const n = problems.length;
  return acc.map((a, k) => ({ ...scoreHeldOut(a.answers, problems, opts.rngs[k]), meanLength: n ? a.lengthSum / (n * G) : 0 }));
}

/** What an evaluation says from its answers alone (all a partner in another browser sends: experiment/memberStep.ts). */
export type HeldOutScore = Omit<Evaluation, 'meanLength'>;

/**
 * Score G answers per problem: pass@1, the pluralities (ties broken by `rng`'s `ties` streams:
 * the model's evaluation stream) and maj@G. Every evaluation is scored here.
 */
export function scoreHeldOut(answers: (string | null)[][], problems: Problem[], rng: Rng): HeldOutScore {
  const n = problems.length;
  const sampleAccuracy = answers.map((group, i) => group.filter((x) => checkAnswer(x, problems[i].answer)).length / group.length);
  const plurality = heldOutVotes(answers, rng).map((v) => v.label);
  const majCorrect = plurality.map((label, i) => checkAnswer(label, problems[i].answer));
  return {
    passAt1: n ? sampleAccuracy.reduce((s, x) => s + x, 0) / n : 0,
    majAtG: n ? majCorrect.filter(Boolean).length / n : 0,
    answers,
    plurality,
    majCorrect,
    sampleAccuracy,
  };
}

/**
 * The plurality of each held-out problem's G answers. A tie on problem i is broken by its own
 * stream (`ties/prompt{i}`, as pluralityVotes does for training prompts), so the label of one
 * problem does not depend on how many problems before it tied.
 */
export function heldOutVotes(answers: readonly (readonly Answer[])[], rng: Rng): PluralityVote[] {
  if (answers.length === 0) return [];
  return pluralityVotes(answers.flat(), answers.length, rng.child('ties'));
}
