/**
 * The TRL run's figures in the docs, from the files `npm run trl-check` wrote: docs/RESULTS.md's
 * block `trl-check:results` (per arm and the lab's claims over seeds, beside the browser's claims
 * on the same seeds, read from that file's own science block) and docs/BENCHMARKS.md's block
 * `trl-check:benchmarks` (install, time per step, the machine, the versions).
 *
 *   npx tsx cli/trl/trl-check-docs.ts           exit 1 when a block differs from what the files give
 *   npx tsx cli/trl/trl-check-docs.ts --write   rewrite the two blocks
 *
 * The files: bench/results/trl-check.json (the default `npm run trl-check`, venv installed by the
 * run itself) and bench/results/trl-check-8.json (seeds 109-116, the browser's confirmation seeds).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describePaired, holmVerdicts, type Paired } from '../science/science-paired';
import type { TrlCpuRun } from '../../src/export/trl/cpuRunType';
import { armMean, verdictLines, type ArmFigures, type MemberFigures, type TrlCheckResult } from './trl-check-lib';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const DEFAULT_RUN = 'bench/results/trl-check.json';
export const SEEDS_RUN = 'bench/results/trl-check-8.json';
/** The exported README's account of the run, written from the two files. */
export const CPU_RUN_MODULE = 'src/export/trl/cpuRun.ts';
/** The browser's confirmation block of the same preset, in docs/RESULTS.md. */
export const BROWSER_BLOCK = 'peers-learn@109,110,111,112,113,114,115,116';

export const readResult = (path: string): TrlCheckResult => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as TrlCheckResult;

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sd = (xs: readonly number[]) => (xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1)) : NaN);
const f2 = (x: number) => x.toFixed(2);
const meanSd = (xs: readonly number[], digits = 2) => `${mean(xs).toFixed(digits)} ± ${sd(xs).toFixed(digits)}`;
/** "109-116" for consecutive seeds, else "109,111". */
export const seedList = (seeds: readonly number[]) =>
  seeds.length > 2 && seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1) ? `${seeds[0]}-${seeds[seeds.length - 1]}` : seeds.join(',');

/** Per seed, the arm's value of `key` (mean over its members), in seed order. */
function perSeed(r: TrlCheckResult, arm: string, key: keyof Omit<MemberFigures, 'member'>): number[] {
  return r.figures
    .filter((a) => a.arm === arm)
    .sort((x, y) => x.seed - y.seed)
    .map((a) => armMean(a, key));
}

const arms = (r: TrlCheckResult) => [...new Set(r.figures.map((a) => a.arm))];

/** The claims of `verdictLines` with their Holm verdicts (the family: every claim read on the run). */
export function claims(r: TrlCheckResult): { id: string; text: string; stats: Paired; holm: string; pAdjusted: number }[] {
  const lines = verdictLines(r.figures);
  const holm = holmVerdicts(lines.map((l) => l.stats));
  return lines.map((l, i) => ({ id: l.claim.id, text: l.claim.text, stats: l.stats, holm: holm[i].verdict, pAdjusted: holm[i].pAdjusted }));
}

/** The browser's verdict of each claim on the block's seeds: "+0.15 [+0.02, +0.27] SHOWN; Holm SHOWN". */
export function browserClaims(resultsMd: string, block = BROWSER_BLOCK): Map<string, string> {
  const body = (name: string) => {
    const m = resultsMd.match(new RegExp(`<!-- science:${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->([\\s\\S]*?)<!-- /science:`));
    if (!m) throw new Error(`docs/RESULTS.md has no block science:${name}`);
    return m[1];
  };
  const holm = new Map([...body(`${block}/holm`).matchAll(/^(\([^)]+\)) HOLM ([A-Z ]+?) \[/gm)].map((m) => [m[1], m[2]]));
  const out = new Map<string, string>();
  for (const m of body(block).matchAll(/^(\([^)]+\)) ([A-Z ]+?): .*?: ([+−-]\d\.\d\d) \[95% CI ([+−-]\d\.\d\d), ([+−-]\d\.\d\d)\]/gm)) {
    out.set(m[1], `${m[3]} [${m[4]}, ${m[5]}] ${m[2]}; Holm ${holm.get(m[1]) ?? '?'}`);
  }
  return out;
}

const short = (s: Paired, holm: string) => {
  const d = describePaired(s);
  const [head] = d.split('], ');
  return `${head.replace('95% CI ', '')}] ${s.verdict.toUpperCase()}; Holm ${holm.toUpperCase()}`;
};

