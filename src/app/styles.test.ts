/**
 * The stylesheets parse: every block closed, no merge-conflict markers left. A stylesheet with one
 * unclosed brace still loads, silently dropping every rule after it (how the reference bar once
 * lost its spacing), so this is checked here rather than by eye.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cssFiles(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : []));
}

/** Depth never below 0 and back to 0 at the end, comments and strings skipped. */
function unbalanced(css: string): string | null {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"[^"\n]*"|'[^'\n]*'/g, '""');
  let depth = 0;
  let line = 1;
  for (const ch of text) {
    if (ch === '\n') line++;
    if (ch === '{') depth++;
    if (ch === '}' && --depth < 0) return `a "}" with no block open at line ${line}`;
  }
  return depth === 0 ? null : `${depth} block(s) never closed`;
}

describe('stylesheets', () => {
  const files = cssFiles(join(__dirname));
  it('exist', () => expect(files.length).toBeGreaterThan(0));
  for (const file of files) {
    it(`${file.slice(file.indexOf('src/'))} closes every block and holds no conflict marker`, () => {
      const css = readFileSync(file, 'utf8');
      expect(unbalanced(css)).toBeNull();
      expect(css).not.toMatch(/^(<{7}|={7}|>{7})( |$)/m);
    });
  }
  it('finds an unclosed block', () => expect(unbalanced('.a { color: red;\n.b { }')).toBe('1 block(s) never closed'));
});
