/**
 * The page draws its controls before tfjs has loaded: only the training worker imports tfjs. This
 * walks the page's static imports from src/main.tsx (type-only imports are erased by the build and
 * dynamic import() is lazy, so neither counts) and fails when one reaches @tensorflow/*.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function resolveLocal(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Module specifiers a file imports at run time (value imports and re-exports). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (onlyTypes) continue;
      out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.isTypeOnly) continue;
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)) continue;
      out.push(node.moduleSpecifier.text);
    }
  }
  return out;
}

/** Every package the page's entry reaches, with the chain of files that leads to it. */
function pagePackages(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of runtimeImports(file)) {
      if (spec.startsWith('.')) {
        const target = resolveLocal(file, spec.replace(/\?.*$/, ''));
        if (target) walk(target, [...chain, relative(SRC, target)]);
      } else if (!packages.has(spec)) {
        packages.set(spec, chain);
      }
    }
  };
  walk(entry, [relative(SRC, entry)]);
  return packages;
}

describe('the page bundle', () => {
  it('does not import tfjs (only the worker does)', () => {
    const packages = pagePackages(join(SRC, 'main.tsx'));
    expect(packages.has('react')).toBe(true); // the walk does reach the app
    const tf = [...packages].filter(([p]) => p.startsWith('@tensorflow/')).map(([p, chain]) => `${p} via ${chain.join(' -> ')}`);
    expect(tf).toEqual([]);
  });
});
