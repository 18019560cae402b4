/**
 * npx tsx cli/engines.ts [--lab-mlp FILE] [--lab-tf FILE] [--trl-mlp FILE] [--trl-gpt FILE] [--seeds LIST]
 *
 * Reads the engine-by-model comparison of docs/PREREG-engines.md: the peer arm's held-out gain
 * (end − start pass@1, the mean of its two members) per seed in four cells, {lab engine, TRL} x
 * {the lab's MLP pair, a transformer pair}, and prints the primary family with Holm:
 *   E1  TRL's peer arm learns with the lab's MLP and the lab's weights: gain(T-MLP)
 *   E2  the engine, the model fixed: gain(T-MLP) − gain(L-MLP)
 *   F1  the lab's peer arm learns with transformers: gain(L-TF)
 *   F2  the family, the engine fixed: gain(L-TF) − gain(L-MLP)
 * then the secondary lines (T-MLP's self arm where it ran; T-GPT − L-TF, described). A cell that
 * lacks a seed of the plan leaves every claim that reads it PENDING: no verdict on fewer seeds
 * than the plan names.
 *
 * Files (defaults): lab cells are `npm run experiment` result files (bench/results/engines/lab-mlp.json,
 * lab-tf.json); TRL cells are `npm run trl-check --out` files (bench/results/trl-check-lab-mlp.json,
 * bench/results/trl-check-8.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, runMain, seedsFlag, UsageError } from '../common/args';
import { readResultFile } from '../common/result-file';
import { armMean as labArmMean } from '../science/science-stats';
import { armMean as trlArmMean, type TrlCheckResult } from './trl-check-lib';
import { describePaired, fmtP, holmVerdicts, paired, type Paired } from '../science/science-paired';
import type { RunSummary } from '../../src/core/experiment/events';

const FLAGS = { 'lab-mlp': 'string', 'lab-tf': 'string', 'trl-mlp': 'string', 'trl-gpt': 'string', seeds: 'string' } as const;
export const PLAN_SEEDS = [109, 110, 111, 112, 113, 114, 115, 116];

/** Per seed, an arm's start and end held-out pass@1 (means over its members), or absent. */
export type Cell = Map<number, Map<string, { start: number; end: number }>>;

export function labCell(runs: readonly RunSummary[]): Cell {
  const cell: Cell = new Map();
  for (const r of runs) {
    const arms = new Map<string, { start: number; end: number }>();
    for (const arm of ['oracle', 'self', 'peer']) {
      const start = labArmMean(r, arm, 'passStart');
      const end = labArmMean(r, arm, 'passEnd');
      if (Number.isFinite(start) && Number.isFinite(end)) arms.set(arm, { start, end });
    }
    cell.set(r.seed, arms);
  }
  return cell;
}

export function trlCell(file: Pick<TrlCheckResult, 'figures'>): Cell {
  const cell: Cell = new Map();
  for (const a of file.figures) {
    if (!cell.has(a.seed)) cell.set(a.seed, new Map());
    cell.get(a.seed)!.set(a.arm, { start: trlArmMean(a, 'start'), end: trlArmMean(a, 'end') });
  }
  return cell;
}

const gain = (cell: Cell | null, seed: number, arm = 'peer') => {
  const a = cell?.get(seed)?.get(arm);
  return a ? a.end - a.start : NaN;
};

export interface EngineClaim {
  id: string;
  text: string;
  /** Per plan seed; NaN where a cell lacks the seed. */
  d: number[];
}

export function engineClaims(cells: { labMlp: Cell | null; labTf: Cell | null; trlMlp: Cell | null; trlGpt: Cell | null }, seeds = PLAN_SEEDS) {
  const { labMlp, labTf, trlMlp, trlGpt } = cells;
  const primary: EngineClaim[] = [
    { id: 'E1', text: "TRL's peer arm learns with the lab's MLP and weights: gain(T-MLP)", d: seeds.map((s) => gain(trlMlp, s)) },
    { id: 'E2', text: 'the engine, the model fixed: gain(T-MLP) − gain(L-MLP)', d: seeds.map((s) => gain(trlMlp, s) - gain(labMlp, s)) },
    { id: 'F1', text: "the lab's peer arm learns with transformers: gain(L-TF)", d: seeds.map((s) => gain(labTf, s)) },
    { id: 'F2', text: 'the family, the engine fixed: gain(L-TF) − gain(L-MLP)', d: seeds.map((s) => gain(labTf, s) - gain(labMlp, s)) },
  ];
  const secondary: EngineClaim[] = [
    { id: 'S1', text: "T-MLP's self arm collapses (self start − self end)", d: seeds.map((s) => -gain(trlMlp, s, 'self')) },
    { id: 'S2', text: "T-MLP's peer arm ends above its self arm (peer end − self end)", d: seeds.map((s) => (trlMlp?.get(s)?.get('peer')?.end ?? NaN) - (trlMlp?.get(s)?.get('self')?.end ?? NaN)) },
    { id: 'D1', text: 'described: gain(T-GPT) − gain(L-TF) (engine and weights both differ)', d: seeds.map((s) => gain(trlGpt, s) - gain(labTf, s)) },
  ];
  return { primary, secondary };
}

