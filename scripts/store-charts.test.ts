/**
 * The page's store does not depend on its charts: the charts read the store (its series, its
 * state), and no module of src/app/store reaches src/app/charts through its relative imports,
 * directly or through other modules. A type the store needs lives in the store (series.ts,
 * smoothingWeight.ts), so the two folders read in one direction.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const STORE = join(ROOT, 'src/app/store');

/** The files a module imports by relative path (type imports included). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const [, spec] of text.matchAll(/from '(\.[^']+)'/g)) {
    const base = resolve(dirname(file), spec);
    const found = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((f) => existsSync(f));
    if (found) out.push(found);
  }
  return out;
}

/** Every chain of imports from a store module to a chart module, as 'a <- b <- ...'. */
function storeToCharts(): string[] {
  const from = new Map<string, string>();
  const queue = readdirSync(STORE).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f)).map((f) => join(STORE, f));
  const seen = new Set(queue);
  while (queue.length) {
    const file = queue.shift()!;
    for (const next of imports(file)) {
      if (seen.has(next)) continue;
      seen.add(next);
      from.set(next, file);
      queue.push(next);
    }
  }
  return [...seen].filter((f) => f.includes('/src/app/charts/')).map((f) => {
    const chain = [f];
    while (from.has(chain[chain.length - 1])) chain.push(from.get(chain[chain.length - 1])!);
    return chain.map((c) => relative(ROOT, c)).join(' <- ');
  });
}

describe('src/app/store and src/app/charts', () => {
  it('no store module reaches a chart module', () => {
    expect(storeToCharts()).toEqual([]);
  });
});
