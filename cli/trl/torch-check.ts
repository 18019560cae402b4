/**
 * npm run torch-check -- [flags]: the gradient oracle. For each cohort, one GRPO
 * update on Node's wasm backend is exported (cli/trl/torch-check-lib.ts) and PyTorch recomputes the
 * loss and every gradient from the same weights and rollouts (scripts/torch_gradcheck.py); the
 * check passes when every difference is within the tolerance. A test oracle, never a dependency:
 * without torch it prints why it was skipped and exits 0.
 *
 *   --cases LIST      of collapse (6 MLPs), peers-teach (7 transformers d32 L2 h4), transformer
 *                     (6 transformers d32 L2 h2). Default collapse,peers-teach,transformer.
 *   --seed N          weights of the bench members; prompts, samples and rewards from this seed (default 1)
 *   --tolerance X     largest absolute difference allowed (default 1e-5)
 *   --rel-tolerance X largest difference relative to each tensor's largest |value| (default 1e-4)
 *   --all             print every tensor's row (default: one row per kind of gradient)
 *   --plant NAME      compute the lab's side with a deliberate bug: adv-sign, bnpo (the check must fail)
 *   --backend NAME    wasm (default) or cpu
 *   --keep DIR        keep the exports (manifest.json, data.bin per case) in DIR
 *
 * Exit code: 0 pass or skipped, 1 a difference over the tolerance, 2 usage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceFlag, intFlag, parseArgs, runMain, UsageError } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { parseCases } from '../../src/core/benchmark/index';
import { CHECK_CASES, compareWithTorch, DEFAULT_REL_TOLERANCE, DEFAULT_TOLERANCE, exportUpdate, findTorchPython, PLANTS, reportTable } from './torch-check-lib';

const FLAGS = {
  cases: 'string',
  seed: 'string',
  tolerance: 'string',
  'rel-tolerance': 'string',
  all: 'boolean',
  plant: 'string',
  backend: 'string',
  keep: 'string',
  help: 'boolean',
} as const;

function positive(args: ReturnType<typeof parseArgs>, name: string, fallback: number): number {
  const text = args.flags.get(name);
  const x = text === undefined ? fallback : Number(text);
  if (!(x > 0)) throw new UsageError(`--${name} must be a positive number, got "${String(text)}"`);
  return x;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log('usage: npm run torch-check -- [--cases collapse,peers-teach,transformer] [--seed 1] [--tolerance 1e-5] [--rel-tolerance 1e-4] [--all] [--plant adv-sign|bnpo] [--backend wasm|cpu] [--keep DIR]');
    return;
  }
  const cases = parseCases(String(args.flags.get('cases') ?? CHECK_CASES.join(',')));
  const bad = cases.filter((c) => !CHECK_CASES.includes(c));
  if (bad.length) throw new UsageError(`--cases: no oracle for ${bad.join(', ')} (${CHECK_CASES.join(', ')})`);
  const seed = intFlag(args, 'seed', 0, 2 ** 31 - 1) ?? 1;
  const tolerance = positive(args, 'tolerance', DEFAULT_TOLERANCE);
  const relTolerance = positive(args, 'rel-tolerance', DEFAULT_REL_TOLERANCE);
  const plant = choiceFlag(args, 'plant', PLANTS) ?? 'none';
  const backend = choiceFlag(args, 'backend', ['wasm', 'cpu'] as const) ?? 'wasm';
  const keep = args.flags.get('keep') as string | undefined;

  const torch = findTorchPython();
  if ('skipped' in torch) {
    console.log(`torch-check ${torch.skipped}`);
    return;
  }
  await initNodeBackend(backend, { fallback: false });
  const root = keep ?? mkdtempSync(join(tmpdir(), 'torch-check-'));
  let failed = 0;
  try {
    for (const c of cases) {
      const dir = join(root, c);
      const manifest = await exportUpdate(c, dir, { seed, plant });
      const report = compareWithTorch(torch.python, dir, tolerance, relTolerance);
      console.log(reportTable(manifest, report, !args.flags.has('all')) + '\n');
      if (!report.pass) failed++;
    }
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
  if (failed) {
    console.log(`torch-check: ${failed} of ${cases.length} cases differ from PyTorch by more than the tolerance`);
    process.exit(1);
  }
  console.log(`torch-check: ${cases.length} cases within ${tolerance} absolute and ${relTolerance} relative of PyTorch`);
}

runMain(main, 'torch-check');
