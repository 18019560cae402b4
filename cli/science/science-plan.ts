/**
 * The science plan: every `npm run science` command whose verdicts docs/RESULTS.md
 * quotes, and the two blocks of seeds each is read on:
 *   tuning        the seeds the settings were chosen on and first read on (1-8; `tunedOn` says
 *                 which of them chose the settings);
 *   confirmation  seeds 101-108, run only after the settings are frozen, reported on their own.
 * A headline verdict (the summary's last column, science-summary.ts) is the confirmation block's
 * Holm verdict. Pure data and strings; science.ts reads a plan entry's arguments exactly as it
 * reads the command line, so the command printed here is the command that runs.
 */

export type Block = 'tuning' | 'confirmation';

export const TUNING_SEEDS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];
export const CONFIRMATION_SEEDS: readonly number[] = [101, 102, 103, 104, 105, 106, 107, 108];

/** Where a block's results live under a --save / --from folder: tuning in DIR, confirmation in DIR/confirmation. */
export const BLOCK_FOLDER: Record<Block, string> = { tuning: '', confirmation: 'confirmation' };

export interface PlanEntry {
  /** The key of its verdict block in docs/RESULTS.md (the presets joined by +). */
  id: string;
  /** Its `npm run science` arguments, without seeds, block and folders. */
  args: string[];
  /** Its tuning block (seeds 1-8 unless a seed could not run, or its plan read fewer). */
  tuning: readonly number[];
  /** In words: which tuning seeds chose its settings. */
  tunedOn: string;
  /**
   * Its confirmation block: seeds 101-108, unless a block of those was already spent on an earlier
   * setting (a preset whose settings change after its first confirmation gets fresh seeds, 109-116)
   * or its plan sized the block otherwise (overlap: 12 seeds, 201-212).
   */
  confirmation: readonly number[];
}

const PAIR_CLAIMS = 'a,early,b,learns,oracle,truth,d';

export const PLAN: readonly PlanEntry[] = [
  { id: 'collapse+diversity', args: [], tuning: TUNING_SEEDS, tunedOn: 'settings chosen on seeds 1-5', confirmation: CONFIRMATION_SEEDS },
  // The default: chosen by `npm run search-default` on seeds 1-8; 101-108 confirmed (and refuted) an earlier candidate.
  {
    id: 'peers-learn',
    args: ['--preset', 'peers-learn', '--claims', PAIR_CLAIMS],
    tuning: TUNING_SEEDS,
    tunedOn: 'settings chosen on seeds 1-8 (npm run search-default, rounds 1 and 2)',
    confirmation: [109, 110, 111, 112, 113, 114, 115, 116],
  },
  { id: 'peers-teach', args: ['--preset', 'peers-teach', '--claims', `${PAIR_CLAIMS},coevolve`], tuning: TUNING_SEEDS, tunedOn: 'settings chosen on seeds 1-4', confirmation: CONFIRMATION_SEEDS },
  { id: 'length', args: ['--preset', 'length', '--claims', `${PAIR_CLAIMS},shorter`], tuning: TUNING_SEEDS, tunedOn: 'no seed tuned (a 2-seed pilot on an earlier engine)', confirmation: CONFIRMATION_SEEDS },
  // Seed 4's wider partner missed its warm-start target; seed 9 stands in for it.
  { id: 'families', args: ['--diversity', 'families', '--claims', 'c'], tuning: [1, 2, 3, 5, 6, 7, 8, 9], tunedOn: 'no seed tuned', confirmation: CONFIRMATION_SEEDS },
  { id: 'ring', args: ['--preset', 'ring', '--compare', 'ring:self'], tuning: TUNING_SEEDS, tunedOn: 'no seed tuned (seeds 1-3 the first measurement)', confirmation: CONFIRMATION_SEEDS },
  { id: 'intrinsic', args: ['--preset', 'intrinsic', '--compare', 'peer:entropy,peer:certainty'], tuning: TUNING_SEEDS, tunedOn: 'no seed tuned (seeds 1-3 the first measurement)', confirmation: CONFIRMATION_SEEDS },
  // The plan of docs/PREREG-overlap.md: seeds 1-4 read first (they sized the block), then 12 fresh seeds.
  {
    id: 'overlap',
    args: ['--overlap', 'overlap'],
    tuning: [1, 2, 3, 4],
    tunedOn: 'no seed tuned (seed 1 seen before the plan; seeds 1-4 sized the confirmation block, docs/PREREG-overlap.md)',
    confirmation: [201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212],
  },
];

/** "1-8", "101-108", "1-3,5-9": runs of consecutive seeds joined. */
export function seedRange(seeds: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seeds.length; ) {
    let j = i;
    while (j + 1 < seeds.length && seeds[j + 1] === seeds[j] + 1) j++;
    parts.push(j > i ? `${seeds[i]}-${seeds[j]}` : String(seeds[i]));
    i = j + 1;
  }
  return parts.join(',');
}

const sameSeeds = (a: readonly number[], b: readonly number[]) => a.join(',') === b.join(',');

/** The plan entry that reads these presets (e.g. ['peers-learn']), if any. */
export function planEntryOf(presets: readonly string[]): PlanEntry | undefined {
  return PLAN.find((e) => e.id === presets.join('+'));
}

/** The block a list of seeds is (null: neither, e.g. a subset read on its own). */
export function blockOf(seeds: readonly number[]): Block | null {
  return sameSeeds(seeds, TUNING_SEEDS) ? 'tuning' : sameSeeds(seeds, CONFIRMATION_SEEDS) ? 'confirmation' : null;
}

/** The one command that trains (--save) or re-reads and checks (--from --check) an entry's block. */
export function planCommand(entry: PlanEntry, block: Block, mode: 'save' | 'check', dir = 'results/'): string {
  const planned = block === 'tuning' ? entry.tuning : entry.confirmation;
  const usual = block === 'tuning' ? TUNING_SEEDS : CONFIRMATION_SEEDS;
  const seeds = sameSeeds(planned, usual) ? [] : ['--seeds', seedRange(planned)];
  const blockArgs = block === 'confirmation' ? ['--block', 'confirmation'] : [];
  const io = mode === 'save' ? ['--save', dir] : ['--from', dir, '--check', 'docs/RESULTS.md'];
  return ['npm run science --', ...entry.args, ...seeds, ...blockArgs, ...io].join(' ');
}

/** What `npm run science -- --plan` prints: per entry a comment line, then its tuning and confirmation commands. */
export function planText(dir = 'results/'): string {
  return PLAN.flatMap((e) => [
    `# ${e.id}. Tuning seeds ${seedRange(e.tuning)}: ${e.tunedOn}. Confirmation seeds ${seedRange(e.confirmation)}.`,
    planCommand(e, 'tuning', 'save', dir),
    planCommand(e, 'confirmation', 'save', dir),
  ]).join('\n');
}
