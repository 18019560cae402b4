/**
 * npm run export -- (--preset NAME | --spec FILE.json) --to trl --model HF_ID [--model-b HF_ID ...]
 *                   --out DIR [--force]
 *
 * Writes the experiment as a runnable TRL project (src/export/trl/build.ts; the lab's "Export for
 * GPUs" button builds the same files): members of the spec take the model ids in order (--model
 * for the first, --model-b for the second, up to --model-f). Bad arguments, a spec that does not
 * validate or a model count that does not fit: one line and exit code 2. Nothing is downloaded and
 * nothing is trained here.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { choiceFlag, parseArgs, runMain, UsageError, type ParsedArgs } from './args';
import { resolveSpec } from './experiment-lib';
import { nodePythonSources } from './export-sources';
import { ExportError, buildTrlProject, type TrlExport } from '../src/export/trl/build';
import type { ExperimentSpec } from '../src/core/experiment/spec';

export const MODEL_FLAGS = ['model', 'model-b', 'model-c', 'model-d', 'model-e', 'model-f'] as const;

const FLAGS = {
  preset: 'string',
  spec: 'string',
  to: 'string',
  out: 'string',
  force: 'boolean',
  help: 'boolean',
  ...Object.fromEntries(MODEL_FLAGS.map((f) => [f, 'string'])),
} as Record<string, 'string' | 'boolean'>;

export const USAGE = `usage: npm run export -- (--preset NAME | --spec FILE.json) --to trl --model HF_ID [--model-b HF_ID ...] --out DIR [--force]
  members of the experiment take the model ids in order: --model for the first, --model-b for the second, ... --model-f`;

/** The model ids in member order; a gap (--model-c without --model-b) is an error. */
export function modelFlags(args: ParsedArgs): string[] {
  const out: string[] = [];
  let gap: string | null = null;
  for (const f of MODEL_FLAGS) {
    const v = args.flags.get(f);
    if (v === undefined) {
      gap ??= f;
      continue;
    }
    if (gap) throw new UsageError(`--${f} is given without --${gap}: model ids go to members in order`);
    out.push(v as string);
  }
  return out;
}

/** Parse, validate and build (no writing): what `main` writes. Throws UsageError on any user error. */
export function exportFromArgs(argv: string[]): { spec: ExperimentSpec; out: string; force: boolean; built: TrlExport } | null {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) return null;
  const to = choiceFlag(args, 'to', ['trl'] as const);
  if (!to) throw new UsageError('--to is needed: --to trl (the one export so far)');
  const out = args.flags.get('out') as string | undefined;
  if (!out) throw new UsageError('--out DIR is needed (the folder to write the project to)');
  const models = modelFlags(args);
  const presetId = args.flags.get('preset') as string | undefined;
  const spec = resolveSpec(presetId, args.flags.get('spec') as string | undefined);
  if (models.length === 0) {
    throw new UsageError(`give one model id per member (${spec.members.map((m) => m.id).join(', ')}): --model HF_ID for the first, --model-b for the second, ...`);
  }
  try {
    const built = buildTrlProject(spec, { models, presetId: presetId ?? null }, nodePythonSources());
    return { spec, out, force: args.flags.has('force'), built };
  } catch (e) {
    if (e instanceof ExportError) throw new UsageError(e.message);
    throw e;
  }
}

/** Writes the files under `dir`; refuses a non-empty folder unless `force`. */
export function writeProject(dir: string, built: TrlExport, force: boolean): void {
  const root = resolve(dir);
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new UsageError(`--out ${dir} exists and is not a folder`);
    if (readdirSync(root).length > 0 && !force) throw new UsageError(`--out ${dir} is not empty (add --force to write over the files of an earlier export)`);
  }
  for (const f of built.files) {
    const path = join(root, ...f.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
    if (f.path.endsWith('.sh')) chmodSync(path, 0o755);
  }
}

async function main(): Promise<void> {
  const result = exportFromArgs(process.argv.slice(2));
  if (!result) {
    console.log(USAGE);
    return;
  }
  const { out, built, force } = result;
  writeProject(out, built, force);
  for (const note of built.notes) console.error(`note: ${note}`);
  console.log(`wrote ${built.files.length} files to ${out}: a TRL project for arm${built.exportedArms.length > 1 ? 's' : ''} ${built.exportedArms.join(', ')} (not run here)`);
  console.log(`next, on a machine with GPUs: cd ${out} && pip install -r requirements.txt && bash launch.sh ${built.exportedArms[0]}  (README.md first)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) runMain(main, 'export');
