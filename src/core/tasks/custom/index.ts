/**
 * A task of one's own: the definition (definition.ts), its files (parseFile.ts), the check that
 * turns it into a runnable Task (check.ts) and the expression language its generators are
 * written in (expr.ts, evaluate.ts). docs/TASKS.md is the reader's guide.
 *
 * How the pieces fit, for a page or a CLI reading a file:
 *   parseTaskFile(name, text)   the file's form (size, binary, quoting, field counts, formula
 *                               cells); gives a definition when the form is sound
 *   checkTaskDefinition(def, sizes?)
 *                               the content (characters, empty answers, repeated prompts,
 *                               expressions, vocabulary) and, with sizes, the split; for a
 *                               definition read by parseTaskFile, findings name the file's lines.
 *                               Bounded: at most CHECK_LIMITS.work steps, proven before it runs
 *                               (cost.ts), else refused in words; kept by content
 *   checkSummary(def), adoptCheck(def, summary)
 *                               a check made in another thread (a worker) as plain data, and
 *                               taken as this thread's without running its problems again
 *   previewProblems(def, n, seed), taskContentHash(def)
 */
import { sortedJson } from '../../json';
import { Rng } from '../../random';
import type { Problem, Task } from '../types';
import { checkTaskDefinition } from './check';
import type { TaskDefinition } from './definition';

export { BUILTINS, evaluate, type Env, type Value } from './evaluate';
export { EXPR_LIMITS, ExprError, parseExpr, visibleText } from './expr';
export { adoptCheck, checkSummary, checkTaskDefinition, MEANINGFUL, refusedChar, sizeFindings, type CheckedTask, type CheckSummary, type GeneratorFacts, type TaskSizes } from './check';
export { CHECK_LIMITS } from './cost';
export {
  TASK_LIMITS,
  TaskDefinitionSchema,
  type DataDefinition,
  type DataRow,
  type GeneratorDefinition,
  type TaskDefinition,
  type TaskFinding,
} from './definition';
export { normaliseAnswer } from './normalise';
export { formulaCell, parseTaskFile, type ParsedTaskFile } from './parseFile';

/** The task of a definition, or an Error whose message lists the error findings. */
export function customTask(def: TaskDefinition): Task {
  const { task, findings } = checkTaskDefinition(def);
  if (!task) {
    const errors = findings.filter((f) => f.severity === 'error').map((f) => f.message);
    throw new Error(`the task cannot run: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`);
  }
  return task;
}

/** What a task picker shows for a custom task, valid or not (the definition may still be a draft). */
export function customTaskCard(def: TaskDefinition | undefined): Pick<Task, 'title' | 'description' | 'difficultyRange'> {
  const title = def && typeof def.title === 'string' && def.title ? def.title : 'A task of your own';
  return { title, description: (def && typeof def.description === 'string' ? def.description : '') || 'A task you define: a generator or a data file.', difficultyRange: [1, 1] };
}

/** `count` problems drawn as a run would draw them (seeded); [] for a definition that cannot run. */
export function previewProblems(def: TaskDefinition, count: number, seed: number): Problem[] {
  const { task } = checkTaskDefinition(def);
  if (!task) return [];
  const rng = new Rng(seed, 'preview');
  const n = Math.max(0, Math.min(Math.floor(count), 100));
  const out: Problem[] = [];
  try {
    for (let i = 0; i < n; i++) out.push(task.generate(rng, 1));
  } catch {
    // A problem the check's probe did not see failed; the preview shows those before it.
  }
  return out;
}

/**
 * 16 hex digits naming a definition's content: FNV-1a (64 bit) of its JSON with sorted keys, so
 * key order and absent optional fields do not change it. Warm-start caches and links key on it.
 */
export function taskContentHash(def: TaskDefinition): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (const byte of new TextEncoder().encode(sortedJson(def))) {
    h ^= BigInt(byte);
    h = (h * prime) & mask;
  }
  return h.toString(16).padStart(16, '0');
}
