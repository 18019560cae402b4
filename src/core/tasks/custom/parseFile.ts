/**
 * Task files, read as untrusted text: CSV with a header row `prompt,answer` and an optional third
 * column `scratchpad` (RFC 4180: fields in double quotes may hold commas, quotes doubled and line
 * breaks), JSON Lines with one `{"prompt", "answer", "scratchpad"?}` object a line, or JSON (a
 * task definition, generator or data, or an array of rows). This reads the file's form: its size,
 * binary content, quoting, field counts and cells shaped like spreadsheet formulas. What the rows
 * say (characters, empty answers, repeated prompts, sizes) is checkTaskDefinition's, which names
 * the file's lines for a definition read here.
 */
import { parseStrictJson } from '../../strictJson';
import { TASK_LIMITS, TaskDefinitionSchema, type DataRow, type TaskDefinition, type TaskFinding } from './definition';

export interface ParsedTaskFile {
  definition?: TaskDefinition;
  findings: TaskFinding[];
}

/** The file line each row of a data definition read from a file came from (check.ts reads it). */
export const fileLines = new WeakMap<object, readonly number[]>();

const error = (message: string, line?: number): TaskFinding => ({ severity: 'error', message, ...(line ? { line } : {}) });

/**
 * A cell that a spreadsheet would run as a formula (=, @, or + / - not followed by a digit, and
 * tab or carriage return first) is refused, never rewritten: a task's text is what the model
 * reads, so silently changing it would change the task.
 */
export function formulaCell(cell: string): boolean {
  return /^[=@\t\r]/.test(cell) || /^[+-](?![0-9])/.test(cell);
}

function titleFrom(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const clean = base.replace(/[^A-Za-z0-9 .,()+-]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, TASK_LIMITS.titleChars);
  return clean || 'My task';
}

export function parseTaskFile(fileName: string, text: string): ParsedTaskFile {
  if (typeof text !== 'string') return { findings: [error('the file could not be read as text')] };
  if (text.length > TASK_LIMITS.fileBytes) {
    return { findings: [error(`the file has ${text.length} characters; the most a task file may have is ${TASK_LIMITS.fileBytes}`)] };
  }
  if (text.includes('\u0000') || text.includes('\ufffd')) {
    return { findings: [error('the file looks binary (it holds NUL bytes or bytes that are not UTF-8); a task file is CSV, JSON Lines or JSON text')] };
  }
  const body = text.replace(/^\ufeff/, '');
  const ext = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'csv') return readCsv(fileName, body);
  if (ext === 'jsonl') return readJsonl(fileName, body);
  if (ext === 'json') return readJson(fileName, body);
  return { findings: [error(`"${fileName.slice(0, 80)}" is not a .csv, .jsonl or .json file`)] };
}

// ---- CSV --------------------------------------------------------------------------------------

interface CsvRecord {
  line: number;
  fields: string[];
}

/** RFC 4180 records with the line each starts on; an unclosed quote is an error finding. */
function csvRecords(text: string, findings: TaskFinding[]): CsvRecord[] | null {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let i = 0;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: start, fields });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          findings.push(error(`line ${line}: a quoted field must end at a comma or the line's end, found '${next}' after its closing quote`, line));
          return null;
        }
        continue;
      }
      if (ch === '\n') line++;
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      if (field !== '') {
        findings.push(error(`line ${line}: a quote in the middle of an unquoted field; quote the whole field and double the quote ("")`, line));
        return null;
      }
      quoted = true;
      quoteLine = line;
      i++;
      continue;
    }
    if (ch === ',') { fields.push(field); field = ''; i++; continue; }
    if (ch === '\r' || ch === '\n') {
      endRecord();
      if (ch === '\r' && text[i + 1] === '\n') i++;
      i++;
      line++;
      start = line;
      if (records.length > TASK_LIMITS.rows + 1) {
        findings.push(error(`the file has more than ${TASK_LIMITS.rows} rows, the most a task may have`));
        return null;
      }
      continue;
    }
    field += ch;
    i++;
  }
  if (quoted) {
    // The records before the open quote are still read, so their own problems are named too.
    findings.push(error(`line ${quoteLine}: a quoted field is never closed`, quoteLine));
    return records;
  }
  if (field !== '' || fields.length > 0) endRecord();
  if (records.length > TASK_LIMITS.rows + 1) {
    findings.push(error(`the file has more than ${TASK_LIMITS.rows} rows, the most a task may have`));
    return null;
  }
  return records;
}

function readCsv(fileName: string, text: string): ParsedTaskFile {
  const findings: TaskFinding[] = [];
  const records = csvRecords(text, findings);
  if (!records) return { findings };
  if (records.length === 0) return { findings: [error('the file is empty; it needs a header row prompt,answer and rows below it')] };
  const header = records[0].fields.map((f) => f.trim().toLowerCase());
  const withScratchpad = header.length === 3 && header[2] === 'scratchpad';
  if (header[0] !== 'prompt' || header[1] !== 'answer' || !(header.length === 2 || withScratchpad)) {
    return { findings: [error(`line ${records[0].line}: the header must be prompt,answer or prompt,answer,scratchpad; found ${records[0].fields.join(',').slice(0, 80)}`, records[0].line)] };
  }
  const width = header.length;
  const rows: DataRow[] = [];
  const lines: number[] = [];
  let errors = 0;
  for (const r of records.slice(1)) {
    if (r.fields.length !== width) {
      errors++;
      if (errors <= 50) findings.push(error(`line ${r.line} has ${r.fields.length} field${r.fields.length === 1 ? '' : 's'}; the header has ${width}`, r.line));
      continue;
    }
    const bad = r.fields.find(formulaCell);
    if (bad !== undefined) {
      errors++;
      if (errors <= 50) findings.push(error(`line ${r.line}: the cell "${bad.slice(0, 20)}" starts like a spreadsheet formula (=, @, or + / - before a non-digit); such cells are refused`, r.line));
      continue;
    }
    rows.push({ prompt: r.fields[0], answer: r.fields[1], ...(withScratchpad && r.fields[2] !== '' ? { scratchpad: r.fields[2] } : {}) });
    lines.push(r.line);
  }
  return finish(fileName, rows, lines, findings, errors);
}

