/**
 * npm run bench [-- flags]: count and time RL steps per backend (docs/BENCHMARKS.md says how to
 * read the numbers). A measurement, not a test.
 *
 *   --backends LIST       Node backends, of wasm, cpu, webgpu (Dawn; SwiftShader without a GPU). Default wasm.
 *   --no-node             skip the Node rows
 *   --cases LIST          Node cases, of collapse, quick, scaling (= scaling-1,-2,-4,-8: 1, 2, 4, 8
 *                         models of the collapse shape), scaling-N, transformer (collapse with
 *                         transformer members), peers-teach (its 7 transformers and a frozen teacher).
 *                         Default collapse,quick,scaling,transformer,peers-teach.
 *   --repeats N           measured RL steps per case (default 5), each timed and counted on its own
 *   --warmup N            unmeasured steps before them (default 2: shader compilation, optimiser state)
 *   --browser LIST        Chromium backends through bench.html, of webgpu, webgl, wasm, cpu.
 *                         Default webgpu,webgl,wasm.
 *   --browser-cases LIST  cases in Chromium (default collapse,scaling-1: SwiftShader is slow)
 *   --browser-timeout MIN per Chromium backend (default 30)
 *   --no-browser          skip Chromium
 *   --no-bundle           skip `vite build` and the gzipped sizes of the first JavaScript and the worker
 *   --no-torch            skip the PyTorch references (scripts/torch_reference.py of the collapse,
 *                         peers-teach and transformer cohorts, cli/bench/bench-torch.ts; run only when
 *                         Debian's python has torch: apt-get install python3-torch)
 *   --page                also time the app itself: build, serve, open the link, press Start, and
 *                         record seconds to the first RL step shown and to the end of the run
 *   --page-query Q        the link's query for --page (default '': the default preset on the
 *                         backend the lab picks; e.g. '?backend=wasm' or '?preset=quick')
 *   --page-timeout MIN    give up waiting for the run's end after this long (default 60)
 *   --page-profile S      also sample every thread's JavaScript for S seconds from RL step 3 (Chrome
 *                         tracing, v8.cpu_profiler) and list where the training worker's time went
 *   --task ID             also time a gallery task in the app (cli/bench/bench-task.ts): from picking it to the
 *                         first RL step, from reopening its link to the first step (cached warm start),
 *                         and a 2,000-row CSV's preview; into bench/results/task.json, section <!-- task -->
 *   --verdict IDS         also time, per question, from "Use this task" to the verdict on the page (all questions, or
 *                         IDS comma-separated: cli/bench/verdict-questions.ts; cli/bench/bench-verdict.ts), wasm, a
 *                         fresh profile each: into bench/results/verdict.json (rows replaced per question, written
 *                         after each), docs/TASKS.md's generated table (npx tsx scripts/docs.ts --write)
 *   --startup N           open the link (--page-query) N times, each in a fresh profile, and record where the
 *                         seconds from Start to the first RL step went (cli/bench/bench-startup.ts): into
 *                         bench/results/startup.json, section <!-- startup -->
 *   --class N             the presenter's class view with N seats at the room's byte budget, on the page's own
 *                         code in Node (cli/bench/bench-class.ts): parse, first build, a rebuild per new event, heap;
 *                         into bench/results/class-view.json, section <!-- class-view --> and docs/ROOM.md's line
 *   --room-start N        a peers-learn room's seats from joining to their first RL step (cli/bench/bench-room.ts):
 *                         N seats one at a time (the room's seeds in join order), 2 seats without shipped
 *                         warm starts, and --room-together K seats (default 6; 0: none) joining a second
 *                         apart; into bench/results/room-start.json, section <!-- room-start -->
 *   --room-preset NAME    the room's preset for --room-start (default peers-learn; overlap: each seat one level);
 *                         the file keeps each preset's last runs
 *   --out FILE            the Markdown to update (default docs/BENCHMARKS.md; only its marked sections
 *                         <!-- node -->, <!-- browser -->, <!-- torch -->, <!-- bundle -->, <!-- page -->
 *                         are replaced, the rest is kept)
 *   --json FILE           the rows (default bench/results/latest.json; rows this run measured replace
 *                         the same (where, backend, preset, models, shape), others are kept). bundle.json,
 *                         torch.json and page.json (one timing per --page-query) go to the same folder.
 *   --help
 *
 * Quick check: npm run bench -- --repeats 1 --no-browser
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { runTaskBench, taskSection, type TaskTiming } from './bench-task';
import { runVerdictBench, type VerdictTiming } from './bench-verdict';
import { startupOf, startupSection, type StartupTiming } from './bench-startup';
import { classViewRoomLine, classViewSection, runClassBench, type ClassViewTiming } from './bench-class';
import { roomStartSection, runRoomStartBench, type RoomStartRun } from './bench-room';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs, intFlag, UsageError, runMain } from '../common/args';
import { initNodeBackend, type NodeBackendName } from '../../src/engine/node-backend';
import {
  benchCase,
  measureCase,
  mergeRows,
  parseCases,
  rowProblems,
  rowsTable,
  scalingTable,
  topKernelLines,
  type BenchRow,
  type CaseId,
} from '../../src/core/benchmark/index';
import { runBrowserBench, runPageBench, type PageTiming } from './bench-browser';
import { bundleSection, bundleSizes, torchReference } from './bench-extra';
import { torchCohorts, torchSection, type TorchResult, type TorchSkip } from './bench-torch';

const FLAGS = {
  backends: 'string',
  'no-node': 'boolean',
  cases: 'string',
  repeats: 'string',
  warmup: 'string',
  browser: 'string',
  'browser-cases': 'string',
  'browser-timeout': 'string',
  'no-browser': 'boolean',
  'no-bundle': 'boolean',
  'no-torch': 'boolean',
  page: 'boolean',
  'page-query': 'string',
  'page-timeout': 'string',
  'page-profile': 'string',
  task: 'string',
  verdict: 'string',
  startup: 'string',
  class: 'string',
  'room-start': 'string',
  'room-together': 'string',
  'room-preset': 'string',
  out: 'string',
  json: 'string',
  help: 'boolean',
} as const;

const USAGE = `usage: npm run bench -- [--backends wasm,cpu,webgpu | --no-node] [--cases collapse,quick,scaling,transformer,peers-teach]
                        [--repeats 5] [--warmup 2] [--browser webgpu,webgl,wasm | --no-browser]
                        [--browser-cases collapse,scaling-1] [--browser-timeout MIN] [--no-bundle] [--no-torch]
                        [--page [--page-query '?backend=wasm'] [--page-timeout MIN] [--page-profile S]] [--task GALLERY_ID] [--verdict all|IDS] [--room-start N [--room-together K] [--room-preset NAME]]
                        [--startup N] [--class SEATS]
                        [--out docs/BENCHMARKS.md] [--json bench/results/latest.json]
(flags: the comment at the top of cli/bench/bench.ts)`;

const log = (line: string) => console.error(line);
const PRESET_ORDER = ['collapse', 'quick', 'collapse-transformer', 'peers-teach', 'scaling'];
const BACKEND_ORDER = ['webgpu', 'webgl', 'wasm', 'cpu'];

function listFlag(value: unknown, fallback: string, known: readonly string[], name: string): string[] {
  const list = String(value ?? fallback).split(',').filter(Boolean);
  for (const b of list) if (!known.includes(b)) throw new UsageError(`--${name}: unknown backend "${b}" (${known.join(', ')})`);
  return list;
}

function casesFlag(value: unknown, fallback: string, name: string): CaseId[] {
  try {
    return parseCases(String(value ?? fallback));
  } catch (e) {
    throw new UsageError(`--${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The array in a JSON file, or [] when the file is missing, unreadable or not an array. */