/** docs/RESULTS.md's block: the arms over the seeds of `main`, the claims on `main` and `small`, the browser's beside them. */
export function resultsBlock(main: TrlCheckResult, small: TrlCheckResult, resultsMd: string): string {
  const browser = browserClaims(resultsMd);
  const n = main.seeds.length;
  const rows = [
    `Per arm, mean ± sd over ${n} seeds (${seedList(main.seeds)}; each seed the mean of members ${main.figures[0].members.map((m) => m.member).join(' and ')}), ${main.steps} RL steps, from ${SEEDS_RUN}:`,
    '',
    '| arm | held-out pass@1 at the start | at the end | reward, first 10 steps | last 10 steps | pseudo-label accuracy, first 10 steps | last 10 steps |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const arm of arms(main)) {
    const v = (k: keyof Omit<MemberFigures, 'member'>) => meanSd(perSeed(main, arm, k));
    rows.push(`| ${arm} | ${v('start')} | ${v('end')} | ${v('rewardFirst')} | ${v('rewardLast')} | ${v('labelFirst')} | ${v('labelLast')} |`);
  }
  const big = claims(main);
  const few = new Map(claims(small).map((c) => [c.id, c]));
  rows.push(
    '',
    `The lab's claims (per-seed paired difference, mean [95% CI], verdict; Holm over these ${big.length} claims), the browser's on the same seeds from the block \`${BROWSER_BLOCK}\` above:`,
    '',
    `| claim | TRL, tiny GPT-2, seeds ${seedList(main.seeds)} | TRL, the default run, seeds ${seedList(small.seeds)} | browser, MLPs, seeds 109-116 |`,
    '|---|---|---|---|',
  );
  for (const c of big) {
    const s = few.get(c.id);
    rows.push(`| ${c.id} ${c.text} | ${short(c.stats, c.holm)} | ${s ? short(s.stats, s.holm) : '-'} | ${browser.get(c.id) ?? '-'} |`);
  }
  rows.push('', `Per seed (${SEEDS_RUN}), held-out pass@1 start → end per arm:`, '');
  rows.push(`| seed | ${arms(main).join(' | ')} |`, `|---|${arms(main).map(() => '---|').join('')}`);
  for (const seed of main.seeds) {
    const cell = (arm: string) => {
      const a = main.figures.find((f) => f.seed === seed && f.arm === arm);
      return a ? `${f2(armMean(a, 'start'))} → ${f2(armMean(a, 'end'))}` : '-';
    };
    rows.push(`| ${seed} | ${arms(main).map(cell).join(' | ')} |`);
  }
  return rows.join('\n');
}

const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);
const minutes = (s: number) => (s / 60).toFixed(1);

function secondsPerStep(r: TrlCheckResult, arm: string): number[] {
  return r.figures.filter((a) => a.arm === arm).flatMap((a: ArmFigures) => a.members.map((m) => m.secondsPerStep));
}

/** docs/BENCHMARKS.md's block: the machine, the versions, the install, the run's time and time per step. */
export function benchmarksBlock(fresh: TrlCheckResult, main: TrlCheckResult): string {
  const v = fresh.versions ?? {};
  const rows = [
    `Machine: ${fresh.machine.cpus} cores (${fresh.machine.cpu}), ${fresh.machine.os}, no GPU, Python ${fresh.machine.python}, Node ${fresh.machine.node}; ` +
      `${Object.entries(v).map(([k, x]) => `${k} ${x ?? 'missing'}`).join(', ')}. Measured ${fresh.date}, the machine shared with other work.`,
    '',
  ];
  if (fresh.install) {
    rows.push(
      `- **Install** (a new venv, \`pip install\` of requirements.txt${fresh.install.torchIndex ? `, torch from ${fresh.install.torchIndex}` : ' from PyPI, whose Linux torch wheel is the CUDA build with its nvidia packages'}): ` +
        `${fresh.install.seconds.toFixed(0)} s, ${gib(fresh.install.bytes)} GiB on disk.`,
    );
  }
  rows.push(
    `- **The whole \`npm run trl-check\`** (${fresh.install ? 'the install, ' : ''}the surface test, export, ${fresh.seeds.length} seeds × (2 tiny GPT-2 warm starts, ${arms(fresh).length} arms × ${fresh.steps} RL steps)): ` +
      `${fresh.totalSeconds.toFixed(0)} s (${minutes(fresh.totalSeconds)} min), of which ${fresh.wallSeconds.toFixed(0)} s after the venv (${DEFAULT_RUN}).`,
  );
  if (fresh.warmStarts?.length) {
    const ws = fresh.warmStarts;
    rows.push(
      `- **Warm start** (supervised, to the spec's target ${ws[0].target}, one process per member in turn): ${ws.length} members of ${ws[0].parameters} parameters, ` +
        `${mean(ws.map((w) => w.steps)).toFixed(0)} steps (${Math.min(...ws.map((w) => w.steps))}-${Math.max(...ws.map((w) => w.steps))}) in ${mean(ws.map((w) => w.seconds)).toFixed(1)} s on average.`,
    );
  }
  rows.push(
    '',
    `Seconds per RL step (TRL's train_runtime / steps, one member's process with one thread, its held-out evaluations included; the two members of an arm run side by side), mean ± sd over members and seeds, and the arm's wall time (launch.sh, both members) per seed:`,
    '',
    '| arm | s/step, the default run | wall s per arm, the default run | s/step, seeds 109-116 | wall s per arm, seeds 109-116 |',
    '|---|---|---|---|---|',
  );
  for (const arm of arms(main)) {
    const wall = (r: TrlCheckResult) => meanSd(r.figures.filter((a) => a.arm === arm).map((a) => a.wallSeconds), 0);
    rows.push(`| ${arm} | ${meanSd(secondsPerStep(fresh, arm))} | ${wall(fresh)} | ${meanSd(secondsPerStep(main, arm))} | ${wall(main)} |`);
  }
  rows.push('', `Seeds 109-116 (${SEEDS_RUN}): ${main.wallSeconds.toFixed(0)} s (${minutes(main.wallSeconds)} min) for ${main.seeds.length} seeds in the existing venv.`);
  return rows.join('\n');
}

