/**
 * The task editor's model, pure: the editor's text fields <-> a task definition, and what the
 * editor shows for a definition (findings, a preview, the split). The definition is what travels
 * (spec, link, run file, room); the fields are only how a student writes it.
 *
 *   variables    one per line, "a = 10..99" (also "a: 10 to 99", "a 10 99")
 *   a data task  the text of a CSV, JSON Lines or JSON file (parseTaskFile reads it)
 */
import { getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { specWithTask } from '../../core/experiment/withTask';
import {
  checkTaskDefinition,
  parseTaskFile,
  previewProblems,
  TASK_LIMITS,
  type DataDefinition,
  type GeneratorDefinition,
  type TaskDefinition,
  type TaskFinding,
} from '../../core/tasks/custom/index';
import { fileLines } from '../../core/tasks/custom/parseFile';
import type { Problem } from '../../core/tasks/types';
import { GALLERY, type GalleryTask } from '../../core/tasks/custom/gallery';
import { taskContentHash } from '../../core/tasks/custom/index';

export interface GeneratorFields {
  title: string;
  template: string;
  /** One variable a line: "a = 10..99". */
  vars: string;
  answer: string;
  /** Empty: no scratchpad. */
  scratchpad: string;
}

/**
 * The fields of an editor opened over no generator (a built-in task, or nothing written yet):
 * empty. A field holds only what the student wrote or chose: an example left in a field reads as
 * the grey hint under it, and its rule stays behind when the student writes another task (a
 * scratchpad of two-digit addition under "{a}*{b}=" wrote the sum before the product's last digit).
 * The examples are the hints under the fields.
 */
export const EMPTY_FIELDS: GeneratorFields = { title: '', template: '', vars: '', answer: '', scratchpad: '' };

/** What the editor holds when it opens over the experiment's task `def` (undefined: a built-in task). */
export function editorStart(def: TaskDefinition | undefined): { mode: 'generator' | 'data'; fields: GeneratorFields; dataTitle: string; dataText: string } {
  return {
    mode: def?.kind ?? 'generator',
    fields: def?.kind === 'generator' ? fieldsOf(def) : EMPTY_FIELDS,
    dataTitle: def?.kind === 'data' ? def.title : '',
    dataText: def?.kind === 'data' ? dataTextOf(def) : '',
  };
}

/** What the findings say while nothing is written: how to begin, not an error. */
export const NOTHING_WRITTEN: TaskFinding = {
  severity: 'note',
  message: 'Nothing written yet: a prompt template, its variables and an answer rule make a task (each field has an example under it), or paste rows, or open a task file.',
};

/** A worked example of the fields (two-digit addition, the scratchpad writing the sum's digits backwards), for the model's tests. */
export const EXAMPLE_GENERATOR: GeneratorFields = {
  title: 'Two-digit addition',
  template: '{a}+{b}=',
  vars: 'a = 10..99\nb = 10..99',
  answer: 'a+b',
  scratchpad: 'join(reverse(a+b), ",")',
};

export const EXAMPLE_DATA = 'prompt,answer\n3<7=,yes\n8<2=,no\n';

const VAR_LINE = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:=|:)?\s*(-?\d+)\s*(?:\.\.|to|,|\s)\s*(-?\d+)\s*$/;

/** The variables' text -> ranges, or findings naming the lines that are not "name = min..max". */
export function readVars(text: string): { vars: Record<string, { min: number; max: number }>; findings: TaskFinding[] } {
  const vars: Record<string, { min: number; max: number }> = Object.create(null);
  const findings: TaskFinding[] = [];
  const lines = text.split('\n');
  if (lines.length > 50) return { vars: {}, findings: [{ severity: 'error', message: `variables: ${lines.length} lines; a generator has at most ${TASK_LIMITS.vars} variables` }] };
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const m = VAR_LINE.exec(raw.slice(0, 80));
    if (!m) {
      findings.push({ severity: 'error', message: `variables, line ${i + 1}: write a variable as "name = min..max", e.g. "a = 10..99"` });
      return;
    }
    const [, name, lo, hi] = m;
    if (name in vars) findings.push({ severity: 'error', message: `variables, line ${i + 1}: "${name}" is declared twice` });
    const min = Number(lo);
    const max = Number(hi);
    vars[name] = { min: Math.min(min, max), max: Math.max(min, max) };
  });
  return { vars: { ...vars }, findings };
}

/** The fields -> a generator definition (the check says whether it runs). */
export function generatorOf(fields: GeneratorFields): { definition: GeneratorDefinition | null; findings: TaskFinding[] } {
  if (!fields.template.trim() && !fields.vars.trim() && !fields.answer.trim() && !fields.scratchpad.trim()) return { definition: null, findings: [NOTHING_WRITTEN] };
  const { vars, findings } = readVars(fields.vars);
  if (findings.length) return { definition: null, findings };
  const definition: GeneratorDefinition = {
    kind: 'generator',
    title: fields.title.trim() || 'My task',
    template: fields.template,
    vars,
    answer: fields.answer,
    ...(fields.scratchpad.trim() ? { scratchpad: fields.scratchpad } : {}),
  };
  return { definition, findings: [] };
}

