/**
 * The lengths a run of a spec works with, defined once: the completion length cap L and the
 * policies' sequence length. The runner (resolve.ts), the warm starts' key (warmStartCache.ts),
 * the pool's cost plan (parts.ts), the memory estimate (budget.ts) and the checkpoint's shapes
 * (checkpointShapes.ts) all import them from here.
 */
import { resolveTask, sequenceLength, taskVocabulary } from '../tasks/index';
import { BASE_VOCABULARY } from '../tasks/tokenizer';
import type { Task } from '../tasks/types';
import type { ExperimentSpec } from './spec';

/** The completion length cap L: the spec's, or the longest correct completion plus slack. */
export function lengthCap(spec: ExperimentSpec, task: Task = resolveTask(spec.task)): number {
  return spec.grpo.maxNewTokens > 0 ? spec.grpo.maxNewTokens : task.maxCompletionLength(spec.task.difficulty) + 2;
}

/** The policies' maxLen in a run of `spec`: the longest warm-start sequence or prompt + L. */
export function runMaxLen(spec: ExperimentSpec, task: Task = resolveTask(spec.task)): number {
  const d = spec.task.difficulty;
  return Math.max(sequenceLength(task, d), 1 + task.promptLength(d) + lengthCap(spec, task));
}

/**
 * The models' vocabulary size in a run of `spec`: the shared 18 tokens, plus a custom task's own
 * characters. Every built-in task reads the shared vocabulary, so only a custom task is resolved
 * here (a run looks its built-in task up once, in resolve.ts).
 */
export function runVocabSize(spec: ExperimentSpec, task?: Task): number {
  if (task) return taskVocabulary(task).size;
  return spec.task.id === 'custom' ? taskVocabulary(resolveTask(spec.task)).size : BASE_VOCABULARY.size;
}
