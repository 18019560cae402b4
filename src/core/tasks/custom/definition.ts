/**
 * A task of one's own, as data: a generator (a prompt template over integer variables, an answer
 * rule and an optional scratchpad rule, in the language of expr.ts) or a table of rows. This is
 * the form that travels in specs, share links, run files and task files; the schema bounds every
 * size, and check.ts turns a definition into a runnable Task or says in words why it cannot.
 */
import { z } from '../../zod';

export const TASK_LIMITS = Object.freeze({
  titleChars: 60,
  descriptionChars: 600,
  /** Characters in one prompt (a generator's template before filling is bounded the same way). */
  promptChars: 32,
  answerChars: 24,
  scratchpadChars: 40,
  /** Named variables of a generator. */
  vars: 6,
  /** Largest absolute value a variable's range may reach. */
  varAbs: 999_999_999,
  /** Rows of a data task. */
  rows: 5000,
  /** Bytes of a task file before it is read at all. */
  fileBytes: 512 * 1024,
  /** The whole vocabulary, the 18 shared tokens included. */
  vocabulary: 64,
});

export const VAR_NAME = /^[a-z][a-z0-9_]{0,11}$/;

const text = (max: number) => z.string().max(max);

export const VarRangeSchema = z.strictObject({
  min: z.number().int().min(-TASK_LIMITS.varAbs).max(TASK_LIMITS.varAbs),
  max: z.number().int().min(-TASK_LIMITS.varAbs).max(TASK_LIMITS.varAbs),
});

export const GeneratorDefinitionSchema = z.strictObject({
  kind: z.literal('generator'),
  title: text(TASK_LIMITS.titleChars).min(1),
  description: text(TASK_LIMITS.descriptionChars).optional(),
  /** e.g. "{a}+{b}=": literal characters and {name} placeholders. */
  template: text(2 * TASK_LIMITS.promptChars).min(1),
  vars: z
    .record(z.string().regex(VAR_NAME, 'variable names are 1-12 lowercase letters, digits or _, starting with a letter'), VarRangeSchema)
    .refine((v) => Object.keys(v).length >= 1 && Object.keys(v).length <= TASK_LIMITS.vars, `a generator has 1 to ${TASK_LIMITS.vars} variables`),
  /** The answer rule, e.g. "a+b". */
  answer: text(300).min(1),
  /** The scratchpad rule, e.g. 'join(digits(a), ",")'; absent = no scratchpad. */
  scratchpad: text(300).optional(),
});

export const DataRowSchema = z.strictObject({
  prompt: text(TASK_LIMITS.promptChars * 4),
  answer: text(TASK_LIMITS.answerChars * 4),
  scratchpad: text(TASK_LIMITS.scratchpadChars * 4).optional(),
});

export const DataDefinitionSchema = z.strictObject({
  kind: z.literal('data'),
  title: text(TASK_LIMITS.titleChars).min(1),
  description: text(TASK_LIMITS.descriptionChars).optional(),
  rows: z.array(DataRowSchema).min(1).max(TASK_LIMITS.rows),
});

export const TaskDefinitionSchema = z.discriminatedUnion('kind', [GeneratorDefinitionSchema, DataDefinitionSchema]);

export type GeneratorDefinition = z.infer<typeof GeneratorDefinitionSchema>;
export type DataDefinition = z.infer<typeof DataDefinitionSchema>;
export type DataRow = z.infer<typeof DataRowSchema>;
export type TaskDefinition = z.infer<typeof TaskDefinitionSchema>;

/** One thing found in a definition or a file, in plain words; `line` is 1-based where there is one. */
export interface TaskFinding {
  line?: number;
  severity: 'error' | 'warning' | 'note';
  message: string;
}
