/**
 * zod's jitless setting (src/core/zod.ts) must precede every schema: every source file takes `z`
 * from there, never from 'zod' itself (a file-system scan, so it lives with the repository checks).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('zod imports', () => {
  it('every schema takes z from src/core/zod.ts, so the setting precedes it', () => {
    const direct = sources(SRC)
      .filter((p) => relative(SRC, p) !== join('core', 'zod.ts'))
      .filter((p) => /(from\s+|import\s*\(\s*)['"]zod(\/[^'"]*)?['"]/.test(readFileSync(p, 'utf8')))
      .map((p) => relative(SRC, p));
    expect(direct).toEqual([]);
  });
});
