/**
 * The Node-only parts of `npm run bench` besides the RL-step rows:
 *
 * bundleSizes: `vite build` into a temporary folder (never dist/, which the e2e server uses), then
 * the gzipped size of the page's first JavaScript (index.html's entry chunk and its static
 * imports, from Vite's manifest: what loads before anything lazy) and of the training worker,
 * with every other file of the build.
 *
 * torchReference: runs scripts/torch_reference.py for one cohort (cli/bench/bench-torch.ts) with Debian's
 * python (/usr/bin/python3, then python3 on PATH) when `import torch` works there; otherwise says
 * why it was skipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { torchArgs, type TorchResult, type TorchShape } from './bench-torch';

export interface BundleFile {
  file: string;
  /**
   * 'first' (JavaScript index.html loads before anything lazy), 'css', 'worker' (the training worker),
   * 'worker-lazy' (imported by the worker on demand), 'page-lazy', 'wasm', 'asset', 'public' (copied
   * from public/, fetched on demand).
   */
  role: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  /** Sum over the 'first' files (JavaScript only). */
  firstJsGzip: number;
  firstJsBytes: number;
  /** The training worker's own chunk. */
  workerGzip: number;
  workerBytes: number;
  files: BundleFile[];
  /** gzip level used (zlib's default, 6). */
  gzipLevel: number;
  date: string;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

export async function bundleSizes(log: (line: string) => void): Promise<BundleReport> {
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-bundle-'));
  try {
    log('bundle: vite build ...');
    await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true } });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    // index.html's entry and, transitively, its static imports.
    const first = new Set<string>();
    const visit = (key: string) => {
      const c = manifest[key];
      if (!c || first.has(c.file)) return;
      first.add(c.file);
      for (const i of c.imports ?? []) visit(i);
    };
    visit('index.html');
    const files = walk(outDir)
      .map((p) => relative(outDir, p))
      .filter((f) => !f.startsWith('.vite') && f !== 'index.html');
    const workers = files.filter((f) => /(^|\/)[^/]*\.worker-[^/]*\.js$/.test(f));
    // Chunks the worker imports lazily (e.g. the WebGPU backend): `import("./x.js")` in its text.
    const workerLazy = new Set<string>();
    for (const w of workers) {
      const text = readFileSync(join(outDir, w), 'utf8');
      for (const m of text.matchAll(/import\(\s*[`'"]\.\/([^`'"]+\.js)[`'"]\s*\)/g)) workerLazy.add(join(w, '..', m[1]));
    }
    const role = (f: string) =>
      first.has(f)
        ? 'first'
        : workers.includes(f)
          ? 'worker'
          : workerLazy.has(f)
            ? 'worker-lazy'
            : f.endsWith('.wasm')
              ? 'wasm'
              : f.endsWith('.css')
                ? 'css'
                : f.endsWith('.js')
                  ? 'page-lazy'
                  : f.startsWith('assets/')
                    ? 'asset'
                    : 'public';
    const out: BundleFile[] = files.map((f) => {
      const data = readFileSync(join(outDir, f));
      return { file: f.replace(/-[A-Za-z0-9_-]{8}(\.[a-z]+)$/, '$1'), role: role(f), bytes: data.length, gzipBytes: gzipSync(data).length };
    });
    const order = ['first', 'css', 'worker', 'worker-lazy', 'page-lazy', 'wasm', 'asset', 'public'];
    out.sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || b.gzipBytes - a.gzipBytes || a.file.localeCompare(b.file));
    const sum = (r: string, k: 'bytes' | 'gzipBytes') => out.filter((f) => f.role === r && f.file.endsWith('.js')).reduce((s, f) => s + f[k], 0);
    return {
      firstJsGzip: sum('first', 'gzipBytes'),
      firstJsBytes: sum('first', 'bytes'),
      workerGzip: sum('worker', 'gzipBytes'),
      workerBytes: sum('worker', 'bytes'),
      files: out,
      gzipLevel: 6,
      date: new Date().toISOString().slice(0, 10),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;

export function bundleSection(b: BundleReport): string {
  const rows = b.files.map((f) => `| ${f.file} | ${f.role} | ${kb(f.bytes)} | ${kb(f.gzipBytes)} |`);
  return [
    `## Bundle, ${b.date}`,
    '',
    `\`vite build\` of the lab; gzip level ${b.gzipLevel}. **First JavaScript** (what index.html loads before anything lazy): ` +
      `**${kb(b.firstJsGzip)} gzipped** (${kb(b.firstJsBytes)} raw). **Training worker chunk**: **${kb(b.workerGzip)} gzipped** ` +
      `(${kb(b.workerBytes)} raw), loaded when the page starts its worker. "worker-lazy" chunks load only when the worker ` +
      'picks that backend (the WebGPU backend), one of the three .wasm binaries only on the wasm backend, and "public" ' +
      'files (copied from public/) only when the page asks for them.',
    '',
    '| file | role | raw | gzipped |',
    '|---|---|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

let torchPython: { python: string } | { skipped: string } | undefined;

/** Debian's python with torch, or the reason there is none (looked for once per process). */
function findTorchPython(): { python: string } | { skipped: string } {
  if (torchPython) return torchPython;
  for (const python of ['/usr/bin/python3', 'python3']) {
    if (python.startsWith('/') && !existsSync(python)) continue;
    const r = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8', timeout: 120_000 });
    if (r.status === 0) return (torchPython = { python });
  }
  return (torchPython = { skipped: 'PyTorch reference skipped: python3-torch not installed' });
}

/**
 * Runs the script for one cohort (cli/bench/bench-torch.ts builds it from a bench case) and returns its
 * JSON line with the date, or why it did not run.
 */
export function torchReference(shape: TorchShape, repeats: number, log: (line: string) => void): TorchResult | { skipped: string } {
  const found = findTorchPython();
  if ('skipped' in found) return found;
  const args = torchArgs(shape, repeats);
  log(`torch: ${found.python} ${args.join(' ')}`);
  const r = spawnSync(found.python, args, { encoding: 'utf8', timeout: 20 * 60_000 });
  if (r.status !== 0) return { skipped: `PyTorch reference failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}` };
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { ...(JSON.parse(line) as TorchResult), date: new Date().toISOString().slice(0, 10) };
}