function readArray<T>(path: string): T[] {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** JSON with an array's items one per line (rows diff line by line), anything else indented. */
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const text = Array.isArray(value) ? `[\n${value.map((v) => ' ' + JSON.stringify(v)).join(',\n')}\n]` : JSON.stringify(value, null, 1);
  writeFileSync(path, text + '\n');
}

/** Replace one marked section of the Markdown, keeping the rest (e.g. GPU results). */
function writeSection(path: string, marker: string, section: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '# Benchmarks\n\nMeasurements, not tests (`npm run bench`).\n';
  }
  const open = `<!-- ${marker} -->`;
  const close = `<!-- /${marker} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const block = `${open}\n${section}\n${close}`;
  writeFileSync(path, start >= 0 && end > start ? text.slice(0, start) + block + text.slice(end + close.length) : `${text}\n${block}\n`);
}

function sortRows(rows: BenchRow[]): BenchRow[] {
  const rank = (xs: string[], x: string) => (xs.includes(x) ? xs.indexOf(x) : xs.length);
  return [...rows].sort(
    (a, b) =>
      rank(BACKEND_ORDER, a.backend) - rank(BACKEND_ORDER, b.backend) ||
      rank(PRESET_ORDER, a.preset) - rank(PRESET_ORDER, b.preset) ||
      a.models - b.models,
  );
}

function machineLine(): string {
  const cpu = cpus();
  const load = loadavg().map((x) => x.toFixed(1)).join(', ');
  return `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average when this section was written ${load}`;
}

function rowsSection(title: string, rows: BenchRow[], machine: string): string {
  const dates = [...new Set(rows.map((r) => r.date))].sort().join(', ');
  const steps = [...new Set(rows.map((r) => `${r.warmup} warm-up + ${r.steps} measured`))].join('; ');
  const scaling = scalingTable(rows);
  return [
    `## ${title}, ${dates}`,
    '',
    `Machine: ${machine}. Steps per case: ${steps}; counts are medians over the measured steps.`,
    '',
    ...(rows.some((r) => r.preset !== 'scaling') ? [rowsTable(rows.filter((r) => r.preset !== 'scaling')), ''] : []),
    ...(scaling ? ['Models-scaling series (1, 2, 4, 8 models of the collapse shape in self arms):', '', scaling, ''] : []),
    'Most frequent kernels per step:',
    '',
    topKernelLines(rows),
    '',
  ].join('\n');
}

