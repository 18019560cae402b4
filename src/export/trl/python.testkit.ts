/**
 * Test helpers for the exported Python: is python3 here, and the exported project written to a
 * temporary folder (the files the export really writes, not the sources in the checkout).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { buildTrlProject, type TrlExport } from './build';
import { nodePythonSources } from '../../../cli/trl/export-sources';

export const PYTHON3 = process.env.PYTHON3 ?? 'python3';

let available: boolean | null = null;

/** True when python3 (3.10 or newer) runs; prints a notice once when it does not. */
export function hasPython(): boolean {
  if (available === null) {
    const r = spawnSync(PYTHON3, ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'], { encoding: 'utf8' });
    available = r.status === 0;
    if (!available) console.warn(`NOTICE: ${PYTHON3} (3.10+) not found: the tests of the exported Python are skipped`);
  }
  return available;
}

/** Runs python3 with `args`, feeding `input` on stdin; throws with stderr on a non-zero exit. */
export function runPython(args: string[], input = '', cwd?: string, timeoutMs = 60_000): string {
  const r = spawnSync(PYTHON3, args, { input, encoding: 'utf8', cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3 ${args.join(' ')} exited ${r.status}${r.signal ? ` (${r.signal})` : ''}:\n${r.stderr}`);
  return r.stdout;
}

/** The export of `spec` (default: the collapse preset) written to a new temporary folder. */
export function writeExport(spec: ExperimentSpec = getPreset('collapse')!.spec, models?: string[]): { dir: string; built: TrlExport } {
  const built = buildTrlProject(spec, { models: models ?? spec.members.map(() => 'Qwen/Qwen2.5-0.5B-Instruct'), presetId: null }, nodePythonSources());
  const dir = mkdtempSync(join(tmpdir(), 'cohort-trl-'));
  for (const f of built.files) {
    const path = join(dir, ...f.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
  return { dir, built };
}

/**
 * Run `code` with the exported folder `dir` on sys.path and `cohort_rewards` imported as `cr`;
 * `cases` go in on stdin (as `cases`), the JSON the code prints comes back.
 */
export function cohortRewards(dir: string, code: string, cases: unknown): unknown {
  const prelude = 'import sys, json\nsys.path.insert(0, sys.argv[1])\nimport cohort_rewards as cr\ncases = json.load(sys.stdin)\n';
  return JSON.parse(runPython(['-c', prelude + code, dir], JSON.stringify(cases)));
}
