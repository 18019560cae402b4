/**
 * BENCHMARKS' gpu section (<!-- gpu -->), made from bench/results/gpu.json: the runs cli/bench/bench-gpu.ts
 * made on a GPU machine (scripts/device-bench.sh) and, for comparison, the Node section's wasm rows
 * of the same cases as they were when the runs were recorded. No tfjs here: the docs checks import it.
 *
 *   npx tsx cli/bench/bench-gpu-lib.ts --write [--runs RUN.json,RUN.json]
 *
 * --runs replaces the file's runs with these (each the JSON a device run wrote, in the order they
 * ran) and takes the comparison rows from bench/results/latest.json again; without it the section
 * is written from gpu.json as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { AdapterDetails } from '../../src/engine/backend-common';
import type { BenchRow } from '../../src/core/benchmark/measure';

/** One run of cli/bench/bench-gpu.ts (the JSON it writes). */
export interface GpuBench {
  /** ISO date of the run. */
  date: string;
  /** The command on the GPU machine. */
  command: string;
  /** The GPU machine's CPUs and memory. */
  machine: string;
  node: string;
  /** What nvidia-smi said of the GPU (name, driver), as passed with --gpu. */
  gpu: string | null;
  /** The adapter Dawn chose. */
  adapterInfo: AdapterDetails | null;
  /** webgpu rows (once per WEBGPU_CPU_FORWARD value) and, with --wasm, the same machine's wasm rows. */
  rows: BenchRow[];
  skipped: string[];
}

/** A wasm row of the Node section (bench/results/latest.json), copied when the runs were recorded. */
export interface ReferenceRow {
  preset: string;
  models: number;
  shape: string;
  stepMs: { median: number; min: number; max: number };
  date: string;
}

/** bench/results/gpu.json. */
export interface GpuBenchFile {
  runs: GpuBench[];
  reference: ReferenceRow[];
}

export const GPU_JSON = 'bench/results/gpu.json';
const MARK = 'gpu';

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const int = (x: number | null) => (x === null ? '–' : String(Math.round(x)));
const caseName = (r: Pick<BenchRow, 'preset' | 'models'>) => (r.preset === 'scaling' ? `\`scaling\` ${r.models}` : `\`${r.preset}\``);
const rowId = (r: BenchRow) => `${r.backend}|${r.webgpuCpuForward ?? '-'}|${r.preset}|${r.models}`;
const sameCase = (a: Pick<BenchRow, 'preset' | 'models'>, b: Pick<BenchRow, 'preset' | 'models'>) => a.preset === b.preset && a.models === b.models;

/** The wasm rows of latest.json for the cases the runs measured. */
export function referenceRows(runs: readonly GpuBench[], latest: readonly BenchRow[]): ReferenceRow[] {
  const cases = runs.flatMap((r) => r.rows);
  return latest
    .filter((r) => r.where === 'node' && r.backend === 'wasm' && cases.some((c) => sameCase(c, r) && c.shape === r.shape))
    .map((r) => ({ preset: r.preset, models: r.models, shape: r.shape, stepMs: r.stepMs, date: r.date }));
}

/** "99-122" for medians 98.9 and 121.5; one number when they round alike. */
function span(xs: number[]): string {
  const lo = ms(Math.min(...xs));
  const hi = ms(Math.max(...xs));
  return lo === hi ? lo : `${lo}-${hi}`;
}