function pageSection(timings: PageTiming[]): string {
  const s = (x: number | null) => (x === null ? 'not reached' : x.toFixed(1));
  const dates = [...new Set(timings.map((p) => p.date))].sort().join(', ');
  const lines = [
    `## Time to phenomenon in Chromium, ${dates}`,
    '',
    '`npm run bench -- --page [--page-query Q]`: the production build served by `vite preview`, opened at the link in a ' +
      'fresh browser profile, Start pressed as soon as it was enabled; seconds from opening the page. The default link ' +
      'opens the default preset on the backend the lab picks. "s / step": from the first RL step shown to the end, per ' +
      'step (held-out evaluations included). Load: the machine\'s load average when the link was timed.',
    '',
    '| link | browser | backend | Start enabled (s) | first RL step shown (s) | end of the run (s) | RL steps shown | s / step | load |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...timings.map(
      (p) =>
        `| \`/${p.query}\` | ${p.browser} | ${p.backend} | ${s(p.startEnabledS)} | ${s(p.firstStepS)} | ` +
        `${s(p.doneS)}${p.timedOut ? ' (timed out)' : ''} | ${p.steps} | ${p.secondsPerStep != null ? p.secondsPerStep.toFixed(3) : '–'} | ${p.load ?? '–'} |`,
    ),
    '',
  ];
  for (const p of timings.filter((t) => t.measurement)) lines.push(`- \`/${p.query}\`, the lab's own backend measurement: ${p.measurement}`);
  const timed = timings.filter((t) => t.startup?.marks.length);
  if (timed.length) {
    // The page's own start-up timeline (Details, "Start-up"): seconds each phase took after the one before.
    const phases = ['backend', 'warm', 'base', 'step'] as const;
    const words: Record<(typeof phases)[number], string> = { backend: 'backend chosen', warm: 'warm start began', base: 'warm starts ready, base evaluated', step: 'first RL step shown' };
    lines.push('', 'Where the seconds from Start to the first RL step went (the page\'s start-up timeline; seconds each phase took after the one before, a dash where it was not a phase of that run):', '');
    lines.push(`| link | Start pressed (s after opening) | ${phases.map((p) => words[p]).join(' | ')} |`, `|---|---:|${phases.map(() => '---:').join('|')}|`);
    for (const t of timed) {
      let before = 0;
      const cells = phases.map((p) => {
        const m = t.startup!.marks.find((x) => x.phase === p);
        if (!m) return '–';
        const took = m.atMs - before;
        before = m.atMs;
        return (took / 1000).toFixed(2);
      });
      lines.push(`| start-up of \`/${t.query}\` | ${t.startup!.openToStartMs == null ? '–' : (t.startup!.openToStartMs / 1000).toFixed(2)} | ${cells.join(' | ')} |`);
    }
  }
  for (const p of timings.filter((t) => t.profile?.length)) {
    lines.push('', `Profile of \`/${p.query}\` (\`--page-profile\`), self time per thread:`, '');
    for (const t of p.profile!.filter((x) => x.totalMs - x.idleMs > 50)) {
      const busy = t.totalMs - t.idleMs;
      const top = t.self.filter((f) => f.fn !== '(idle)').slice(0, 8);
      const incl = Object.entries(t.inclusive).filter(([, ms]) => ms > 0);
      lines.push(
        `- ${t.thread}: ${(t.totalMs / 1000).toFixed(1)} s sampled, ${((100 * busy) / t.totalMs).toFixed(0)}% busy; ` +
          top.map((f) => `${f.fn} ${((100 * f.ms) / busy).toFixed(1)}%`).join(', ') +
          (incl.length ? `; inclusive: ${incl.map(([f, ms]) => `${f} ${((100 * ms) / busy).toFixed(1)}%`).join(', ')}` : ''),
      );
    }
  }
  lines.push('');
  return lines.join('\n');
}

