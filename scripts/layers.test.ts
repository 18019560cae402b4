/**
 * The layers' tsconfigs (docs/ARCHITECTURE.md, "Layers"): every TypeScript file is checked by some layer, and
 * each layer sees only its runtime's globals. A probe file is compiled as if it sat in the layer's
 * folder, with the layer's own options and declaration files, one global per line; a line with an
 * error means the name does not exist there. So adding "DOM" to tsconfig.core.json, or Node's
 * types to the page, fails here (and `npm run typecheck` stays the check of the real files).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

function layerConfig(file: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, file), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${file}`);
  expect(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  return parsed;
}

/** The layers tsconfig.layers.json lists (what `npm run typecheck`, tsc -b, checks). */
function layers(): string[] {
  const solution = ts.parseConfigFileTextToJson('tsconfig.layers.json', readFileSync(join(ROOT, 'tsconfig.layers.json'), 'utf8'));
  const refs = (solution.config as { references: { path: string }[] }).references;
  return refs.map((r) => r.path.replace(/^\.\//, ''));
}

// Parsed lib files are shared between the probes' programs (parsing lib.dom.d.ts is most of the cost).
const cache = new Map<string, ts.SourceFile | undefined>();

/** Compile `source` as the file `at` of the layer; the set of probe names whose line has an error. */
function missingGlobals(config: string, at: string, probes: Record<string, string>, tail = ''): string[] {
  const parsed = layerConfig(config);
  const names = Object.keys(probes);
  const file = join(ROOT, at);
  const text = names.map((n) => `void (${probes[n]});`).join('\n') + `\nexport {};\n${tail}`;
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError) => {
    if (resolve(name) === file) return ts.createSourceFile(name, text, version);
    if (!cache.has(name)) cache.set(name, getSourceFile(name, version, onError));
    return cache.get(name);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === file || fileExists(name);
  // The layer's own declaration files (src/core/globals.d.ts) come with it, as in `tsc -b`.
  const declarations = parsed.fileNames.filter((f) => f.endsWith('.d.ts'));
  const program = ts.createProgram({ rootNames: [file, ...declarations], options: parsed.options, host });
  const diagnostics = program.getSemanticDiagnostics(program.getSourceFile(file));
  const lines = new Set(diagnostics.map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line));
  return names.filter((_, i) => lines.has(i));
}

const PROBES = {
  window: 'window',
  document: 'document.title',
  self: 'self',
  postMessage: 'postMessage',
  navigator: 'navigator.userAgent',
  indexedDB: 'indexedDB',
  fetch: 'fetch',
  process: 'process.env',
  Buffer: 'Buffer.from',
  performance: 'performance.now()',
  structuredClone: 'structuredClone({ a: 1 }).a',
  TextEncoder: 'new TextEncoder().encode("a")',
  base64: 'atob(btoa("a"))',
  console: 'console.log',
  setTimeout: 'setTimeout(() => {}, 1)',
};
const ALL = Object.keys(PROBES);
const everywhere = ['performance', 'structuredClone', 'TextEncoder', 'base64', 'console', 'setTimeout'];
const except = (...names: string[]) => ALL.filter((n) => !names.includes(n));

describe('the layers', () => {
  it('every TypeScript file of the project is checked by a layer', () => {
    const files = [
      ...['src', 'cli', 'scripts', 'e2e'].flatMap((dir) => ts.sys.readDirectory(join(ROOT, dir), ['.ts', '.tsx', '.mts', '.cts'], ['**/node_modules'])),
      ...ts.sys.readDirectory(ROOT, ['.ts'], undefined, ['*.config.ts']),
    ].map((f) => relative(ROOT, f));
    expect(files.length).toBeGreaterThan(100);
    const checked = new Set(layers().flatMap((l) => layerConfig(l).fileNames.map((f) => relative(ROOT, f))));
    expect(files.filter((f) => !checked.has(f))).toEqual([]);
  });

  it('src/core sees no DOM, no worker and no Node: only the globals of src/core/globals.d.ts', () => {
    expect(missingGlobals('tsconfig.core.json', 'src/core/probe.ts', PROBES)).toEqual(except(...everywhere));
    // Its tests too: they run in Node, but only through vitest.
    expect(missingGlobals('tsconfig.core.json', 'src/core/probe.test.ts', PROBES, "import { it } from 'vitest';\n")).toEqual(except(...everywhere));
  });

  it('the worker (src/engine) sees the worker scope, not the page or Node', () => {
    expect(missingGlobals('tsconfig.worker.json', 'src/engine/probe.ts', PROBES)).toEqual(['window', 'document', 'process', 'Buffer']);
    expect(missingGlobals('tsconfig.worker.json', 'src/engine/probe.ts', { gpu: 'navigator.gpu.requestAdapter' })).toEqual([]);
  });

  it('the page sees the DOM, not Node', () => {
    expect(missingGlobals('tsconfig.page.json', 'src/app/probe.ts', PROBES)).toEqual(['process', 'Buffer']);
  });

  it('the CLIs and scripts see Node, not the DOM', () => {
    expect(missingGlobals('tsconfig.node.json', 'cli/probe.ts', PROBES)).toEqual(['window', 'document', 'self', 'postMessage', 'navigator', 'indexedDB']);
  });
});
