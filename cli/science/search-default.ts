/**
 * npm run search-default -- [--seeds 1-4] [--only NAME,...] [--jobs 2] [--out DIR]
 *
 * The search for a default preset that shows the Co-RL story: self-reward
 * collapses, the peer arm learns (ends above its start) while its partner's votes get more
 * accurate, and the oracle ends above the peer arm. Each candidate is a change to a pair preset's
 * spec (below); each runs on the tuning seeds through `npm run experiment` (one process per job,
 * `--jobs` at a time, one thread each), and its results are read with the science claims (cli/science/science-claims.ts:
 * a = self collapses, learns = the peer arm ends above its start, oracle = oracle above peer,
 * b = peer above self) and the change in the accuracy of the partner's votes:
 * the per-seed paired differences with their 95% intervals and verdicts. A candidate that passes
 * here is then run on the confirmation seeds (`npm run science -- --block confirmation`) before
 * it may become the default; docs/RESULTS-NOTEBOOK.md, "Looking for a default where peers learn", logs
 * every candidate tried with this command's output.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, runMain, seedsFlag, UsageError } from '../common/args';
import { readResultFile } from '../common/result-file';
import { CHECKS, partnerVotesChange, type ClaimId } from './science-claims';
import { holmAdjust, nearestMedianSeed, type Paired } from './science-paired';
import { seedDifference, type SeedClaimId } from '../../src/core/experiment/claims';
import { getPreset } from '../../src/core/experiment/presets';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { ExperimentSpecSchema } from '../../src/core/experiment/spec';

interface Candidate {
  name: string;
  from: string;
  /** What changes, in words (the log's row). */
  change: string;
  edit: (spec: ExperimentSpec) => unknown;
}

const withGrpo = (s: ExperimentSpec, g: Partial<ExperimentSpec['grpo']>) => ({ ...s, grpo: { ...s.grpo, ...g } });

export const CANDIDATES: Candidate[] = [
  { name: 'collapse', from: 'collapse', change: 'the collapse preset as it is', edit: (s) => s },
  { name: 'collapse-lr6', from: 'collapse', change: 'GRPO learning rate 6e-4 (4e-4)', edit: (s) => withGrpo(s, { learningRate: 6e-4 }) },
  { name: 'collapse-g16', from: 'collapse', change: 'G 16 samples per prompt (8): sharper votes', edit: (s) => withGrpo(s, { groupSize: 16 }) },
  {
    name: 'collapse-t50',
    from: 'collapse',
    change: 'warm-start target 0.5 (0.4): stronger members, more accurate partner votes',
    edit: (s) => ({ ...s, members: s.members.map((m) => ({ ...m, warmStartTarget: 0.5 })) }),
  },
  ...[
    [0.45, 6e-4],
    [0.5, 6e-4],
    [0.5, 8e-4],
    [0.55, 8e-4],
  ].map(([target, lr]) => ({
    name: `collapse-t${Math.round(target * 100)}-lr${Math.round(lr * 1e4)}`,
    from: 'collapse',
    change: `warm-start target ${target} and GRPO learning rate ${lr.toExponential(0)} (0.4, 4e-4)`,
    edit: (s: ExperimentSpec) => withGrpo({ ...s, members: s.members.map((m) => ({ ...m, warmStartTarget: target })) }, { learningRate: lr }),
  })),
  {
    name: 'collapse-t50-lr8-s120',
    from: 'collapse',
    change: 'warm-start target 0.5, learning rate 8e-4, 120 steps (0.4, 4e-4, 80)',
    edit: (s) => withGrpo({ ...s, steps: 120, members: s.members.map((m) => ({ ...m, warmStartTarget: 0.5 })) }, { learningRate: 8e-4 }),
  },
  {
    name: 'collapse-t50-lr10',
    from: 'collapse',
    change: 'warm-start target 0.5, learning rate 1e-3 (0.4, 4e-4)',
    edit: (s) => withGrpo({ ...s, members: s.members.map((m) => ({ ...m, warmStartTarget: 0.5 })) }, { learningRate: 1e-3 }),
  },
  {
    name: 'collapse-t50-lr8-g16',
    from: 'collapse',
    change: 'warm-start target 0.5, learning rate 8e-4, G 16 (0.4, 4e-4, 8)',
    edit: (s) => withGrpo({ ...s, members: s.members.map((m) => ({ ...m, warmStartTarget: 0.5 })) }, { learningRate: 8e-4, groupSize: 16 }),
  },
  { name: 'length', from: 'length', change: 'the length preset as it is (mixed scratchpad, fixed warm start)', edit: (s) => s },
  { name: 'length-lr6', from: 'length', change: 'length with GRPO learning rate 6e-4 (4e-4)', edit: (s) => withGrpo(s, { learningRate: 6e-4 }) },
  { name: 'length-lr8', from: 'length', change: 'length with GRPO learning rate 8e-4 (4e-4)', edit: (s) => withGrpo(s, { learningRate: 8e-4 }) },
  { name: 'length-150', from: 'length', change: 'length for 150 steps (80)', edit: (s) => ({ ...s, steps: 150 }) },
];

