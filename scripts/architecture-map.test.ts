/**
 * docs/ARCHITECTURE.md's folder map is the code's: every folder of src/, server/ and cli/ that
 * holds code (not only tests) is named in it, so a new folder fails here until the map says what
 * it is for.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** The folders holding code among `files` (repository paths), tests and test kits left out. */
export function codeFolders(files: readonly string[]): string[] {
  const code = files.filter((f) => /\.(ts|tsx)$/.test(f) && !/\.(test|testkit)\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
  return [...new Set(code.map((f) => posix.dirname(f)))].filter((d) => d.includes('/')).sort();
}

/** The folders the map does not name: by their last part ("kernels/") or their whole path. */
export function unmapped(folders: readonly string[], map: string): string[] {
  return folders.filter((d) => !map.includes(`${posix.basename(d)}/`) && !map.includes(`${d}/`));
}

describe("ARCHITECTURE's folder map", () => {
  const doc = readFileSync(resolve(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
  const map = doc.slice(doc.indexOf('## Folders'), doc.indexOf('\n## ', doc.indexOf('## Folders') + 1));

  it('names every folder that holds code', () => {
    const files = execFileSync('git', ['ls-files', '--', 'src', 'server', 'cli'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(unmapped(codeFolders(files), map)).toEqual([]);
  });

  it('fails on a folder the map does not name', () => {
    const folders = codeFolders(['src/core/random.ts', 'src/core/newpart/thing.ts', 'src/core/newpart/thing.test.ts', 'cli/bench/bench.ts']);
    expect(folders).toEqual(['cli/bench', 'src/core', 'src/core/newpart']);
    expect(unmapped(folders, map)).toEqual(['src/core/newpart']);
  });
});
