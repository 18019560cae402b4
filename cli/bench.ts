/**
 * npm run bench [-- --backends wasm,cpu[,webgpu]] [--browser webgpu,webgl,wasm | --no-browser]
 *               [--repeats 5] [--out docs/BENCHMARKS.md]
 *
 * Measures the default cohort (src/core/benchmark.ts) on each backend: in Node (wasm and cpu by
 * default; webgpu through Dawn, meaningful on a machine with a GPU) and in Chromium through
 * Playwright (webgpu, webgl, wasm in a page; SwiftShader when there is no GPU). Prints the tables
 * and writes them to docs/BENCHMARKS.md with the machine. A measurement, not a test.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs, intFlag, UsageError } from './args';
import { initNodeBackend, type NodeBackendName } from '../src/engine/node-backend';
import { getPreset, DEFAULT_PRESET } from '../src/core/experiment/presets';
import { benchmarkCohort, benchTable, type BenchRow } from '../src/core/benchmark';
import { runBrowserBench } from './bench-browser';

type Row = BenchRow & { adapter?: string | null };

async function nodeRows(list: NodeBackendName[], repeats: number, skipped: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  const spec = getPreset(DEFAULT_PRESET)!.spec;
  for (const b of list) {
    try {
      console.error(`node: benchmarking ${b} ...`);
      const report = await initNodeBackend(b, { fallback: false });
      rows.push(...(await benchmarkCohort(spec, repeats)).map((r) => ({ ...r, adapter: report.adapter })));
    } catch (e) {
      skipped.push(`node ${b}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
  return rows;
}

/** Replace one marked section of BENCHMARKS.md, keeping the others (e.g. GPU results). */
function writeSection(path: string, marker: string, section: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text =
      '# Benchmarks\n\nMeasurements, not tests (`npm run bench`). Speed on SwiftShader, the CPU emulation of WebGPU ' +
      'used when there is no GPU, says nothing about a real GPU; compare backends within one table only.\n';
  }
  const open = `<!-- ${marker} -->`;
  const close = `<!-- /${marker} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const block = `${open}\n${section}\n${close}`;
  writeFileSync(path, start >= 0 && end > start ? text.slice(0, start) + block + text.slice(end + close.length) : `${text}\n${block}\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { backends: 'string', browser: 'string', 'no-browser': 'boolean', out: 'string', repeats: 'string' });
  const repeats = intFlag(args, 'repeats', 1, 100) ?? 5;
  const nodeList = String(args.flags.get('backends') ?? 'wasm,cpu').split(',');
  for (const b of nodeList) if (!['wasm', 'cpu', 'webgpu'].includes(b)) throw new UsageError(`--backends: unknown backend "${b}" (wasm, cpu, webgpu)`);
  const browserList = args.flags.has('no-browser') ? [] : String(args.flags.get('browser') ?? 'webgpu,webgl,wasm').split(',');
  for (const b of browserList) if (!['webgpu', 'webgl', 'wasm', 'cpu'].includes(b)) throw new UsageError(`--browser: unknown backend "${b}"`);
  const out = (args.flags.get('out') as string | undefined) ?? 'docs/BENCHMARKS.md';

  const spec = getPreset(DEFAULT_PRESET)!.spec;
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const what =
    `Preset \`${DEFAULT_PRESET}\`: B ${spec.grpo.promptsPerStep} prompts x G ${spec.grpo.groupSize} completions, ` +
    `warm-start batch ${spec.warmStart.batchSize}; each number is the median of ${repeats} runs after 2 warm-up runs.`;

  const skipped: string[] = [];
  const rowsNode = await nodeRows(nodeList as NodeBackendName[], repeats, skipped);
  const nodeSection = [`## Node, ${date}`, '', `Machine: ${machine}. ${what}`, '', benchTable(rowsNode), ''].join('\n');
  console.log(nodeSection);
  writeSection(out, 'node', nodeSection);

  if (browserList.length) {
    const { rows, browser, skipped: bskip } = await runBrowserBench(browserList, repeats);
    skipped.push(...bskip);
    const section = [`## Chromium (${browser}), ${date}`, '', `Machine: ${machine}. ${what}`, '', benchTable(rows), ''].join('\n');
    console.log(section);
    writeSection(out, 'browser', section);
  }
  if (skipped.length) console.log('Not measured: ' + skipped.join('; '));
  console.error(`wrote ${out}`);
  process.exit(0); // Dawn (webgpu in Node) keeps the process alive (PLATFORM.md)
}

main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