async function nodeRows(backends: NodeBackendName[], cases: CaseId[], repeats: number, warmup: number, skipped: string[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const b of backends) {
    let adapter: string | null;
    try {
      log(`node: ${b} ...`);
      adapter = (await initNodeBackend(b, { fallback: false })).adapter;
    } catch (e) {
      skipped.push(`node ${b}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      continue;
    }
    for (const id of cases) {
      try {
        const row = await measureCase(benchCase(id), { where: 'node', repeats, warmup, adapter, log: (l) => log(`node ${b}: ${l}`) });
        log(`node ${b}: ${id}: ${row.kernelsPerStep} kernels/step, ${row.stepMs.median.toFixed(0)} ms/step`);
        rows.push(row);
      } catch (e) {
        skipped.push(`node ${b} ${id}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const repeats = intFlag(args, 'repeats', 1, 100) ?? 5;
  const warmup = intFlag(args, 'warmup', 0, 20) ?? 2;
  const nodeBackends = args.flags.has('no-node')
    ? []
    : (listFlag(args.flags.get('backends'), 'wasm', ['wasm', 'cpu', 'webgpu'], 'backends') as NodeBackendName[]);
  const cases = casesFlag(args.flags.get('cases'), 'collapse,quick,scaling,transformer,peers-teach', 'cases');
  const browserBackends = args.flags.has('no-browser') ? [] : listFlag(args.flags.get('browser'), 'webgpu,webgl,wasm', ['webgpu', 'webgl', 'wasm', 'cpu'], 'browser');
  const browserCases = casesFlag(args.flags.get('browser-cases'), 'collapse,scaling-1', 'browser-cases');
  const browserTimeout = intFlag(args, 'browser-timeout', 1, 600) ?? 30;
  const pageTimeout = intFlag(args, 'page-timeout', 1, 600) ?? 60;
  const pageQuery = (args.flags.get('page-query') as string | undefined) ?? '';
  const pageProfile = intFlag(args, 'page-profile', 1, 120) ?? undefined;
  if (pageQuery && !pageQuery.startsWith('?')) throw new UsageError(`--page-query must start with ?, got "${pageQuery}"`);
  const out = (args.flags.get('out') as string | undefined) ?? 'docs/BENCHMARKS.md';
  const jsonPath = (args.flags.get('json') as string | undefined) ?? 'bench/results/latest.json';
  const resultsDir = dirname(jsonPath);
  const machine = machineLine();
  const skipped: string[] = [];

  // 1. RL steps in Node, then in Chromium: rows merged into latest.json, tables from the merged rows.
  let rows = readArray<BenchRow>(jsonPath).filter((r) => rowProblems(r).length === 0);
  const fresh = await nodeRows(nodeBackends, cases, repeats, warmup, skipped);
  if (browserBackends.length) {
    const r = await runBrowserBench(browserBackends, { cases: browserCases, repeats, warmup, timeoutMs: browserTimeout * 60_000 });
    skipped.push(...r.skipped);
    fresh.push(...r.rows.map((row) => ({ ...row, browser: r.browser })));
  }
  rows = mergeRows(rows, fresh);
  writeJson(jsonPath, rows);
  const nodeSet = sortRows(rows.filter((r) => r.where === 'node'));
  const browserSet = sortRows(rows.filter((r) => r.where === 'chromium'));
  if (fresh.some((r) => r.where === 'node')) {
    const section = rowsSection('Node', nodeSet, machine);
    console.log(section);
    writeSection(out, 'node', section);
  }
  if (fresh.some((r) => r.where === 'chromium')) {
    const browser = [...new Set(browserSet.map((r) => r.browser ?? 'Chromium'))].join(', ');
    const section = rowsSection(browser, browserSet, machine);
    console.log(section);
    writeSection(out, 'browser', section);
  }

  // 2. The PyTorch references: the collapse (MLP), peers-teach and collapse-transformer cohorts.
  if (!args.flags.has('no-torch')) {
    const results: TorchResult[] = [];
    const notRun: TorchSkip[] = [];
    for (const c of torchCohorts()) {
      const t = torchReference(c.shape, Math.max(3, repeats), log);
      if ('skipped' in t) {
        log(`torch ${c.preset}: ${t.skipped}`);
        notRun.push({ preset: c.preset, skipped: t.skipped });
      } else results.push({ ...t, preset: c.preset, target: c.target });
    }
    if (results.length) writeJson(join(resultsDir, 'torch.json'), results);
    const section = torchSection(results, notRun, rows, machineLine());
    console.log(section);
    writeSection(out, 'torch', section);
  }

  // 3. Bundle sizes.
  if (!args.flags.has('no-bundle')) {
    try {
      const b = await bundleSizes(log);
      writeJson(join(resultsDir, 'bundle.json'), b);
      const section = bundleSection(b);
      console.log(section);
      writeSection(out, 'bundle', section);
    } catch (e) {
      skipped.push(`bundle: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 4. Time to phenomenon in the app.
  if (args.flags.has('page')) {
    try {
      const p = await runPageBench(pageQuery, pageTimeout * 60_000, log, { profileSeconds: pageProfile });
      const pagePath = join(resultsDir, 'page.json');
      const timings = [...readArray<PageTiming>(pagePath).filter((t) => t.query !== p.query), p];
      writeJson(pagePath, timings);
      const section = pageSection(timings);
      console.log(section);
      writeSection(out, 'page', section);
    } catch (e) {
      skipped.push(`page: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 5. Where the start-up seconds go, over several fresh openings of the link.
  const startupRuns = intFlag(args, 'startup', 1, 20);
  if (startupRuns !== undefined) {
    try {
      const fresh: StartupTiming[] = [];
      for (let i = 0; i < startupRuns; i++) fresh.push(startupOf(await runPageBench(pageQuery, pageTimeout * 60_000, log)));
      const path = join(resultsDir, 'startup.json');
      const same = (a: StartupTiming, b: StartupTiming) => a.query === b.query && a.browser === b.browser;
      const runs = [...readArray<StartupTiming>(path).filter((r) => !fresh.some((f) => same(f, r))), ...fresh];
      writeJson(path, runs);
      const section = startupSection(runs);
      console.log(section);
      writeSection(out, 'startup', section);
    } catch (e) {
      skipped.push(`startup: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 6. A class's seats, from joining to their first RL step.
  const roomSeats = intFlag(args, 'room-start', 1, 30);
  if (roomSeats !== undefined) {
    try {
      const preset = (args.flags.get('room-preset') as string | undefined) ?? 'peers-learn';
      const fresh = await runRoomStartBench({ preset, alone: roomSeats, together: intFlag(args, 'room-together', 0, 30) ?? 6, log });
      // The file keeps each preset's last runs: this preset's are replaced, another's kept.
      const path = join(resultsDir, 'room-start.json');
      const kept = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as RoomStartRun[]).filter((r) => r.preset !== preset) : [];
      const runs = [...kept, ...fresh];
      writeJson(path, runs);
      const section = roomStartSection(runs);
      console.log(section);
      writeSection(out, 'room-start', section);
    } catch (e) {
      skipped.push(`room-start: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 7. A task of one's own in the app.
  const taskId = args.flags.get('task') as string | undefined;
  if (taskId !== undefined) {
    try {
      const t = await runTaskBench(taskId, pageTimeout * 60_000, log);
      const taskPath = join(resultsDir, 'task.json');
      const timings = [...readArray<TaskTiming>(taskPath).filter((x) => x.task !== t.task), t];
      writeJson(taskPath, timings);
      const section = taskSection(timings);
      console.log(section);
      writeSection(out, 'task', section);
    } catch (e) {
      skipped.push(`task: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 7b. From "Use this task" to the verdict on the page, per question.
  const verdictIds = args.flags.get('verdict') as string | undefined;
  if (verdictIds !== undefined) {
    try {
      const ids = verdictIds === 'all' || verdictIds === '' ? [] : verdictIds.split(',').map((x) => x.trim());
      const verdictPath = join(resultsDir, 'verdict.json');
      await runVerdictBench(ids, pageTimeout * 60_000, log, (t) => {
        const rows = readArray<VerdictTiming>(verdictPath).filter((x) => x.question !== t.question);
        writeJson(verdictPath, [...rows, t]);
      });
      log('verdict: rows in bench/results/verdict.json; npx tsx scripts/docs.ts --write fills docs/TASKS.md');
    } catch (e) {
      skipped.push(`verdict: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  // 8. The presenter's class view at the room's byte budget (the page's code in Node).
  const classSeats = intFlag(args, 'class', 1, 200);
  if (classSeats !== undefined) {
    try {
      const r = runClassBench(classSeats, log);
      const path = join(resultsDir, 'class-view.json');
      const runs = [...readArray<ClassViewTiming>(path).filter((x) => x.seats !== r.seats), r].sort((a, b) => a.seats - b.seats);
      writeJson(path, runs);
      const section = classViewSection(runs);
      console.log(section);
      writeSection(out, 'class-view', section);
      writeSection('docs/ROOM.md', 'class-view', classViewRoomLine(runs));
    } catch (e) {
      skipped.push(`class: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }

  if (skipped.length) console.log('Not measured: ' + skipped.join('; '));
  log(`wrote ${out} and ${jsonPath}`);
  process.exit(0); // Dawn (webgpu in Node) and Vite keep the process alive (docs/TFJS-AND-BROWSER.md)
}

runMain(main, 'bench');