const complete = (c: EngineClaim) => c.d.every(Number.isFinite);
const doneSeeds = (c: EngineClaim, seeds: number[]) => seeds.filter((_, i) => Number.isFinite(c.d[i]));

/** The printed lines: per claim its interval and verdict, Holm over the complete claims of a family; PENDING otherwise. */
export function engineLines(claims: EngineClaim[], seeds: number[], holm: boolean): string[] {
  const stats = new Map<string, Paired>(claims.filter(complete).map((c) => [c.id, paired(c.d)]));
  const ready = claims.filter(complete);
  // The family is the plan's: Holm only once every claim of it has all its seeds.
  const whole = ready.length === claims.length;
  const adjusted = holm && whole ? holmVerdicts(ready.map((c) => stats.get(c.id)!)) : [];
  return claims.map((c) => {
    if (!complete(c)) {
      const done = doneSeeds(c, seeds);
      const partial = done.length >= 2 ? `; on the ${done.length} seeds done (${done.join(',')}): ${describePaired(paired(c.d.filter(Number.isFinite)))}` : '';
      return `${c.id} PENDING (${done.length} of ${seeds.length} seeds): ${c.text}${partial}`;
    }
    const s = stats.get(c.id)!;
    const h = holm ? adjusted[ready.indexOf(c)] : null;
    const holmText = !holm ? '' : h ? `; Holm p ${fmtP(h.pAdjusted)}: ${h.verdict.toUpperCase()}` : '; Holm PENDING (the family is not complete)';
    return `${c.id} ${s.verdict.toUpperCase()}: ${c.text}: ${describePaired(s)}${holmText}`;
  });
}

function readLab(path: string): Cell | null {
  if (!existsSync(path)) return null;
  const r = readResultFile(path);
  if (!r.ok) throw new UsageError(r.error);
  return labCell(r.file.runs);
}

function readTrl(path: string): Cell | null {
  if (!existsSync(path)) return null;
  return trlCell(JSON.parse(readFileSync(path, 'utf8')) as TrlCheckResult);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  const seeds = seedsFlag(args) ?? PLAN_SEEDS;
  const cells = {
    labMlp: readLab(String(args.flags.get('lab-mlp') ?? 'bench/results/engines/lab-mlp.json')),
    labTf: readLab(String(args.flags.get('lab-tf') ?? 'bench/results/engines/lab-tf.json')),
    trlMlp: readTrl(String(args.flags.get('trl-mlp') ?? 'bench/results/trl-check-lab-mlp.json')),
    trlGpt: readTrl(String(args.flags.get('trl-gpt') ?? 'bench/results/trl-check-8.json')),
  };
  const f = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '-');
  console.log('peer arm, held-out pass@1 end − start, per seed (mean of its two members):');
  console.log('| seed | L-MLP | T-MLP | L-TF | T-GPT |');
  console.log('|---|---|---|---|---|');
  for (const s of seeds) console.log(`| ${s} | ${f(gain(cells.labMlp, s))} | ${f(gain(cells.trlMlp, s))} | ${f(gain(cells.labTf, s))} | ${f(gain(cells.trlGpt, s))} |`);
  const base = (c: Cell | null, s: number) => c?.get(s)?.get('peer')?.start ?? NaN;
  console.log(`\nbase pass@1, T-MLP − L-MLP (the same weights; sampling noise only): ${seeds.map((s) => f(base(cells.trlMlp, s) - base(cells.labMlp, s))).join(' ')}`);
  const { primary, secondary } = engineClaims(cells, seeds);
  console.log('\nprimary (Holm over the four):');
  for (const l of engineLines(primary, seeds, true)) console.log(`  ${l}`);
  console.log('secondary:');
  for (const l of engineLines(secondary.slice(0, 2), seeds, true)) console.log(`  ${l}`);
  for (const l of engineLines(secondary.slice(2), seeds, false)) console.log(`  ${l}`);
}

if (process.argv[1]?.endsWith('engines.ts')) runMain(main, 'engines');
