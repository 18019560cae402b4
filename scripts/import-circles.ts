/**
 * The import circles of the code (src, server, cli, scripts; tests left out): the strongly
 * connected parts of its graph of relative imports (Tarjan's algorithm). `runtimeOnly` leaves out
 * `import type` and imports of types alone, which the compiler erases. docs/ARCHITECTURE.md
 * ("Import circles") names the circles that remain and why; scripts/import-circles.test.ts keeps
 * it so.
 *
 *   npx tsx scripts/import-circles.ts [--runtime]   prints each circle, one file a line
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ImportGraph = Map<string, string[]>;

const FROM = /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]/gms;
const DYNAMIC = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Whether an import's clause names types alone (`type X` or `{ type A, type B }`). */
function typesOnly(typeKeyword: string | undefined, clause: string): boolean {
  if (typeKeyword) return true;
  const braces = /^\{([^}]*)\}$/s.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1].split(',').map((n) => n.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

/** The graph of relative imports among `files` (repository paths), given each file's text. */
export function importGraph(files: readonly string[], text: (file: string) => string, runtimeOnly = false): ImportGraph {
  const known = new Set(files);
  const target = (from: string, spec: string): string | null => {
    const base = posix.normalize(posix.join(posix.dirname(from), spec));
    for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) if (known.has(c)) return c;
    return null;
  };
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const body = text(file);
    const to = new Set<string>();
    for (const m of body.matchAll(FROM)) {
      if (runtimeOnly && typesOnly(m[1], m[2])) continue;
      const t = target(file, m[3]);
      if (t) to.add(t);
    }
    for (const m of body.matchAll(DYNAMIC)) {
      const t = target(file, m[1]);
      if (t) to.add(t);
    }
    graph.set(file, [...to]);
  }
  return graph;
}

/** The circles: each strongly connected part of more than one file (or a file importing itself), files sorted. */
export function importCircles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** The repository's code files, tests and test kits left out. */
export function codeFiles(): string[] {
  return execFileSync('git', ['ls-files', '--', 'src', 'server', 'cli', 'scripts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts|mjs)$/.test(f) && !/\.(test|testkit)\.tsx?$/.test(f) && !f.endsWith('.d.mts'));
}

export function repositoryCircles(runtimeOnly = false): string[][] {
  const files = codeFiles();
  return importCircles(importGraph(files, (f) => readFileSync(resolve(ROOT, f), 'utf8'), runtimeOnly));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const circles = repositoryCircles(process.argv.includes('--runtime'));
  for (const c of circles) console.log(c.join('\n') + '\n');
  console.log(`${circles.length} circle(s)`);
}