/** A generator definition -> the editor's fields. */
export function fieldsOf(def: GeneratorDefinition): GeneratorFields {
  return {
    title: def.title,
    template: def.template,
    vars: Object.entries(def.vars)
      .map(([name, r]) => `${name} = ${r.min}..${r.max}`)
      .join('\n'),
    answer: def.answer,
    scratchpad: def.scratchpad ?? '',
  };
}

/** A data definition -> JSON Lines text (exact for any text: no CSV quoting to get wrong). */
export function dataTextOf(def: DataDefinition): string {
  return def.rows.map((r) => JSON.stringify(r.scratchpad ? { prompt: r.prompt, answer: r.answer, scratchpad: r.scratchpad } : { prompt: r.prompt, answer: r.answer })).join('\n') + '\n';
}

/** Text of a data file -> a definition, or the findings (lines named) that stop it. */
export function dataOf(fileName: string, text: string, title?: string): { definition: TaskDefinition | null; findings: TaskFinding[] } {
  const parsed = parseTaskFile(fileName, text);
  const errors = parsed.findings.filter((f) => f.severity === 'error');
  if (!parsed.definition || errors.length) return { definition: null, findings: parsed.findings.length ? parsed.findings : [{ severity: 'error', message: 'no task found in the text' }] };
  const named = title?.trim().slice(0, TASK_LIMITS.titleChars);
  if (!named || parsed.definition.kind !== 'data' || named === parsed.definition.title) return { definition: parsed.definition, findings: parsed.findings };
  const definition = { ...parsed.definition, title: named };
  // The check names a row by its line in the file: the renamed definition keeps the file's lines.
  const lines = fileLines.get(parsed.definition);
  if (lines) fileLines.set(definition, lines);
  return { definition, findings: parsed.findings };
}

/** What the editor shows for a definition: findings, a preview and the run's spec (or why none). */
export interface TaskReview {
  findings: TaskFinding[];
  preview: Problem[];
  /** Distinct problems the task has (0 when it cannot run). */
  problems: number;
  /** The experiment with this task, when it can run. */
  spec: ExperimentSpec | null;
}

export const PREVIEW_COUNT = 8;

export function reviewTask(base: ExperimentSpec, def: TaskDefinition | null, readFindings: TaskFinding[]): TaskReview {
  if (!def) return { findings: readFindings, preview: [], problems: 0, spec: null };
  const checked = checkTaskDefinition(def);
  if (!checked.task) return { findings: [...readFindings.filter((f) => f.severity !== 'error'), ...checked.findings], preview: [], problems: 0, spec: null };
  const withTask = specWithTask(base, def);
  const preview = previewProblems(def, PREVIEW_COUNT, base.seed);
  const problems = checked.task.problemCount(1);
  // The file's own findings (repeats left out, ...) first, then the check's, each once.
  const seen = new Set<string>();
  const findings = [...readFindings, ...withTask.findings].filter((f) => {
    const key = `${f.severity}|${f.line ?? ''}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { findings, preview, problems, spec: withTask.ok ? withTask.spec : null };
}

/** "12+7=" -> "1,9>19": the completion a model writes (scratchpad, '>', answer; no scratchpad: the answer). */
export function completionOf(p: Problem): string {
  return p.scratchpad ? `${p.scratchpad}>${p.answer}` : p.answer;
}

/** The experiment a new task goes into: the draft, with the preset's data sizes and warm-start sets. */
export function baseFor(draft: ExperimentSpec, presetId: string): ExperimentSpec {
  const preset = getPreset(presetId)?.spec;
  if (!preset) return draft;
  const examples = new Map(preset.members.map((m) => [m.id, m.warmStartExamples]));
  return {
    ...draft,
    data: preset.data,
    members: draft.members.map((m) => (examples.has(m.id) ? { ...m, warmStartExamples: examples.get(m.id)! } : m)),
  };
}

/** The draft running gallery task `task`, with the task's scratchpad setting; null when it cannot run here. */
export function withGalleryTask(draft: ExperimentSpec, presetId: string, task: GalleryTask): ExperimentSpec | null {
  const base = baseFor(draft, presetId);
  const r = specWithTask({ ...base, task: { ...base.task, scratchpad: task.scratchpad } }, task.definition);
  return r.ok ? r.spec : null;
}

const galleryByHash = new Map(GALLERY.map((t) => [taskContentHash(t.definition), t]));

/** The gallery task a definition is, if it is one (by content). */
export function galleryTaskOf(def: TaskDefinition | undefined): GalleryTask | null {
  return def ? (galleryByHash.get(taskContentHash(def)) ?? null) : null;
}
