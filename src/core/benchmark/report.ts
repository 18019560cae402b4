/**
 * Tables (Markdown) and the JSON file of bench rows. Pure functions, no I/O: cli/bench/bench.ts writes.
 */
import type { BenchRow } from './measure';

const dash = '–';
const int = (x: number | null) => (x === null ? dash : String(Math.round(x)));
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function backendLabel(r: BenchRow): string {
  return r.adapter ? `${r.backend} (${r.adapter})` : r.backend;
}

/** Row identity in latest.json: a new measurement replaces an old row with the same key. */
export function rowKey(r: Pick<BenchRow, 'where' | 'backend' | 'preset' | 'models' | 'shape'>): string {
  return `${r.where}|${r.backend}|${r.preset}|${r.models}|${r.shape}`;
}

/** Old rows that this run did not re-measure, then this run's rows (in their order). */
export function mergeRows(old: BenchRow[], fresh: BenchRow[]): BenchRow[] {
  const keys = new Set(fresh.map(rowKey));
  return [...old.filter((r) => !keys.has(rowKey(r))), ...fresh];
}

/** Check that `x` is a row with the documented JSON shape; returns the problems (empty = fine). */
export function rowProblems(x: unknown): string[] {
  const out: string[] = [];
  if (typeof x !== 'object' || x === null) return ['not an object'];
  const r = x as Record<string, unknown>;
  const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const numOrNull = (v: unknown) => v === null || isNum(v);
  for (const k of ['backend', 'preset', 'shape', 'date']) if (typeof r[k] !== 'string') out.push(`${k}: not a string`);
  if (r.where !== 'node' && r.where !== 'chromium') out.push('where: not "node" or "chromium"');
  for (const k of ['models', 'kernelsPerStep', 'readbacksPerStep', 'tokensPerS', 'peakBytes', 'tensorDrift', 'steps', 'warmup']) {
    if (!isNum(r[k])) out.push(`${k}: not a number`);
  }
  for (const k of ['dispatchesPerStep', 'submitsPerStep', 'gpuReadbacksPerStep']) if (!numOrNull(r[k])) out.push(`${k}: not a number or null`);
  const s = r.stepMs as Record<string, unknown> | undefined;
  if (!s || !isNum(s.median) || !isNum(s.min) || !isNum(s.max)) out.push('stepMs: not { median, min, max }');
  else if (!((s.min as number) <= (s.median as number) && (s.median as number) <= (s.max as number))) out.push('stepMs: not min <= median <= max');
  if (!Array.isArray(r.topKernels) || !r.topKernels.every((p) => Array.isArray(p) && typeof p[0] === 'string' && isNum(p[1]))) {
    out.push('topKernels: not [name, count] pairs');
  }
  if (!(r.webgpuCpuForward === null || typeof r.webgpuCpuForward === 'boolean')) out.push('webgpuCpuForward: not a boolean or null');
  return out;
}

/** One table of rows: counts first (they predict GPU speed), then times and memory. */
export function rowsTable(rows: BenchRow[]): string {
  const gpu = rows.some((r) => r.dispatchesPerStep !== null);
  const head = [
    'backend',
    'preset',
    'models',
    'shape',
    'kernels / step',
    ...(gpu ? ['dispatches / step', 'submits / step', 'GPU readbacks / step'] : []),
    'readbacks / step',
    'step ms: median (min-max)',
    'tokens/s',
    'peak MB',
    'tensor drift',
  ];
  const align = head.map((_, i) => (i < 4 ? '---' : '---:'));
  const body = rows.map((r) => [
    backendLabel(r),
    `\`${r.preset}\``,
    String(r.models),
    r.shape,
    int(r.kernelsPerStep),
    ...(gpu ? [int(r.dispatchesPerStep), int(r.submitsPerStep), int(r.gpuReadbacksPerStep)] : []),
    int(r.readbacksPerStep),
    `${ms(r.stepMs.median)} (${ms(r.stepMs.min)}-${ms(r.stepMs.max)})`,
    r.tokensPerS.toFixed(0),
    mb(r.peakBytes),
    String(r.tensorDrift),
  ]);
  return [head, align, ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The models-scaling series per backend: how counts and time grow with the number of models. */
export function scalingTable(rows: BenchRow[]): string {
  const series = rows.filter((r) => r.preset === 'scaling').sort((a, b) => a.backend.localeCompare(b.backend) || a.models - b.models);
  if (!series.length) return '';
  const gpu = series.some((r) => r.dispatchesPerStep !== null);
  const head = [
    'backend',
    'models',
    'kernels / step',
    'kernels / model',
    ...(gpu ? ['dispatches / step', 'submits / step', 'GPU readbacks / step'] : []),
    'readbacks / step',
    'step ms (median)',
    'ms / model',
  ];
  const align = head.map((_, i) => (i < 1 ? '---' : '---:'));
  const body = series.map((r) => [
    backendLabel(r),
    String(r.models),
    int(r.kernelsPerStep),
    (r.kernelsPerStep / r.models).toFixed(0),
    ...(gpu ? [int(r.dispatchesPerStep), int(r.submitsPerStep), int(r.gpuReadbacksPerStep)] : []),
    int(r.readbacksPerStep),
    ms(r.stepMs.median),
    ms(r.stepMs.median / r.models),
  ]);
  return [head, align, ...body].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The most frequent kernels of each preset row (of the scaling series: its largest point per backend), one line each. */
export function topKernelLines(rows: BenchRow[]): string {
  const largest = new Map<string, BenchRow>();
  for (const r of rows) {
    if (r.preset !== 'scaling') continue;
    const best = largest.get(r.backend);
    if (!best || r.models > best.models) largest.set(r.backend, r);
  }
  return rows
    .filter((r) => r.preset !== 'scaling' || largest.get(r.backend) === r)
    .map((r) => {
      const what = r.preset === 'scaling' ? `\`scaling\` ${r.models} models` : `\`${r.preset}\``;
      return `- ${backendLabel(r)}, ${what}: ${r.topKernels.map(([n, c]) => `${n} ${Math.round(c)}`).join(', ')}`;
    })
    .join('\n');
}
