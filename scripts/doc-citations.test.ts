/**
 * Comments cite docs the repository has: every `NAME.md` that a comment of a source, script or
 * config file names exists (docs/NAME.md, or NAME.md at the root), and no comment points outside
 * the checkout (a sibling folder of notes). A reader of the code can open every file it cites.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

function sources(): string[] {
  const code = ['.ts', '.tsx', '.mts', '.mjs', '.js'];
  return [
    ...['src', 'cli', 'scripts', 'e2e'].flatMap((dir) => ts.sys.readDirectory(join(ROOT, dir), code, ['**/node_modules'])),
    ...ts.sys.readDirectory(ROOT, [...code, '.json'], ['node_modules', 'dist', 'public'], ['*.ts', '*.js', 'tsconfig*.json'], 1),
  ].filter((f) => !f.endsWith('doc-citations.test.ts'));
}

/** The text of every comment in a file (TypeScript's parser: strings and regexes are not comments). */
function comments(file: string): string {
  const text = readFileSync(file, 'utf8');
  const source = file.endsWith('.json')
    ? ts.parseJsonText(file, text)
    : ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => ranges?.forEach((r) => found.set(r.pos, text.slice(r.pos, r.end)));
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(source);
  return [...found.values()].join('\n');
}

/** How many NAME.md citations the comments hold, and those that do not exist ('file: citation'). */
function citations(files: string[]): { checked: number; missing: string[] } {
  const missing: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const [cited] of comments(file).matchAll(/(?:[\w.-]+\/)*[\w-]+\.md\b/g)) {
      checked += 1;
      const found = cited.includes('/') ? existsSync(join(ROOT, cited)) : existsSync(join(ROOT, cited)) || existsSync(join(ROOT, 'docs', cited));
      if (!found) missing.push(`${relative(ROOT, file)}: ${cited}`);
    }
  }
  return { checked, missing };
}

describe('doc citations', () => {
  it('every NAME.md the code and configs name is a file of the repository', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const { checked, missing } = citations(files);
    expect(checked).toBeGreaterThan(50); // the comments were read
    expect(missing).toEqual([]);
  });

  it('nothing points outside the checkout', () => {
    const outside = sources().filter((f) => /\.\.\/shared\b/.test(comments(f))).map((f) => relative(ROOT, f));
    expect(outside).toEqual([]);
  });
});
