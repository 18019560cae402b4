/**
 * No tracker history in the product: comments and docs say what is true now and why, never which
 * of this project's tracker entries asked for it, nor what one of its entries or a working
 * sitting did (HISTORY_WORDS). A reference to another project's tracker (a tfjs or trl issue, by number) is a
 * source and stays: the word before it names that project. A reference split over a line break
 * (a comment's "issue" at one line's end and its number on the next) is caught too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const PLACES = ['src', 'server', 'cli', 'scripts', 'docs', 'e2e', 'README.md'];
const OTHER_PROJECTS = ['tfjs', 'trl', 'ws', 'playground', 'pytorch', 'torch', 'vite', 'vitest', 'uplot', 'zustand', 'react', 'playwright', 'chromium', 'dawn', 'transformers', 'node', 'github'];
const REFERENCE = /\bissues?\s*#?\d+/gi;
/** Words that tell the work's history rather than the code: whose request, which sitting. */
const HISTORY_WORDS = /\b(?:the|this) (?:issue|tracker)(?:'s)?\b|\bthis session(?:'s)?\b|\bthe red team found\b/gi;

/** The history in one line, each with where it starts: tracker references (another project's, named just before, left out) and history words. */
function historyAt(line: string): { text: string; at: number }[] {
  const found: { text: string; at: number }[] = [];
  for (const m of line.matchAll(REFERENCE)) {
    const before = line.slice(Math.max(0, m.index - 24), m.index).toLowerCase();
    const named = OTHER_PROJECTS.some((p) => new RegExp(`\\b${p}(?:'s)?[\\s/#:(-]*$`).test(before));
    if (!named) found.push({ text: m[0], at: m.index });
  }
  for (const m of line.matchAll(HISTORY_WORDS)) found.push({ text: m[0], at: m.index });
  return found;
}

/** The history in one line. */
export function historyIn(line: string): string[] {
  return historyAt(line).map((h) => h.text);
}

/** A line without its comment or quote marker (" * ", "// ", "> "), as it reads joined to the line before. */
const body = (line: string) => line.replace(/^\s*(?:\*|\/\/|#|>)?\s*/, '');

/** The history that only two lines read together show: a match that starts on the first and ends on the second. */
export function historyAcross(first: string, second: string): string[] {
  const joined = `${first.trimEnd()} ${body(second)}`;
  const edge = first.trimEnd().length;
  return historyAt(joined).filter((h) => h.at < edge && h.at + h.text.length > edge).map((h) => h.text);
}

function trackedLines(): { where: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '--', ...PLACES], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const out: { where: string; text: string }[] = [];
  for (const file of files) {
    let body: string;
    try { body = readFileSync(resolve(ROOT, file), 'utf8'); } catch { continue; }
    body.split('\n').forEach((text, i) => out.push({ where: `${file}:${i + 1}`, text }));
  }
  return out;
}

describe('no tracker history in the product', () => {
  it('the matcher catches a planted reference and leaves other projects\' alone', () => {
    // The planted lines are built here, so this file carries no citation of its own.
    const n = (k: number) => String(k);
    expect(historyIn(`the target (issue ${n(36)}) holds`)).toEqual([`issue ${n(36)}`]);
    expect(historyIn(`Issue ${n(32)}: the targets`)).toEqual([`Issue ${n(32)}`]);
    expect(historyIn(`see issues #${n(12)}`)).toEqual([`issues #${n(12)}`]);
    expect(historyIn(`tfjs issue #${n(8057)} and trl issue ${n(3739)}`)).toEqual([]);
    expect(historyIn(`a tissue ${n(4)} words`)).toEqual([]);
    const w = (...words: string[]) => words.join(' ');
    expect(historyIn(`as ${w('the', 'tracker')} asked`)).toEqual([w('the', 'tracker')]);
    expect(historyIn(`${w('the', "issue's")} target`)).toEqual([w('the', "issue's")]);
    expect(historyIn(`measured in ${w('this', 'session')}`)).toEqual([w('this', 'session')]);
    expect(historyIn('a session of the room')).toEqual([]);
  });

  it('catches a reference split over a line break, in a comment or in prose', () => {
    const n = (k: number) => String(k);
    expect(historyAcross(' * the target (issue', ` *  ${n(36)}) holds`)).toEqual([`issue ${n(36)}`]);
    expect(historyAcross('// as this', '// session measured')).toEqual([['this', 'session'].join(' ')]);
    expect(historyAcross('a', 'tissue of lies')).toEqual([]);
    expect(historyAcross(`tfjs issue`, `#${n(8057)} says`)).toEqual([]);
  });

  it('no tracked file in src, server, cli, scripts, docs, e2e or README cites this project\'s tracker', () => {
    const lines = trackedLines();
    const hits = lines.flatMap((l, i) => {
      const next = lines[i + 1];
      const across = next && next.where.split(':')[0] === l.where.split(':')[0] ? historyAcross(l.text, next.text) : [];
      return historyIn(l.text).length > 0 || across.length > 0 ? [`${l.where}: ${l.text.trim()}`] : [];
    });
    expect(hits, 'lines citing history: say what the code does and why; history lives in git').toEqual([]);
  });
});