/** The exported README's account of the run (src/export/trl/cpuRun.ts), from the two result files. */
export function trlCpuRunFrom(main: TrlCheckResult, fresh: TrlCheckResult): TrlCpuRun {
  const v = main.versions ?? {};
  return {
    date: main.date,
    machine: `${main.machine.cpus}-core ${main.machine.os.split(' ')[0] === 'linux' ? 'Linux' : main.machine.os.split(' ')[0]} ${main.machine.os.split(' ').pop() === 'x64' ? 'x86_64' : main.machine.os.split(' ').pop()} machine without a GPU`,
    python: main.machine.python,
    versions: Object.entries(v).map(([k, x]) => `${k} ${x ?? 'missing'}`).join(', '),
    seeds: seedList(main.seeds),
    steps: main.steps,
    arms: arms(main).map((arm) => ({ arm, start: f2(mean(perSeed(main, arm, 'start'))), end: f2(mean(perSeed(main, arm, 'end'))) })),
    claims: claims(main).map((c) => ({ id: c.id, text: c.text, mean: describePaired(c.stats).split(' [')[0], verdict: c.stats.verdict.toUpperCase(), holm: c.holm.toUpperCase() })),
    secondsPerStep: f2(mean(main.figures.flatMap((a) => a.members.map((m) => m.secondsPerStep)))),
    parameters: fresh.warmStarts?.[0]?.parameters ?? NaN,
    wholeRunSeeds: fresh.seeds.length,
    wholeRunMinutes: minutes(fresh.totalSeconds),
    installMinutes: fresh.install ? minutes(fresh.install.seconds) : null,
    installGiB: fresh.install ? gib(fresh.install.bytes) : null,
  };
}

export function cpuRunModule(run: TrlCpuRun): string {
  return (
    '/**\n' +
    " * What `npm run trl-check` ran and found, as the exported README states it (readme.ts). Written by\n" +
    ' * `npx tsx cli/trl/trl-check-docs.ts --write` from bench/results/trl-check-8.json and trl-check.json;\n' +
    ' * cli/trl/trl-check-docs.test.ts fails when it and the files differ.\n' +
    ' */\n' +
    "import type { TrlCpuRun } from './cpuRunType';\n\n" +
    `export const TRL_CPU_RUN: TrlCpuRun = ${JSON.stringify(run, null, 2)};\n`
  );
}

/** `text` with the block `trl-check:NAME` replaced by `body` (throws when the markers are missing). */
export function fillBlock(text: string, name: string, body: string): string {
  const open = `<!-- trl-check:${name} -->`;
  const close = `<!-- /trl-check:${name} -->`;
  const i = text.indexOf(open);
  const j = text.indexOf(close);
  if (i < 0 || j < i) throw new Error(`no block ${open} ... ${close}`);
  return text.slice(0, i + open.length) + '\n' + body + '\n' + text.slice(j);
}

/** The two docs as the result files give them. */
export function expectedDocs(): { path: string; now: string; want: string }[] {
  const fresh = readResult(DEFAULT_RUN);
  const main = readResult(SEEDS_RUN);
  const results = readFileSync(join(ROOT, 'docs/RESULTS.md'), 'utf8');
  const bench = readFileSync(join(ROOT, 'docs/BENCHMARKS.md'), 'utf8');
  const cpuRun = readFileSync(join(ROOT, CPU_RUN_MODULE), 'utf8');
  return [
    { path: CPU_RUN_MODULE, now: cpuRun, want: cpuRunModule(trlCpuRunFrom(main, fresh)) },
    { path: 'docs/RESULTS.md', now: results, want: fillBlock(results, 'results', resultsBlock(main, fresh, results)) },
    { path: 'docs/BENCHMARKS.md', now: bench, want: fillBlock(bench, 'benchmarks', benchmarksBlock(fresh, main)) },
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const d of expectedDocs()) {
    if (d.now === d.want) continue;
    if (write) {
      writeFileSync(join(ROOT, d.path), d.want);
      console.log(`wrote ${d.path}`);
    } else {
      console.log(`${d.path}: the trl-check block differs from the result files (npx tsx cli/trl/trl-check-docs.ts --write)`);
      stale++;
    }
  }
  process.exit(stale ? 1 : 0);
}
