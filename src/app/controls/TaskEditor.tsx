/**
 * A task of one's own, in the page: a generator written in fields, or a data file opened or
 * pasted, with a live preview of its problems and the check's findings line by line
 * (docs/TASKS.md). "Use this task" puts it into the experiment; nothing reaches the draft while
 * an error finding stands. Every text here is untrusted and is shown as text.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { TASK_LIMITS, taskContentHash, type TaskDefinition, type TaskFinding } from '../../core/tasks/custom/index';
import { useLab } from '../store';
import {
  baseFor,
  completionOf,
  dataOf,
  editorStart,
  fieldsOf,
  generatorOf,
  NOTHING_WRITTEN,
  reviewTask,
  type GeneratorFields,
  type TaskReview,
} from './taskEditorModel';
import { checkTasksOffThread } from '../taskCheck';

/** The review shown while a check runs in the worker. */
const CHECKING: TaskReview = { findings: [], preview: [], problems: 0, spec: null };

type Mode = 'generator' | 'data';

/** Quiet time after a keystroke before the task is checked again. */
const CHECK_DELAY_MS = 200;
/** Findings listed at most (the rest are counted). */
const SHOWN_FINDINGS = 12;

/** `value` once it has stayed the same (by identity) for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return current;
}

export function TaskEditor({ onClose }: { onClose?: () => void }) {
  const draft = useLab((s) => s.draft);
  const presetId = useLab((s) => s.presetId);
  const edit = useLab((s) => s.editDraft);
  const current = draft.task.id === 'custom' ? draft.task.definition : undefined;

  // Only what the student wrote or chose: the experiment's own task, or nothing (editorStart).
  const [start] = useState(() => editorStart(current));
  const [mode, setMode] = useState<Mode>(start.mode);
  const [fields, setFields] = useState<GeneratorFields>(start.fields);
  const [dataTitle, setDataTitle] = useState(start.dataTitle);
  const [dataText, setDataText] = useState(start.dataText);
  const [fileName, setFileName] = useState('pasted.csv');
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [used, setUsed] = useState<string | null>(null);

  // The experiment's task changed elsewhere (a link, a run file, a gallery task) to a task of one's
  // own: the fields follow it, so no rule of the task before stays behind. A change to a built-in
  // task keeps what the student wrote; "Use this task" is this editor's own change.
  const currentKey = useMemo(() => (current ? taskContentHash(current) : null), [current]);
  const shown = useRef(currentKey);
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (currentKey === shown.current) return;
    shown.current = currentKey;
    if (!current || currentKey === applied.current) return;
    const next = editorStart(current);
    setMode(next.mode);
    setFields(next.fields);
    setDataTitle(next.dataTitle);
    setDataText(next.dataText);
    setUsed(null);
  }, [currentKey, current]);

  // One object per edit (not per render): the debounce then settles, and the check runs once per edit.
  const edited = useMemo(() => ({ mode, fields, dataTitle, dataText, fileName }), [mode, fields, dataTitle, dataText, fileName]);
  const input = useDebounced(edited, CHECK_DELAY_MS);
  const read = useMemo((): { definition: TaskDefinition | null; findings: TaskFinding[] } => {
    if (input.mode === 'generator') return generatorOf(input.fields);
    if (!input.dataText.trim()) return { definition: null, findings: [NOTHING_WRITTEN] };
    const name = /\.(jsonl|json|csv)$/i.test(input.fileName) ? input.fileName : guessName(input.dataText);
    return dataOf(name, input.dataText, input.dataTitle);
  }, [input]);
  const base = useMemo(() => baseFor(draft, presetId), [draft, presetId]);
  // How many times the task was checked: once per settled edit (data-checks; an idle editor checks nothing).
  const checks = useRef(0);
  // The check runs in a worker (src/app/taskCheck.ts); the review below finds it made. Until then
  // the editor says it is checking, and nothing can be used.
  const [review, setReview] = useState<TaskReview>(CHECKING);
  useEffect(() => {
    let current = true;
    setReview(CHECKING);
    void checkTasksOffThread(read.definition ? [read.definition] : []).then(() => {
      if (!current) return;
      checks.current += 1;
      setReview(reviewTask(base, read.definition, read.findings));
    });
    return () => {
      current = false;
    };
  }, [base, read]);
  const checking = review === CHECKING;
  const errors = review.findings.filter((f) => f.severity === 'error');

  async function openFile(file: File | undefined) {
    setUsed(null);
    if (!file) return;
    if (file.size > TASK_LIMITS.fileBytes) {
      setFileNote(`${file.name} has ${file.size.toLocaleString('en')} bytes; a task file may have at most ${TASK_LIMITS.fileBytes.toLocaleString('en')}. Nothing was read.`);
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      setFileNote(`${file.name} is not UTF-8 text (it looks binary); a task file is CSV, JSON Lines or JSON. Nothing was read.`);
      return;
    }
    setFileNote(null);
    const parsed = dataOf(file.name, text);
    if (parsed.definition?.kind === 'generator') {
      setMode('generator');
      setFields(fieldsOf(parsed.definition));
      return;
    }
    setMode('data');
    setFileName(file.name);
    setDataTitle(parsed.definition?.title ?? file.name.replace(/\.[^.]*$/, '').slice(0, TASK_LIMITS.titleChars));
    setDataText(text);
  }

  function applyTask() {
    if (!review.spec) return;
    const spec = review.spec;
    if (spec.task.definition) applied.current = taskContentHash(spec.task.definition);
    edit(() => spec);
    setUsed(`The experiment now runs "${spec.task.definition?.title ?? 'your task'}" (${spec.data.labeledPool} warm-start, ${spec.data.rlPool} RL and ${spec.data.heldOut} held-out problems). Press Start.`);
  }

  const [varsRefused, varsFit] = useLimit(400, 'the variables box');
  const set = (k: keyof GeneratorFields) => (e: { target: { value: string } }) => {
    setUsed(null);
    setFields((f) => ({ ...f, [k]: e.target.value }));
  };

  return (
    <section className="task-editor" data-testid="task-editor" data-checks={checks.current} aria-label="Your own task">
      <div className="task-editor-head">
        <strong>Your own task</strong>
        <span className="sub">
          Write a generator or open a data file (docs/TASKS.md describes both). The preview and the findings follow every edit.
        </span>
      </div>
      <div className="field-row" role="radiogroup" aria-label="How the task is defined">
        {(['generator', 'data'] as const).map((m) => (
          <label key={m} className="task-mode">
            <input type="radio" name="task-mode" value={m} checked={mode === m} data-testid={`task-mode-${m}`} onChange={() => (setUsed(null), setMode(m))} />
            {m === 'generator' ? 'Generator' : 'Data rows'}
          </label>
        ))}
      </div>
      <div className="field">
        <label htmlFor="task-file">Open a task file (.csv, .jsonl, .json)</label>
        <input id="task-file" type="file" accept=".csv,.jsonl,.json,text/csv,application/json" data-testid="task-file" onChange={(e) => void openFile(e.target.files?.[0])} />
        {fileNote && (
          <span className="field-problem" role="alert" data-testid="task-file-note">
            {fileNote}
          </span>
        )}
      </div>
      {mode === 'generator' ? (
        <>
          <TextField id="task-title" label="Title" value={fields.title} onChange={set('title')} max={TASK_LIMITS.titleChars} />
          <TextField id="task-template" label="Prompt template" hint='e.g. {a}+{b}= : text, and variables in braces' value={fields.template} onChange={set('template')} max={2 * TASK_LIMITS.promptChars} />
          <div className="field">
            <label htmlFor="task-vars">Variables (one a line: name = min..max)</label>
            <textarea id="task-vars" rows={3} value={fields.vars} data-testid="task-vars" spellCheck={false} onChange={(e) => varsFit(e.target.value) && set('vars')(e)} />
            <Refused id="task-vars" text={varsRefused} />
          </div>
          <TextField id="task-answer" label="Answer rule" hint="e.g. a+b, max(a, b), reverse(a), if(a < b, &quot;yes&quot;, &quot;no&quot;)" value={fields.answer} onChange={set('answer')} max={300} />
          <TextField id="task-scratchpad" label="Scratchpad rule (optional)" hint='the working the model writes before its answer, e.g. join(reverse(a+b), ",")' value={fields.scratchpad} onChange={set('scratchpad')} max={300} />
        </>
      ) : (
        <>
          <TextField id="task-data-title" label="Title" value={dataTitle} onChange={(e) => (setUsed(null), setDataTitle(e.target.value))} max={TASK_LIMITS.titleChars} />
          <div className="field">
            <label htmlFor="task-data">Rows (CSV with a header prompt,answer[,scratchpad], or JSON Lines)</label>
            <textarea
              id="task-data"
              rows={6}
              value={dataText}
              data-testid="task-data"
              spellCheck={false}
              onChange={(e) => {
                setUsed(null);
                // A text past a task file's limit is refused whole, as the file would be: never cut to fit.
                const bytes = new TextEncoder().encode(e.target.value).length;
                if (bytes > TASK_LIMITS.fileBytes) {
                  setFileNote(`The rows would have ${bytes.toLocaleString('en')} bytes; the rows box, like a task file, holds at most ${TASK_LIMITS.fileBytes.toLocaleString('en')}. Nothing was changed.`);
                  return;
                }
                setFileNote(null);
                setFileName('pasted');
                setDataText(e.target.value);
              }}
            />
          </div>
        </>
      )}
      {checking ? (
        <p className="sub" role="status" data-testid="task-checking">
          Checking the task…
        </p>
      ) : (
        <TaskFindings findings={review.findings} />
      )}
      {review.preview.length > 0 && (
        <div className="task-preview">
          <span className="sub" data-testid="task-count">
            {review.problems.toLocaleString('en')} distinct problems
            {review.spec ? `: the run uses ${review.spec.data.labeledPool} to warm-start on, ${review.spec.data.rlPool} for RL and ${review.spec.data.heldOut} held out` : ''}.
          </span>
          <table data-testid="task-preview">
            <thead>
              <tr>
                <th scope="col">Prompt</th>
                <th scope="col">What the model should write</th>
              </tr>
            </thead>
            <tbody>
              {review.preview.map((p, i) => (
                <tr key={i}>
                  <td>
                    <code>{p.prompt}</code>
                  </td>
                  <td>
                    <code>{completionOf(p)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="task-editor-actions">
        <button type="button" data-testid="task-use" disabled={checking || !review.spec || errors.length > 0} onClick={applyTask}>
          Use this task
        </button>
        {onClose && (
          <button type="button" className="link" onClick={onClose}>
            Close
          </button>
        )}
        {used && (
          <span role="status" className="sub" data-testid="task-used">
            {used}
          </span>
        )}
      </div>
    </section>
  );
}

/**
 * A text past its field's limit is refused whole, in words, and the field keeps what it had: a
 * maxlength would cut a paste to fit without a word.
 */
