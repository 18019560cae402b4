/**
 * From a definition to a runnable Task, or the reasons it cannot run, in plain words. Everything
 * that would make a run fail is an error finding, found here before any training: the schema's
 * bounds, characters outside the allowed set, expression syntax (with its position), a template
 * whose problem space cannot fill the split, answers that are empty, too long or hold '>', too
 * many characters for the vocabulary. What would make a run mean little (a held-out set too small
 * to measure, a data set a tiny model can memorise) is a warning with the numbers.
 */
import { sortedJson } from '../../json';
import type { Rng } from '../../random';
import { makeVocabulary, VOCAB } from '../tokenizer';
import type { Problem, Task } from '../types';
import { TASK_LIMITS, TaskDefinitionSchema, type DataDefinition, type GeneratorDefinition, type TaskDefinition, type TaskFinding } from './definition';
import { CHECK_LIMITS, promptsAreDistinct, ruleSteps } from './cost';
import { evaluate, unknownCalls, type Env } from './evaluate';
import { ExprError, freeNames, parseExpr, showChar, type Node } from './expr';
import { isIntegerText, normaliseAnswer } from './normalise';
import { fileLines } from './parseFile';
import { fillTemplate, parseTemplate, widestValue, type TemplatePart } from './template';

export interface TaskSizes {
  labeledPool: number;
  rlPool: number;
  heldOut: number;
}

export interface CheckedTask {
  task?: Task;
  findings: TaskFinding[];
}

/** Below these a held-out measure or a data set says little (the warnings give the numbers). */
export const MEANINGFUL = Object.freeze({ heldOut: 100, rows: 500 });

/**
 * The half-width, in points of accuracy, of a 95% interval of one held-out evaluation of `n`
 * problems at its widest (accuracy 0.5): 1.96 * sqrt(0.25 / n), so 25 problems give ±20 points,
 * 6 give ±40 and 100 give ±10.
 */
export function heldOutHalfWidth(n: number): number {
  return Math.round((100 * 0.98) / Math.sqrt(n));
}

/** Problems a generator is run on exhaustively when its space is at most this big; else sampled. */
const ENUMERATE_UP_TO = 20_000;
const PROBE_SAMPLES = 2_000;

const SPECIAL = new Set(['_', '^', '$']);

/** Why a character cannot be in a task, or null when it can. */
export function refusedChar(ch: string): string | null {
  const code = ch.codePointAt(0) ?? 0;
  if (SPECIAL.has(ch)) return `character ${showChar(ch)} is kept for the model's own marks (${VOCAB.slice(0, 3).join(' ')})`;
  if (code >= 0x20 && code <= 0x7e) return null;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return `control character ${showChar(ch)} is not allowed`;
  if ((code >= 0x200b && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0xfeff || code === 0x061c) {
    return `invisible or bidirectional character ${showChar(ch)} is not allowed`;
  }
  return `character ${code <= 0xffff && code >= 0xa0 ? `'${ch}' (${showChar(ch)})` : showChar(ch)} is not allowed: tasks use printable ASCII`;
}

function firstRefused(text: string): string | null {
  for (const ch of text) {
    const why = refusedChar(ch);
    if (why) return why;
  }
  return null;
}

const error = (message: string, line?: number): TaskFinding => ({ severity: 'error', message, ...(line ? { line } : {}) });
const warning = (message: string, line?: number): TaskFinding => ({ severity: 'warning', message, ...(line ? { line } : {}) });

/**
 * What a generator's probe found (check.ts's costly part), as data: a check made in another
 * thread (the page's check worker) hands this back, and `adoptCheck` rebuilds the Task from it
 * without probing again.
 */
export interface GeneratorFacts {
  /** Distinct prompts (proven from the template, or counted). */
  count: number;
  completionMax: number;
  numeric: boolean;
  /** The check's note: the counts it found, in words. */
  note: string;
}

/** A check's outcome as plain data (structured-clone safe): its findings, and a generator's facts. */
export interface CheckSummary {
  findings: TaskFinding[];
  facts?: GeneratorFacts;
}

const byObject = new WeakMap<object, { key: string; checked: CheckedTask }>();
/** Checks by content: the same task in four run files, a link and the editor is checked once. */
const byContent = new Map<string, CheckedTask>();
const adopted = new Map<string, GeneratorFacts>();
const REMEMBERED = 32;

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
}