/** The same for counts: "666-667". */
function intSpan(xs: number[]): string {
  const lo = Math.round(Math.min(...xs));
  const hi = Math.round(Math.max(...xs));
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

/**
 * webgpu's step against a CPU's: the ratio's range over the runs (the least and the most it can be,
 * from every run's median of each), and a word only where the whole range is 25% or more off 1.
 */
function against(gpu: number[], cpu: number[]): { ratio: string; word: 'slower' | 'about the same' | 'faster' } | null {
  if (!gpu.length || !cpu.length) return null;
  const lo = Math.min(...gpu) / Math.max(...cpu);
  const hi = Math.max(...gpu) / Math.min(...cpu);
  const ratio = lo.toFixed(2) === hi.toFixed(2) ? lo.toFixed(2) : `${lo.toFixed(2)}-${hi.toFixed(2)}`;
  return { ratio, word: lo >= 1.25 ? 'slower' : hi <= 0.8 ? 'faster' : 'about the same' };
}

/** The section between <!-- gpu --> and <!-- /gpu --> (without the markers). */
export function gpuSection(file: GpuBenchFile): string {
  const { runs } = file;
  const last = runs[runs.length - 1];
  const a = last.adapterInfo;
  const adapter = a
    ? `vendor \`${a.vendor}\`, architecture ${a.architecture ? `\`${a.architecture}\`` : '(empty)'}, device \`${a.device}\`, description \`${a.description}\`${a.isFallbackAdapter === false ? ', not a fallback adapter' : a.isFallbackAdapter ? ', a fallback (software) adapter' : ''}`
    : 'not recorded';
  const steps = runs.map((r, i) => `run ${i + 1}, ${r.rows[0]?.warmup ?? '?'} warm-up + ${r.rows[0]?.steps ?? '?'} measured steps per case`).join('; ');
  const dates = [...new Set(runs.map((r) => r.date))].join(', ');
  // Row order: the last run's (webgpu per flag value, then wasm).
  const head = [
    'backend',
    'WEBGPU_CPU_FORWARD',
    'case',
    'models',
    'shape',
    'kernels / step',
    'dispatches / step',
    'submits / step',
    'GPU readbacks / step',
    'readbacks / step',
    ...runs.map((_, i) => `step ms, run ${i + 1}: median (min-max)`),
    `tokens/s, run ${runs.map((_, i) => i + 1).join(' / ')}`,
    'µs per kernel',
  ];
  const table = [`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i < 5 ? '---' : '---:')).join(' | ')} |`];
  for (const r of last.rows) {
    const same = runs.map((run) => run.rows.find((x) => rowId(x) === rowId(r)));
    const medians = same.filter((x): x is BenchRow => !!x).map((x) => x.stepMs.median);
    table.push(
      `| ${[
        r.backend,
        r.webgpuCpuForward === null ? '–' : String(r.webgpuCpuForward),
        caseName(r),
        String(r.models),
        r.shape,
        int(r.kernelsPerStep),
        int(r.dispatchesPerStep),
        int(r.submitsPerStep),
        int(r.gpuReadbacksPerStep),
        int(r.readbacksPerStep),
        ...same.map((x) => (x ? `${ms(x.stepMs.median)} (${ms(x.stepMs.min)}-${ms(x.stepMs.max)})` : '–')),
        same.map((x) => (x ? x.tokensPerS.toFixed(0) : '–')).join(' / '),
        span(medians.map((m) => (1000 * m) / r.kernelsPerStep)),
      ].join(' | ')} |`,
    );
  }

  // Against the CPU: the lab's setting (WEBGPU_CPU_FORWARD true) against wasm here and on the 2-core machine.
  const gpuRows = last.rows.filter((r) => r.backend === 'webgpu' && r.webgpuCpuForward === true);
  const mediansOf = (pick: (r: BenchRow) => boolean) => runs.flatMap((run) => run.rows.filter(pick).map((x) => x.stepMs.median));
  const webgpu = (r: BenchRow, forward: boolean) => mediansOf((x) => x.backend === 'webgpu' && x.webgpuCpuForward === forward && sameCase(x, r));
  const wasm = (r: BenchRow) => mediansOf((x) => x.backend === 'wasm' && sameCase(x, r));
  const cmp = [
    '| case | models | webgpu on the GPU, ms | wasm on the same machine, ms | webgpu / wasm there | wasm on the 2-core machine, ms (the Node section, its date and code) | webgpu / wasm there |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const words = { same: new Map<string, string[]>(), core2: new Map<string, string[]>(), flag: new Map<string, string[]>() };
  const add = (m: Map<string, string[]>, a: ReturnType<typeof against>, name: string) => {
    if (a) m.set(a.word, [...(m.get(a.word) ?? []), name]);
  };
  const cell = (a: ReturnType<typeof against>) => (a ? `${a.ratio} (${a.word})` : '–');
  for (const r of gpuRows) {
    const g = webgpu(r, true);
    const w = wasm(r);
    const ref = file.reference.find((x) => sameCase(x, r) && x.shape === r.shape);
    const here = against(g, w);
    const there = ref ? against(g, [ref.stepMs.median]) : null;
    add(words.same, here, caseName(r));
    add(words.core2, there, caseName(r));
    add(words.flag, against(webgpu(r, false), g), caseName(r));
    cmp.push(`| ${caseName(r)} | ${r.models} | ${span(g)} | ${w.length ? span(w) : '–'} | ${cell(here)} | ${ref ? `${ms(ref.stepMs.median)} (${ref.date})` : '–'} | ${cell(there)} |`);
  }
  const sentence = (m: Map<string, string[]>, lead: string) => {
    const parts = (['slower', 'about the same', 'faster'] as const).filter((k) => m.has(k)).map((k) => `${k} in ${m.get(k)!.join(', ')}`);
    return parts.length ? `${lead} ${parts.join('; ')}. ` : '';
  };
  const scaling = (backend: string, models?: number) =>
    mediansOf((x) => x.backend === backend && x.preset === 'scaling' && (backend === 'wasm' || x.webgpuCpuForward === true) && (models === undefined || x.models === models));
  const series = [...new Set(gpuRows.filter((r) => r.preset === 'scaling').map((r) => r.models))].sort((x, y) => x - y);
  const flat =
    series.length > 1 && scaling('wasm', series[0]).length
      ? `In the scaling series the webgpu step takes ${span(scaling('webgpu'))} ms from ${series[0]} to ${series[series.length - 1]} models, with ${intSpan(gpuRows.filter((r) => r.preset === 'scaling').map((r) => r.dispatchesPerStep ?? 0))} dispatches a step whatever the count (the models are stacked: more models make each dispatch bigger, not more of them), while wasm's grows from ${span(scaling('wasm', series[0]))} to ${span(scaling('wasm', series[series.length - 1]))} ms. `
      : '';
  const flagDispatches = gpuRows.flatMap((r) => {
    const off = last.rows.find((x) => x.backend === 'webgpu' && x.webgpuCpuForward === false && sameCase(x, r));
    return off && off.dispatchesPerStep !== null && r.dispatchesPerStep !== null ? [off.dispatchesPerStep - r.dispatchesPerStep] : [];
  });

  return [
    `## WebGPU on a real GPU: ${last.gpu ? last.gpu.replace(/, driver (.*)$/, ' (driver $1)') : 'a GPU'} in Node, ${dates}`,
    '',
    `\`scripts/device-bench.sh\` (cli/bench/bench-gpu.ts bundled into one file, with a Node binary, Dawn and a Vulkan loader carried to a lent GPU machine that has none of them): ` +
      `${last.gpu ?? 'GPU not recorded'}; ${last.machine}; Node ${last.node}, Dawn (the \`webgpu\` package) on the NVIDIA Vulkan driver. ` +
      `The adapter Dawn chose: ${adapter}. ${runs.length === 1 ? 'One run' : `${runs.length} runs, one after the other`} (${steps}); ` +
      "counts are medians over the measured steps, and the wasm rows are the same machine's CPU (one thread). " +
      '"µs per kernel": a step\'s wall time over its kernels (each run\'s median), everything included.',
    '',
    ...table,
    '',
    'Against the CPU, webgpu as the lab runs it (WEBGPU_CPU_FORWARD true). The times are each run\'s median; a ratio is its range over the runs ' +
      '(the least and the most it can be), and "faster" or "slower" only where that whole range is 25% or more from 1: the runs here moved by about that much.',
    '',
    ...cmp,
    '',
    sentence(words.same, "Against wasm on the same machine's CPU, webgpu on this GPU is") +
      sentence(words.core2, "Against wasm on the project's 2-core machine it is") +
      flat +
      "A step costs what its dispatches cost, not what its arithmetic costs: each of a step's hundreds of tiny kernels pays tfjs's JavaScript, " +
      "a Dawn dispatch and its share of the queue submits and the step's GPU readbacks, so on this GPU a step's time follows its dispatch count " +
      '(the scaling series), and fewer, bigger dispatches (fused kernels, more models per dispatch) are what would make it faster, not more arithmetic. ' +
      (flagDispatches.length
        ? `WEBGPU_CPU_FORWARD false dispatches ${intSpan(flagDispatches)} more a step (few of these kernels have small inputs already on the CPU); ${sentence(words.flag, 'against the lab\'s setting its step is').trim()}`
        : ''),
    '',
    "This bench's dry run on SwiftShader found a fault on the lab's WebGPU path, fixed before these runs: a transformer member's gradient " +
      'norm and weight sum each added one tensor per variable in one AddN, and tfjs-webgpu binds every input of an AddN, so 38 inputs and ' +
      'the output needed 39 storage buffers in one shader, past the 8 WebGPU allows by default (browsers too, unless asked for more); the ' +
      'pipeline was invalid, the command buffer that held it was dropped whole, and only a validation message in the log said so. The lab ' +
      'now adds in groups of at most 7 on webgpu (`addNBound`, src/core/grpo/update.ts).',
    '',
    'To repeat it: `scripts/device-bench.sh build` here (in a checkout with node_modules; the folder it makes, `.devicebench`, ignored, ' +
      'travels with the checkout), then `bash .devicebench/device-bench.sh run` on the GPU machine (it unpacks Node and Dawn into /tmp, ' +
      "unpacks Debian's Vulkan loader with dpkg -x, prints nvidia-smi, the Vulkan driver files and the adapter Dawn picks, and writes the " +
      "run's JSON and log to $OUT; BENCH_ARGS changes the cases), then here `npx tsx cli/bench/bench-gpu-lib.ts --write --runs RUN.json,RUN.json`.",
    '',
  ].join('\n');
}

/** The marked section of `doc` (without markers), or null. */
export function markedGpuSection(doc: string): string | null {
  return new RegExp(`<!-- ${MARK} -->\\n([\\s\\S]*?)\\n<!-- /${MARK} -->`).exec(doc)?.[1] ?? null;
}

/**
 * BENCHMARKS' gpu section against gpu.json: the same table rows (by backend, flag, case and models;
 * a row's cells named where they differ), and the whole section what the file makes.
 */
export function gpuSectionProblems(path: string, doc: string, file: GpuBenchFile | null): string[] {
  const said = markedGpuSection(doc);
  if (!file) return said === null ? [] : [`${path}: has a gpu section (<!-- gpu -->), but there is no ${GPU_JSON}`];
  if (said === null) return [`${path}: no gpu section (<!-- gpu -->) for ${GPU_JSON}`];
  const made = gpuSection(file);
  const rows = (text: string) =>
    new Map(
      text
        .split('\n')
        .filter((l) => /^\| (webgpu|wasm) \|/.test(l))
        .map((l) => {
          const c = l.split('|').map((x) => x.trim());
          return [`${c[1]} ${c[2]} ${c[3]} ${c[4]}`, l] as const;
        }),
    );
  const saidRows = rows(said);
  const madeRows = rows(made);
  const problems: string[] = [];
  for (const [key, line] of saidRows) {
    const want = madeRows.get(key);
    if (!want) problems.push(`${path}: the gpu table has a row ${key} that ${GPU_JSON} does not`);
    else if (want !== line) problems.push(`${path}: the gpu table's row ${key} says "${line}", ${GPU_JSON} gives "${want}"`);
  }
  for (const key of madeRows.keys()) if (!saidRows.has(key)) problems.push(`${path}: the gpu table has no row ${key}, which ${GPU_JSON} holds`);
  if (!problems.length && said !== made) problems.push(`${path}: the gpu section is not what ${GPU_JSON} makes (npx tsx cli/bench/bench-gpu-lib.ts --write)`);
  return problems;
}

function writeSection(path: string, section: string): void {
  const text = readFileSync(path, 'utf8');
  const open = `<!-- ${MARK} -->`;
  const close = `<!-- /${MARK} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${path} has no ${open} ... ${close}`);
  writeFileSync(path, text.slice(0, start) + `${open}\n${section}\n${close}` + text.slice(end + close.length));
}

function main(argv: string[]): void {
  if (!argv.includes('--write')) {
    console.error('usage: npx tsx cli/bench/bench-gpu-lib.ts --write [--runs RUN.json,RUN.json]');
    process.exit(2);
  }
  const at = argv.indexOf('--runs');
  let file: GpuBenchFile;
  if (at >= 0) {
    const runs = argv[at + 1].split(',').map((p) => JSON.parse(readFileSync(p, 'utf8')) as GpuBench);
    const latest = JSON.parse(readFileSync('bench/results/latest.json', 'utf8')) as BenchRow[];
    file = { runs, reference: referenceRows(runs, latest) };
    writeFileSync(GPU_JSON, JSON.stringify(file, null, 1) + '\n');
  } else file = JSON.parse(readFileSync(GPU_JSON, 'utf8')) as GpuBenchFile;
  writeSection('docs/BENCHMARKS.md', gpuSection(file));
  console.error(`wrote docs/BENCHMARKS.md's gpu section from ${GPU_JSON}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