function useLimit(max: number, what: string): [string | null, (value: string) => boolean] {
  const [refused, setRefused] = useState<string | null>(null);
  const fits = (value: string) => {
    const ok = value.length <= max;
    setRefused(ok ? null : `That would be ${value.length.toLocaleString('en')} characters; ${what} holds at most ${max.toLocaleString('en')}. Nothing was changed.`);
    return ok;
  };
  return [refused, fits];
}

function Refused({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <span className="field-problem" role="alert" data-testid={`${id}-refused`}>
      {text}
    </span>
  ) : null;
}

function TextField(props: { id: string; label: string; hint?: string; value: string; max: number; onChange: (e: { target: { value: string } }) => void }) {
  const [refused, fits] = useLimit(props.max, `the ${props.label.toLowerCase()}`);
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input id={props.id} type="text" value={props.value} data-testid={props.id} spellCheck={false} autoComplete="off" onChange={(e) => fits(e.target.value) && props.onChange(e)} />
      <Refused id={props.id} text={refused} />
      {props.hint && <span className="sub">{props.hint}</span>}
    </div>
  );
}

function TaskFindings({ findings }: { findings: TaskFinding[] }) {
  if (findings.length === 0) return <p className="sub" data-testid="task-findings">No problems found.</p>;
  const shown = findings.slice(0, SHOWN_FINDINGS);
  return (
    <ul className="task-findings" data-testid="task-findings" aria-label="What the check found">
      {shown.map((f, i) => (
        <li key={i} className={`finding-${f.severity}`} data-severity={f.severity}>
          <span className="finding-kind">{f.severity === 'error' ? 'Error' : f.severity === 'warning' ? 'Warning' : 'Note'}:</span>{' '}
          {f.line && !f.message.includes(`line ${f.line}`) ? `line ${f.line}: ` : ''}
          {f.message}
        </li>
      ))}
      {findings.length > shown.length && <li className="sub">… and {findings.length - shown.length} more</li>}
    </ul>
  );
}

/** A pasted text's format, from its first character: JSON ({ or [) or CSV. */
function guessName(text: string): string {
  const first = text.trimStart()[0];
  if (first === '[') return 'pasted.json';
  if (first === '{') return /\n\s*\{/.test(text.trim()) ? 'pasted.jsonl' : 'pasted.json';
  return 'pasted.csv';
}