// ---- JSON Lines and JSON ------------------------------------------------------------------------

function rowOf(value: unknown, line: number, findings: TaskFinding[]): DataRow | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    findings.push(error(`line ${line} is not an object with "prompt" and "answer"`, line));
    return null;
  }
  const o = value as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'prompt' && k !== 'answer' && k !== 'scratchpad');
  if (extra.length) {
    findings.push(error(`line ${line} has the key "${extra[0].slice(0, 20)}"; a row has only prompt, answer and scratchpad`, line));
    return null;
  }
  const asText = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : null);
  const prompt = asText(o.prompt);
  const answer = asText(o.answer);
  const scratchpad = o.scratchpad === undefined ? '' : asText(o.scratchpad);
  if (prompt === null || answer === null || scratchpad === null) {
    findings.push(error(`line ${line}: prompt, answer and scratchpad must be text (or whole numbers)`, line));
    return null;
  }
  const bad = [prompt, answer, scratchpad].find(formulaCell);
  if (bad !== undefined) {
    findings.push(error(`line ${line}: the text "${bad.slice(0, 20)}" starts like a spreadsheet formula (=, @, or + / - before a non-digit); such text is refused`, line));
    return null;
  }
  return { prompt, answer, ...(scratchpad ? { scratchpad } : {}) };
}

/** JSON.parse keeps a "__proto__" key as an own property, which the schema's records would then drop in silence. */
const PROTO_KEY = (where: string) => `${where} has a "__proto__" key, which is not a name a task can use`;

function readJsonl(fileName: string, text: string): ParsedTaskFile {
  const findings: TaskFinding[] = [];
  const rows: DataRow[] = [];
  const lines: number[] = [];
  let errors = 0;
  const all = text.split(/\r?\n/);
  for (let k = 0; k < all.length; k++) {
    const line = k + 1;
    if (all[k].trim() === '') continue;
    if (rows.length + errors >= TASK_LIMITS.rows) {
      findings.push(error(`the file has more than ${TASK_LIMITS.rows} rows, the most a task may have`));
      return { findings };
    }
    const json = parseStrictJson(all[k]);
    if (!json.ok) {
      errors++;
      if (errors <= 50) findings.push(error(json.problem === 'proto-key' ? PROTO_KEY(`line ${line}`) : `line ${line} is not valid JSON`, line));
      continue;
    }
    const value = json.value;
    const before = findings.length;
    const row = rowOf(value, line, findings);
    if (!row) {
      errors++;
      if (errors > 50) findings.length = before;
      continue;
    }
    rows.push(row);
    lines.push(line);
  }
  return finish(fileName, rows, lines, findings, errors);
}

function readJson(fileName: string, text: string): ParsedTaskFile {
  const json = parseStrictJson(text);
  if (!json.ok && json.problem === 'proto-key') return { findings: [error(PROTO_KEY('the file'))] };
  if (!json.ok) {
    let why = 'unreadable';
    try {
      JSON.parse(text);
    } catch (e) {
      if (e instanceof Error) why = e.message.slice(0, 120);
    }
    return { findings: [error(`the file is not valid JSON (${why})`)] };
  }
  const value = json.value;
  if (Array.isArray(value)) {
    if (value.length > TASK_LIMITS.rows) return { findings: [error(`the file has ${value.length} rows; the most a task may have is ${TASK_LIMITS.rows}`)] };
    const findings: TaskFinding[] = [];
    const rows: DataRow[] = [];
    const lines: number[] = [];
    let errors = 0;
    value.forEach((v, i) => {
      // An array's items have no lines of their own: they are numbered as rows from 1.
      const row = rowOf(v, i + 1, findings);
      if (row) { rows.push(row); lines.push(i + 1); } else errors++;
    });
    return finish(fileName, rows, lines, findings.slice(0, 50), errors);
  }
  if (value !== null && typeof value === 'object') {
    const kind = (value as Record<string, unknown>).kind;
    if (kind === 'generator' || kind === 'data') {
      if (kind === 'data') {
        const rows = (value as Record<string, unknown>).rows;
        if (Array.isArray(rows) && rows.length > TASK_LIMITS.rows) return { findings: [error(`the file has ${rows.length} rows; the most a task may have is ${TASK_LIMITS.rows}`)] };
      }
      const parsed = TaskDefinitionSchema.safeParse(value);
      if (!parsed.success) {
        return { findings: parsed.error.issues.slice(0, 10).map((i) => error(`${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)) };
      }
      return { definition: parsed.data, findings: [] };
    }
  }
  return { findings: [error('a JSON task file holds a task definition ({"kind": "generator", ...} or {"kind": "data", ...}) or an array of rows')] };
}

function finish(fileName: string, rows: DataRow[], lines: number[], findings: TaskFinding[], errors: number): ParsedTaskFile {
  if (errors > 50) findings.push(error(`${errors - 50} more lines with errors`));
  if (errors > 0 || findings.some((f) => f.severity === 'error')) return { findings: [...findings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  if (rows.length === 0) return { findings: [...findings, error('the file has no rows below its header')] };
  const definition: TaskDefinition = { kind: 'data', title: titleFrom(fileName), rows };
  fileLines.set(definition, lines);
  return { definition, findings };
}
