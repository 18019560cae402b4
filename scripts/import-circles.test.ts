/**
 * The import circles that remain are the ones docs/ARCHITECTURE.md argues ("Import circles"), and
 * none is a circle at run time: a new circle fails here until it is broken or argued there.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph, repositoryCircles } from './import-circles';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const section = (() => {
  const doc = readFileSync(resolve(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const start = doc.indexOf('## Import circles');
  return doc.slice(start, doc.indexOf('\n## ', start + 1));
})();

/** Whether the doc's section names a circle: each of its files by name (`types.ts`, `store.ts`), or its slices as "slices". */
function argued(circle: string[]): boolean {
  return circle.every((f) => {
    const name = f.split('/').pop()!;
    return section.includes(name) || (/Slice\.ts$/.test(name) && section.includes('slices'));
  });
}

describe('import circles', () => {
  it('finds a planted circle, through a type-only import too, and none at run time then', () => {
    const files = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'];
    const text: Record<string, string> = {
      'src/a.ts': "import { b } from './b';\nexport const a = 1;",
      'src/b.ts': "import type { A } from './a';\nimport { c } from './c.js';\nexport const b = 2;",
      'src/c.ts': "export const c = 3;",
      'src/d.ts': "import { type A, a } from './a';\nimport { d } from './d';",
    };
    expect(importCircles(importGraph(files, (f) => text[f]))).toEqual([['src/a.ts', 'src/b.ts'], ['src/d.ts']]);
    expect(importCircles(importGraph(files, (f) => text[f], true))).toEqual([['src/d.ts']]);
  });

  it('no circle at run time', () => {
    expect(repositoryCircles(true)).toEqual([]);
  });

  it('every circle through types is argued in docs/ARCHITECTURE.md', () => {
    expect(section).toContain('## Import circles');
    const circles = repositoryCircles();
    expect(circles.filter((c) => !argued(c))).toEqual([]);
    expect(argued(['src/app/unexplained.ts', 'src/app/other.ts'])).toBe(false);
  });
});