/** The claims that make up the story, in the order the table prints them. */
const STORY: (ClaimId & SeedClaimId)[] = ['a', 'learns', 'oracle', 'b'];

function runExperiment(specPath: string, seeds: number[], out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn('npx', ['tsx', 'cli/experiment/experiment.ts', '--spec', specPath, '--seeds', seeds.join(','), '--workers', '1', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${specPath}: exit ${code}: ${err.split('\n').filter(Boolean).pop()}`))));
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { seeds: 'string', only: 'string', jobs: 'string', out: 'string' });
  const seeds = seedsFlag(args, 'seeds') ?? [1, 2, 3, 4];
  const only = (args.flags.get('only') as string | undefined)?.split(',');
  const jobs = Number(args.flags.get('jobs') ?? 2);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs must be a positive integer');
  const dir = (args.flags.get('out') as string | undefined) ?? 'bench/search-default';
  mkdirSync(dir, { recursive: true });
  const chosen = CANDIDATES.filter((c) => !only || only.includes(c.name));
  if (chosen.length === 0) throw new UsageError(`no candidate among ${only}; known: ${CANDIDATES.map((c) => c.name).join(', ')}`);

  // One task per (candidate, seed), `jobs` at a time; results already on disk are reused.
  const tasks = chosen.flatMap((c) => seeds.map((seed) => ({ c, seed, out: join(dir, `${c.name}.${seed}.json`) })));
  const queue = tasks.filter((t) => !existsSync(t.out));
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        const spec = ExperimentSpecSchema.parse(t.c.edit({ ...getPreset(t.c.from)!.spec, seed: t.seed }));
        const specPath = join(dir, `${t.c.name}.${t.seed}.spec.json`);
        writeFileSync(specPath, JSON.stringify(spec));
        await runExperiment(specPath, [t.seed], t.out);
        console.error(`${t.c.name} seed ${t.seed}: done (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      }
    }),
  );

  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  const cell = (p: Paired) => `${signed(p.mean)} [${signed(p.lo)}, ${signed(p.hi)}] ${p.verdict.toUpperCase()}`;
  console.log(`| candidate | change | ${STORY.map((id) => `claim ${id}`).join(' | ')} | partner's votes, end − start | Holm-adjusted p (same order) |`);
  console.log(`|---|---|${STORY.map(() => '---').join('|')}|---|---|`);
  const perSeed: string[] = [];
  for (const c of chosen) {
    const runs = seeds.flatMap((seed) => {
      const file = readResultFile(join(dir, `${c.name}.${seed}.json`));
      if (!file.ok) throw new Error(`${c.name} seed ${seed}: ${file.error}`);
      return file.file.runs;
    });
    // The virtuous cycle (claim learns' supplement) joins the story's claims as a fifth measure.
    const stats = [...STORY.map((id) => CHECKS[id](runs).stats), partnerVotesChange(runs)];
    const holm = holmAdjust(stats.map((p) => p.p)).map((p) => (!Number.isFinite(p) ? '–' : p < 0.001 ? '<0.001' : p.toFixed(3)));
    console.log(`| \`${c.name}\` | ${c.change} | ${stats.map(cell).join(' | ')} | ${holm.join(', ')} |`);
    // Per seed, and the link's seed by the median rule for the two headlines a pair preset has.
    const d = (id: 'learns' | 'b') => runs.map((r) => ({ seed: r.seed, d: seedDifference(r, id) }));
    perSeed.push(
      `- \`${c.name}\`: ${runs.map((r) => `seed ${r.seed} ${STORY.map((id) => `${id} ${signed(seedDifference(r, id))}`).join(' ')}`).join('; ')}. ` +
        `Nearest the median: of learns, seed ${nearestMedianSeed(d('learns'))}; of b, seed ${nearestMedianSeed(d('b'))}.`,
    );
  }
  console.log(`\nPer seed (${STORY.join(', ')}):\n${perSeed.join('\n')}`);
  console.log(`\n${seeds.length} seeds (${seeds.join(', ')}); npm run search-default -- --seeds ${seeds.join(',')}`);
}

runMain(main, 'search-default');
