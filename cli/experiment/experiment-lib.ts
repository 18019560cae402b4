/**
 * The pieces of `npm run experiment` that are worth testing on their own: resolving the spec from
 * flags, running one seed, and the summary table.
 */
import { readBoundedFile } from '../common/boundedFile';
import { NonFiniteRunError } from '../../src/core/experiment/runner';
import { pooledSeedRun, wholeSeedRun } from './pool';
import { parseSpec, type ExperimentSpec } from '../../src/core/experiment/spec';
import { getPreset, PRESETS } from '../../src/core/experiment/presets';
import type { MemberHistoryEntry, MemberInfo, RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { UsageError } from '../common/args';
import { RESULT_FILE_VERSION } from '../../src/core/experiment/resultFile';
import { overlapOfRun, type OverlapSeed } from '../../src/core/experiment/overlapResult';

const MAX_SPEC_BYTES = 256 * 1024;

/** The spec named by --preset or --spec, with --steps applied. Throws UsageError on bad input. */
export function resolveSpec(preset: string | undefined, specFile: string | undefined, steps?: number): ExperimentSpec {
  if ((preset === undefined) === (specFile === undefined)) throw new UsageError('give exactly one of --preset NAME or --spec FILE.json');
  let spec: ExperimentSpec;
  if (preset !== undefined) {
    const p = getPreset(preset);
    if (!p) throw new UsageError(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
    spec = structuredClone(p.spec);
  } else {
    const text = readBoundedFile(specFile!, MAX_SPEC_BYTES, 'a spec').toString('utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${specFile} is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = parseSpec(data);
    if (!parsed.ok) throw new UsageError(`${specFile} is not a valid experiment spec: ${parsed.errors.join('; ')}`);
    spec = parsed.spec;
  }
  if (steps !== undefined) {
    spec.steps = steps;
    const again = parseSpec(spec);
    if (!again.ok) throw new UsageError(again.errors.join('; '));
    spec = again.spec;
  }
  return spec;
}

export interface RunProgress {
  (phase: string, done: number, total: number): void;
}

/**
 * A seed's summary and its members as the base event describes them (MemberInfo: where the warm
 * start came from, whether it reached its target, and, with warmStart.onMiss 'retry', the init
 * seed used and the retries), so a results file names a member that was retried.
 */
export type SeedSummary = RunSummary & { members: MemberInfo[] };

/**
 * Run one seed of a spec to the end; returns its summary. Members whose warm start ships in
 * public/warmstarts (the presets' default seeds) load it instead of training: on wasm, where the
 * files were made, that is the same run bit for bit. A member that misses its warm-start target
 * rejects with the runner's WarmStartMissError before RL (docs/WARMSTARTS.md, "The guard"); a run
 * whose loss, gradient or weights become NaN or infinite rejects with NonFiniteRunError, its
 * message the runner's explanation (docs/RELIABILITY.md, "Numerical blow-ups").
 *
 * `pool` (cli/experiment/pool.ts): `workers` > 1 trains the arms on that many threads (this one included);
 * `thread` runs the whole seed in a worker thread (so several seeds can run side by side). Either
 * way the summary equals the one-thread run's bit for bit on wasm (timings aside).
 */
export async function runSeed(spec: ExperimentSpec, backend: string, onProgress?: RunProgress, pool: { workers?: number; thread?: boolean } = {}): Promise<SeedSummary> {
  const run = pool.thread ? wholeSeedRun(spec, backend) : pooledSeedRun(spec, backend, pool.workers ?? 1);
  let members: MemberInfo[] = [];
  try {
    for await (const e of run.events()) {
      if (e.type === 'warmstart') onProgress?.(`warm start ${e.memberId} (${e.memberIndex + 1}/${e.memberCount})`, e.step, e.steps);
      else if (e.type === 'base') members = e.members;
      else if (e.type === 'step') onProgress?.('RL', e.step, e.steps);
      else if (e.type === 'done') return { ...e.summary, members };
      // A number became NaN or infinite: the run ends there (docs/RELIABILITY.md, "Numerical blow-ups").
      else if (e.type === 'nonfinite') throw new NonFiniteRunError(e.explanation);
    }
    throw new Error('the run ended without a summary');
  } finally {
    run.dispose();
  }
}

/**
 * The result file of a spec's runs (src/core/experiment/resultFile.ts: the format and its versions).
 * A spec with peer arms of its first member (the overlap preset) also gets `overlap`: per seed, each
 * level's base overlap with the anchor and the anchor's gain (overlapResult.ts). Readers recompute
 * it from the runs (the reader keeps only the versioned fields).
 */
export function resultFile(spec: ExperimentSpec, runs: RunSummary[]): ExperimentResultFile & { overlap?: OverlapSeed[] } {
  const overlap = hasDial(spec) ? runs.map((r) => overlapOfRun(spec, r)).filter((o): o is OverlapSeed => o !== null) : [];
  return { version: RESULT_FILE_VERSION, spec, runs, ...(overlap.length ? { overlap } : {}) };
}

/** A spec whose members include the overlap dial (a dial member or a twin of the first member). */
export function hasDial(spec: ExperimentSpec): boolean {
  return spec.members.some((m) => m.dial !== undefined);
}

/** Plain-text table of the overlap numbers: one row per seed and level. */
export function overlapTable(rows: OverlapSeed[]): string {
  const lines = ['seed  level     kind        base kappa  both-wrong-same  gain A   partner votes acc  rescue'];
  for (const o of rows) {
    for (const l of o.levels) {
      lines.push(`${String(o.seed).padEnd(5)} ${l.arm.padEnd(9)} ${l.kind.padEnd(11)} ${f(l.baseKappa).padEnd(11)} ${f(l.baseBothWrongSame).padEnd(16)} ${f(l.gainA).padEnd(8)} ${f(l.pseudoLabelAccuracy).padEnd(18)} ${f(l.rescueRate)}`);
    }
    lines.push(`${String(o.seed).padEnd(5)} self: gain A ${f(o.selfGain)}; oracle: ${f(o.oracleGain)}; slope of gain on kappa (same family) ${f(o.slope)}; least - most ${f(o.leastMinusMost)}`);
  }
  return lines.join('\n');
}

const f = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits);

function evalSeries(h: MemberHistoryEntry[], key: 'evalPassAt1' | 'evalMajAtG', base: number) {
  const xs = [base, ...h.filter((e) => e[key] !== undefined).map((e) => e[key]!)];
  return { start: xs[0], best: Math.max(...xs), end: xs[xs.length - 1] };
}

/** Plain-text table: one row per seed, arm and member. */
export function summaryTable(runs: RunSummary[]): string {
  const header = [
    'seed', 'arm', 'member', 'pass@1 start/best/end', 'maj@G start/best/end', 'pseudo-acc', 'reward', 'gap', 'entropy', 'length', 'collapse',
  ];
  const rows: string[][] = [];
  for (const run of runs) {
    for (const arm of run.arms) {
      for (const m of arm.members) {
        const base = run.base.find((b) => b.memberId === m.id);
        const p = evalSeries(m.history, 'evalPassAt1', base?.passAt1 ?? NaN);
        const q = evalSeries(m.history, 'evalMajAtG', base?.majAtG ?? NaN);
        const last = m.history[m.history.length - 1];
        // Rates at the end are averaged over the last 10% of steps (at least 1) to tame noise.
        const tail = m.history.slice(-Math.max(1, Math.floor(m.history.length / 10)));
        const avg = (k: keyof MemberHistoryEntry) => {
          const xs = tail.map((e) => e[k]).filter((x): x is number => typeof x === 'number');
          return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
        };
        rows.push([
          String(run.seed), arm.id, `${m.id} (${m.family})`,
          `${f(p.start)}/${f(p.best)}/${f(p.end)}`, `${f(q.start)}/${f(q.best)}/${f(q.end)}`,
          f(avg('pseudoLabelAccuracy')), f(avg('reward')), f(avg('rewardGap')), f(avg('entropy')), f(avg('length'), 1),
          m.collapseStep === null ? '-' : String(m.collapseStep),
        ]);
        void last;
      }
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
