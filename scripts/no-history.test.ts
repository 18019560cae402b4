/**
 * No tracker history in the product: comments and docs say what is true now and why, never which
 * of this project's tracker entries asked for it. A reference to another project's tracker (a tfjs
 * or trl issue, by number) is a source and stays: the word before it names that project.
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

/** The references in one line to this project's tracker; another project's, named just before, is left out. */
export function historyIn(line: string): string[] {
  const found: string[] = [];
  for (const m of line.matchAll(REFERENCE)) {
    const before = line.slice(Math.max(0, m.index - 24), m.index).toLowerCase();
    const named = OTHER_PROJECTS.some((p) => new RegExp(`\\b${p}(?:'s)?[\\s/#:(-]*$`).test(before));
    if (!named) found.push(m[0]);
  }
  return found;
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
  });

  it('no tracked file in src, server, cli, scripts, docs, e2e or README cites this project\'s tracker', () => {
    const hits = trackedLines().filter((l) => historyIn(l.text).length > 0).map((l) => `${l.where}: ${l.text.trim()}`);
    expect(hits, 'lines citing the tracker: say what the code does and why; history lives in git').toEqual([]);
  });
});
