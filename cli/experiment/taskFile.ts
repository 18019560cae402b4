/**
 * `npm run experiment -- --task-file FILE`: a task file (CSV, JSON Lines or JSON data; a JSON
 * generator definition) read as untrusted input and put in place of a spec's task. Everything
 * that would stop the run is refused in words before any training (exit code 2): the file's size
 * and bytes, its form (src/core/tasks/custom/parseFile.ts) and its content
 * (src/core/tasks/custom/check.ts). The spec's data sizes shrink to what the task holds, keeping
 * a fifth of it for the held-out measure; warnings (a small held-out set, a file a model can
 * memorise) are returned for the caller to print.
 */
import { UsageError } from '../common/args';
import { readBoundedFile } from '../common/boundedFile';
import { terminalText } from '../common/terminalText';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { specWithTask } from '../../src/core/experiment/withTask';
import { parseTaskFile, TASK_LIMITS, type TaskDefinition, type TaskFinding } from '../../src/core/tasks/custom/index';

/** Findings name their lines in their own words ("line 14 has 3 fields"); a finding that does not gets a prefix. */
const where = (f: TaskFinding) => (f.line && !f.message.includes(`line ${f.line}`) ? `line ${f.line}: ` : '');

function refuse(file: string, errors: TaskFinding[]): never {
  const shown = errors.slice(0, 10).map((f) => `  ${where(f)}${f.message}`);
  const more = errors.length > 10 ? [`  (and ${errors.length - 10} more)`] : [];
  throw new UsageError(`${terminalText(file)} cannot be used as a task:\n${[...shown, ...more].map((l) => terminalText(l, true)).join('\n')}`);
}

/** The definition in a task file, or a UsageError naming every problem found (up to 10). */
export function readTaskFile(file: string): TaskDefinition {
  const bytes = readBoundedFile(file, TASK_LIMITS.fileBytes, 'a task file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${terminalText(file)} is not UTF-8 text (it looks binary); a task file is CSV, JSON Lines or JSON`);
  }
  const parsed = parseTaskFile(file, text);
  const errors = parsed.findings.filter((f) => f.severity === 'error');
  if (errors.length || !parsed.definition) refuse(file, errors.length ? errors : [{ severity: 'error', message: 'no task found in the file' }]);
  return parsed.definition;
}

/** `spec` with its task replaced by `def` (specWithTask): the spec and the warnings and notes to print. */
export function withTask(spec: ExperimentSpec, def: TaskDefinition, file: string): { spec: ExperimentSpec; findings: TaskFinding[] } {
  const r = specWithTask(spec, def);
  if (!r.ok) refuse(file, r.findings);
  return { spec: r.spec, findings: r.findings };
}

/** A finding as one line for the terminal. */
export function findingLine(f: TaskFinding): string {
  return terminalText(`${f.severity}: ${where(f)}${f.message}`, true);
}