/**
 * A runnable Task for `def`, or the error findings that stop it; warnings and notes either way.
 * Its cost is bounded before any problem is made (cost.ts: at most CHECK_LIMITS.work steps, the
 * same on every machine); a task whose check would cost more is refused in words. Results are
 * kept by content, so checking the same task again is a lookup.
 */
export function checkTaskDefinition(def: TaskDefinition, sizes?: TaskSizes): CheckedTask {
  const base = cachedBuild(def).checked;
  if (!sizes || !base.task) return base;
  return { task: base.task, findings: [...base.findings, ...sizeFindings(base.task, sizes, def.kind === 'data')] };
}

/** `def`'s check as plain data, for a check made in a worker to be adopted where the Task is needed. */
export function checkSummary(def: TaskDefinition): CheckSummary {
  const { key, checked } = cachedBuild(def);
  const facts = key ? adopted.get(key) : undefined;
  return { findings: checked.findings, ...(facts ? { facts } : {}) };
}

/**
 * Take a check made elsewhere (checkSummary in a worker) as this thread's: a refused task keeps
 * its findings; an accepted generator is rebuilt from its facts without its probe. Only cheap
 * steps run here (the schema, parsing the rules, the template): never the problems.
 */
export function adoptCheck(def: TaskDefinition, summary: CheckSummary): void {
  const parsed = TaskDefinitionSchema.safeParse(def);
  if (!parsed.success) return;
  const key = contentKey(parsed.data, def);
  if (summary.findings.some((f) => f.severity === 'error')) {
    remember(byContent, key, { findings: summary.findings });
    return;
  }
  if (summary.facts) remember(adopted, key, summary.facts);
}

function contentKey(def: TaskDefinition, raw: unknown): string {
  const lines = raw !== null && typeof raw === 'object' ? fileLines.get(raw) : undefined;
  return `${sortedJson(def)}${lines ? `|lines ${lines.join(',')}` : ''}`;
}

function cachedBuild(raw: TaskDefinition): { key: string; checked: CheckedTask } {
  const isObject = raw !== null && typeof raw === 'object';
  const hit = isObject ? byObject.get(raw) : undefined;
  if (hit) return hit;
  const parsed = TaskDefinitionSchema.safeParse(raw);
  let out: { key: string; checked: CheckedTask };
  if (!parsed.success) {
    out = { key: '', checked: { findings: parsed.error.issues.slice(0, 10).map((i) => error(`${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)) } };
  } else {
    const key = contentKey(parsed.data, raw);
    const known = byContent.get(key);
    out = { key, checked: known ?? build(parsed.data, raw, key) };
    if (!known) remember(byContent, key, out.checked);
  }
  if (isObject) byObject.set(raw, out);
  return out;
}

function build(def: TaskDefinition, raw: unknown, key: string): CheckedTask {
  const findings: TaskFinding[] = [];
  const titleWhy = firstRefused(def.title + (def.description ?? '').replace(/[\n]/g, ' '));
  if (titleWhy) findings.push(error(`the title or description: ${titleWhy}`));
  const lines = raw !== null && typeof raw === 'object' ? fileLines.get(raw) : undefined;
  const task = def.kind === 'generator' ? buildGenerator(def, findings, key) : buildData(def, findings, lines);
  if (findings.some((f) => f.severity === 'error')) return { findings };
  return { task, findings };
}

/** The split's sizes against the task's problems, and whether the held-out measure means much. */
export function sizeFindings(task: Task, sizes: TaskSizes, isData: boolean): TaskFinding[] {
  const out: TaskFinding[] = [];
  const total = sizes.labeledPool + sizes.rlPool + sizes.heldOut;
  const available = task.problemCount(1);
  if (total > available) {
    out.push(error(
      `the split needs ${total} distinct problems (warm start ${sizes.labeledPool} + RL ${sizes.rlPool} + held-out ${sizes.heldOut}) ` +
        `but the task has only ${available}: widen the ranges, add rows, or lower the sizes`,
    ));
  }
  if (sizes.heldOut < MEANINGFUL.heldOut) {
    const half = heldOutHalfWidth(sizes.heldOut);
    out.push(warning(
      `only ${sizes.heldOut} held-out problems: one more right answer moves accuracy by ${(100 / sizes.heldOut).toFixed(1)} points, ` +
        `and a 95% interval is about ±${half} points wide; ${MEANINGFUL.heldOut} or more make the measure mean something`,
    ));
  }
  if (isData && available < MEANINGFUL.rows) {
    out.push(warning(
      `only ${available} rows: a model with thousands of parameters can memorise ${sizes.labeledPool} warm-start problems outright, ` +
        `so a high warm-start score may be memory, not skill; held-out accuracy (${sizes.heldOut} problems) is the honest measure`,
    ));
  }
  return out;
}

// ---- generators -------------------------------------------------------------------------------

function exprFinding(where: string, e: unknown): TaskFinding {
  if (e instanceof ExprError) return error(`${where}: ${e.message}`);
  return error(`${where}: ${e instanceof Error ? e.message : String(e)}`);
}

function textLiterals(node: Node, out: string[] = []): string[] {
  if (node.type === 'text') out.push(node.value);
  else if (node.type === 'unary') textLiterals(node.arg, out);
  else if (node.type === 'binary') { textLiterals(node.left, out); textLiterals(node.right, out); }
  else if (node.type === 'call') for (const a of node.args) textLiterals(a, out);
  return out;
}

function buildGenerator(def: GeneratorDefinition, findings: TaskFinding[], key: string): Task | undefined {
  const names = Object.keys(def.vars).sort();
  let parts: TemplatePart[] = [];
  try {
    parts = parseTemplate(def.template);
  } catch (e) {
    findings.push(exprFinding('template', e));
    return undefined;
  }
  const literals = parts.flatMap((p) => ('literal' in p ? [p.literal] : []));
  const literalWhy = firstRefused(literals.join(''));
  if (literalWhy) findings.push(error(`template: ${literalWhy}`));
  const used = new Set(parts.flatMap((p) => ('name' in p ? [p.name] : [])));
  // Own keys only: a placeholder {constructor} is not a variable because every object has one.
  for (const p of parts) if ('name' in p && !Object.hasOwn(def.vars, p.name)) findings.push(error(`template: {${p.name}} at position ${p.pos} is not a declared variable`));
  for (const n of names) {
    if (!used.has(n)) findings.push(error(`variable ${n} is not in the template, so problems differing only in ${n} would share a prompt`));
    const r = def.vars[n];
    if (r.min > r.max) findings.push(error(`variable ${n}: min ${r.min} is above max ${r.max}`));
  }
  const promptMax = parts.reduce((n, p) => n + ('literal' in p ? p.literal.length : (Object.hasOwn(def.vars, p.name) ? widestValue(def.vars[p.name].min, def.vars[p.name].max) : 0)), 0);
  if (promptMax > TASK_LIMITS.promptChars) findings.push(error(`the template's prompts reach ${promptMax} characters; the most is ${TASK_LIMITS.promptChars}`));

  const rules: { where: 'answer' | 'scratchpad'; node?: Node }[] = [];
  for (const where of ['answer', 'scratchpad'] as const) {
    const source = def[where];
    if (source === undefined || (where === 'scratchpad' && source.trim() === '')) continue;
    try {
      const node = parseExpr(source);
      for (const c of unknownCalls(node)) findings.push(error(`${where}: unknown function '${c.name}' at position ${c.pos}`));
      for (const n of freeNames(node)) if (!Object.hasOwn(def.vars, n)) findings.push(error(`${where}: '${n}' is not a declared variable`));
      for (const t of textLiterals(node)) {
        const why = firstRefused(t);
        if (why) findings.push(error(`${where}: ${why}`));
        if (t.includes('>')) findings.push(error(`${where}: the text "${t}" holds '>', which marks where the answer starts`));
      }
      rules.push({ where, node });
    } catch (e) {
      findings.push(exprFinding(where, e));
    }
  }
  if (findings.some((f) => f.severity === 'error')) return undefined;
  const answerRule = rules.find((r) => r.where === 'answer')!.node!;
  const scratchpadRule = rules.find((r) => r.where === 'scratchpad')?.node;

  const count = names.reduce((n, k) => n * (def.vars[k].max - def.vars[k].min + 1), 1);
  const raw = (env: Env): { prompt: string; answer: string; scratchpad: string } => ({
    prompt: fillTemplate(parts, env),
    answer: String(evaluate(answerRule, env)),
    scratchpad: scratchpadRule ? String(evaluate(scratchpadRule, env)) : '',
  });
  const describe = (env: Env) => names.map((n) => `${n}=${env[n]}`).join(', ');
  const problemError = (env: Env, p: { answer: string; scratchpad: string }): string | null => {
    if (p.answer.trim() === '') return `the answer is empty at ${describe(env)}`;
    if (p.answer.length > TASK_LIMITS.answerChars) return `the answer has ${p.answer.length} characters at ${describe(env)}; the most is ${TASK_LIMITS.answerChars}`;
    if (p.scratchpad.length > TASK_LIMITS.scratchpadChars) return `the scratchpad has ${p.scratchpad.length} characters at ${describe(env)}; the most is ${TASK_LIMITS.scratchpadChars}`;
    if (p.answer.includes('>') || p.scratchpad.includes('>')) return `the answer or scratchpad holds '>' at ${describe(env)}`;
    return null;
  };
  const chars = new Set<string>(['-', ...literals.join(''), ...rules.flatMap((r) => (r.node ? textLiterals(r.node).join('') : '')).join('')]);
  const vocabulary = makeVocabulary(chars);
  if (vocabulary.size > TASK_LIMITS.vocabulary) {
    findings.push(error(`the task uses ${vocabulary.size - VOCAB.length} characters of its own; with the ${VOCAB.length} shared tokens that is ${vocabulary.size}, above the cap of ${TASK_LIMITS.vocabulary}`));
    return undefined;
  }

  let facts = adopted.get(key);
  if (!facts) {
    facts = probe();
    if (!facts) return undefined;
    remember(adopted, key, facts);
  }
  findings.push({ severity: 'note', message: facts.note });
  const { numeric, completionMax } = facts;
  const distinct = facts.count;

  /**
   * The probe, within CHECK_LIMITS.work steps proven before it starts (cost.ts): every problem
   * when the space is small enough, else every corner and seeded samples; and the distinct
   * prompts, proven from the template or counted one by one.
   */
  function probe(): GeneratorFacts | undefined {
    const perProblem = parts.length + 1 + ruleSteps(answerRule, def.vars) + (scratchpadRule ? ruleSteps(scratchpadRule, def.vars) : 0);
    const corners = 2 ** names.length;
    const enumerate = count <= ENUMERATE_UP_TO && count * perProblem <= CHECK_LIMITS.work;
    const probes = enumerate ? count : corners + PROBE_SAMPLES;
    if (probes * perProblem > CHECK_LIMITS.work) {
      findings.push(error(
        `checking this task would take up to ${(probes * perProblem).toLocaleString('en')} steps (${probes.toLocaleString('en')} problems of up to ${perProblem.toLocaleString('en')} steps each); ` +
          `a check may take at most ${CHECK_LIMITS.work.toLocaleString('en')}: shorten the answer or scratchpad rule`,
      ));
      return undefined;
    }
    const distinctByTemplate = enumerate || promptsAreDistinct(parts, def.vars);
    const promptWork = distinctByTemplate ? 0 : count * (parts.length + 1);
    if (probes * perProblem + promptWork > CHECK_LIMITS.work) {
      const placeholders = parts.flatMap((p) => ('name' in p ? [`{${p.name}}`] : [])).join(', ');
      findings.push(error(
        `the template writes ${placeholders} with only digits or '-' between some of them, so two problems can share a prompt ("{a}{b}" writes a=1, b=23 and a=12, b=3 both as "123"); ` +
          `the check counts such prompts one by one, and these ranges make ${count.toLocaleString('en')} problems, past the ${Math.floor((CHECK_LIMITS.work - probes * perProblem) / (parts.length + 1)).toLocaleString('en')} it can count: ` +
          `put a character such as ',' or ' ' between the variables, or narrow the ranges`,
      ));
      return undefined;
    }
    const ranges = names.map((n) => def.vars[n]);
    const env: Record<string, number> = Object.create(null);
    const prompts = new Set<string>();
    let numericSeen = true;
    let longest = 1;
    const problemErrors: string[] = [];
    const visit = (): boolean => {
      let p;
      try {
        p = raw(env);
      } catch (e) {
        problemErrors.push(e instanceof ExprError ? `${e.message} at ${describe(env)}` : String(e));
        return problemErrors.length < 3;
      }
      const why = problemError(env, p);
      if (why) { problemErrors.push(why); return problemErrors.length < 3; }
      if (enumerate) prompts.add(p.prompt);
      if (!isIntegerText(p.answer)) numericSeen = false;
      longest = Math.max(longest, p.scratchpad.length + 1 + p.answer.length);
      return true;
    };
    // Every assignment in order (an odometer over the sorted names), calling `each` on each.
    const everyAssignment = (each: () => boolean) => {
      ranges.forEach((r, i) => { env[names[i]] = r.min; });
      for (;;) {
        if (!each()) return;
        let i = names.length - 1;
        while (i >= 0 && env[names[i]] === ranges[i].max) { env[names[i]] = ranges[i].min; i--; }
        if (i < 0) return;
        env[names[i]]++;
      }
    };
    if (enumerate) everyAssignment(visit);
    else {
      let going = true;
      for (let mask = 0; mask < corners && going; mask++) {
        names.forEach((n, i) => { env[n] = mask & (1 << i) ? ranges[i].max : ranges[i].min; });
        going = visit();
      }
      let state = 0x9e3779b9;
      const next = () => { state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return state / 4294967296; };
      for (let k = 0; k < PROBE_SAMPLES && going; k++) {
        names.forEach((n, i) => { env[n] = ranges[i].min + Math.floor(next() * (ranges[i].max - ranges[i].min + 1)); });
        going = visit();
      }
    }
    for (const m of problemErrors) findings.push(error(m));
    if (problemErrors.length > 0) return undefined;
    if (!enumerate && !distinctByTemplate) everyAssignment(() => { prompts.add(fillTemplate(parts, env)); return true; });
    const distinctPrompts = distinctByTemplate && !enumerate ? count : prompts.size;
    const shared = count - distinctPrompts;
    return {
      count: distinctPrompts,
      completionMax: longest,
      numeric: numericSeen,
      note:
        `${distinctPrompts} distinct problems${shared > 0 ? ` (the variables make ${count}, but ${shared} share a prompt with another)` : ''}; ` +
        `prompts up to ${promptMax} characters, completions up to ${longest}${enumerate ? '' : ` (longest of ${probes} sampled problems)`}; answers compared ${numericSeen ? 'as numbers' : 'as text'}`,
    };
  }

  const normalise = (s: string) => normaliseAnswer(s, numeric);
  return customTask(def, vocabulary, normalise, numeric, {
    promptLength: promptMax,
    completionLength: completionMax,
    count: distinct,
    generate(rng) {
      const env: Record<string, number> = {};
      for (const n of names) env[n] = def.vars[n].min + rng.int(def.vars[n].max - def.vars[n].min + 1);
      let p;
      try {
        p = raw(env);
      } catch (e) {
        throw new Error(`task "${def.title}": ${e instanceof Error ? e.message : String(e)} at ${describe(env)}`);
      }
      const why = problemError(env, p) ?? (p.scratchpad.length + 1 + p.answer.length > completionMax ? `a completion of ${p.scratchpad.length + 1 + p.answer.length} characters at ${describe(env)} is longer than any the check saw (${completionMax})` : null);
      if (why) throw new Error(`task "${def.title}": ${why}`);
      return { prompt: p.prompt, answer: normalise(p.answer)!, scratchpad: p.scratchpad };
    },
  });
}

// ---- data -------------------------------------------------------------------------------------

function buildData(def: DataDefinition, findings: TaskFinding[], lines?: readonly number[]): Task | undefined {
  const rows: Problem[] = [];
  const firstLine = new Map<string, { line: number; answer: string }>();
  const chars = new Set<string>();
  let numeric = true;
  let promptMax = 1;
  let completionMax = 1;
  let errors = 0;
  // A definition read by parseTaskFile names its file's lines; any other numbers its rows from 1.
  const unit = lines ? 'line' : 'row';
  const rowError = (message: string, line: number) => {
    errors++;
    if (errors <= 50) findings.push(error(message, line));
  };
  def.rows.forEach((row, i) => {
    const line = lines?.[i] ?? i + 1;
    const scratchpad = row.scratchpad ?? '';
    for (const [field, value] of [['prompt', row.prompt], ['answer', row.answer], ['scratchpad', scratchpad]] as const) {
      const why = firstRefused(value);
      if (why) { rowError(`${why} (the ${field} on ${unit} ${line})`, line); return; }
    }
    if (row.prompt === '') return rowError(`prompt empty on ${unit} ${line}`, line);
    if (row.answer.trim() === '') return rowError(`answer empty on ${unit} ${line}`, line);
    if (row.prompt.length > TASK_LIMITS.promptChars) return rowError(`prompt on ${unit} ${line} has ${row.prompt.length} characters; the most is ${TASK_LIMITS.promptChars}`, line);
    if (row.answer.length > TASK_LIMITS.answerChars) return rowError(`answer on ${unit} ${line} has ${row.answer.length} characters; the most is ${TASK_LIMITS.answerChars}`, line);
    if (scratchpad.length > TASK_LIMITS.scratchpadChars) return rowError(`scratchpad on ${unit} ${line} has ${scratchpad.length} characters; the most is ${TASK_LIMITS.scratchpadChars}`, line);
    if (row.answer.includes('>') || scratchpad.includes('>')) return rowError(`the answer or scratchpad on ${unit} ${line} holds '>', which marks where the answer starts`, line);
    const seen = firstLine.get(row.prompt);
    if (seen) {
      if (seen.answer.trim() !== row.answer.trim()) rowError(`prompt on ${unit} ${line} repeats ${unit} ${seen.line} with another answer ("${row.answer}" against "${seen.answer}")`, line);
      else findings.push(warning(`prompt on ${unit} ${line} repeats ${unit} ${seen.line}; the repeat is left out`, line));
      return;
    }
    firstLine.set(row.prompt, { line, answer: row.answer });
    for (const ch of row.prompt + row.answer + scratchpad) chars.add(ch);
    if (!isIntegerText(row.answer)) numeric = false;
    promptMax = Math.max(promptMax, row.prompt.length);
    completionMax = Math.max(completionMax, scratchpad.length + 1 + row.answer.trim().length);
    rows.push({ prompt: row.prompt, answer: row.answer, scratchpad });
  });
  if (errors > 50) findings.push(error(`${errors - 50} more ${unit}s with errors`));
  if (errors > 0) return undefined;
  const vocabulary = makeVocabulary(chars);
  if (vocabulary.size > TASK_LIMITS.vocabulary) {
    findings.push(error(`the rows use ${vocabulary.size - VOCAB.length} characters beyond the ${VOCAB.length} shared tokens; the vocabulary holds at most ${TASK_LIMITS.vocabulary} in all`));
    return undefined;
  }
  const normalise = (s: string) => normaliseAnswer(s, numeric);
  const canonical = rows.map((r) => ({ ...r, answer: normalise(r.answer)! }));
  findings.push({ severity: 'note', message: `${rows.length} distinct prompts; prompts up to ${promptMax} characters, completions up to ${completionMax}; answers compared ${numeric ? 'as numbers' : 'as text'}` });
  return customTask(def, vocabulary, normalise, numeric, {
    promptLength: promptMax,
    completionLength: completionMax,
    count: canonical.length,
    generate: (rng) => canonical[rng.int(canonical.length)],
  });
}

// ---- the Task ---------------------------------------------------------------------------------

function customTask(
  def: TaskDefinition,
  vocabulary: ReturnType<typeof makeVocabulary>,
  normalise: (s: string) => string | null,
  numeric: boolean,
  shape: { promptLength: number; completionLength: number; count: number; generate(rng: Rng): Problem },
): Task {
  const one = (d: number) => {
    if (d !== 1) throw new RangeError(`a custom task has one difficulty, 1; got ${d}`);
  };
  return {
    id: 'custom',
    title: def.title,
    description: def.description ?? '',
    difficultyRange: [1, 1],
    defaultDifficulty: 1,
    promptLength(d) { one(d); return shape.promptLength; },
    maxCompletionLength(d) { one(d); return shape.completionLength; },
    problemCount(d) { one(d); return shape.count; },
    generate(rng, d) { one(d); return shape.generate(rng); },
    isWellFormedAnswer(s) { return s.length > 0 && s.length <= TASK_LIMITS.answerChars && !s.includes('>'); },
    vocabulary,
    normaliseAnswer: normalise,
    numericAnswers: numeric,
  };
}
