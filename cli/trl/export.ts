/**
 * npm run export -- (--preset NAME | --spec FILE.json) --to trl --model A=MODEL --model B=MODEL ...
 *                   --out DIR [--force]
 *
 * Writes the experiment as a runnable TRL project (src/export/trl/build.ts; the lab's "Export for
 * GPUs" button builds the same files). `--model` is repeatable, as TRL and accelerate users expect:
 * `--model MEMBER=ID` names the member (every member once), or a bare `--model ID` per member in
 * the spec's order. A MODEL is a Hugging Face id or a local folder of a saved checkpoint (starting
 * with /, ./ or ../; a relative one is written as an absolute path, since the project runs from its
 * own folder). The retired `--model-b` ... `--model-f` are refused with the command in the
 * new form. Bad arguments, a spec that does not validate or models that do not fit: one
 * line and exit code 2. Nothing is downloaded and nothing is trained here.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { choiceFlag, parseArgs, runMain, UsageError } from '../common/args';
import { terminalText } from '../common/terminalText';
import { resolveSpec } from '../experiment/experiment-lib';
import { nodePythonSources } from './export-sources';
import { ExportError, buildTrlProject, type TrlExport } from '../../src/export/trl/build';
import { isLocalModelPath } from '../../src/export/trl/modelIds';
import type { ExperimentSpec } from '../../src/core/experiment/spec';

/** The flags of the first export CLI, one per member position; now refused with the new form. */
export const RETIRED_MODEL_FLAGS = ['model-b', 'model-c', 'model-d', 'model-e', 'model-f'] as const;

const FLAGS = {
  preset: 'string',
  spec: 'string',
  to: 'string',
  out: 'string',
  force: 'boolean',
  help: 'boolean',
} as Record<string, 'string' | 'boolean'>;

export const USAGE = `usage: npm run export -- (--preset NAME | --spec FILE.json) --to trl --model A=MODEL --model B=MODEL ... --out DIR [--force]
  --model MEMBER=MODEL  the model of one member, by member id (give every member once)
  --model MODEL         or, repeated, one model per member in the experiment's member order
  MODEL                 a Hugging Face id (Qwen/Qwen2.5-0.5B-Instruct) or a local checkpoint folder (/, ./ or ../ first)`;

export interface ModelFlags {
  /** The values of every --model, in order. */
  models: string[];
  /** Retired --model-b ... flags with their values, in order. */
  retired: { flag: string; value: string }[];
  /** argv without them, for parseArgs. */
  rest: string[];
}

/** Takes the repeatable --model (and the retired --model-b ...) out of argv; parseArgs allows each flag once. */
export function takeModelFlags(argv: readonly string[]): ModelFlags {
  const out: ModelFlags = { models: [], retired: [], rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--(model(?:-[b-f])?)(?:=(.*))?$/.exec(arg);
    if (!m) {
      out.rest.push(arg);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`--${m[1]} needs a value`);
    if (m[1] === 'model') out.models.push(value);
    else out.retired.push({ flag: m[1], value });
  }
  return out;
}

/** The model id of every member, in member order, from the --model values. Throws UsageError. */
export function modelsForMembers(memberIds: readonly string[], flags: Pick<ModelFlags, 'models' | 'retired'>): string[] {
  if (flags.retired.length > 0) {
    // The old flags meant: --model for the first member, --model-b for the second, ...
    const byPosition = new Map<number, string>();
    flags.models.slice(0, 1).forEach((v) => byPosition.set(0, v));
    for (const r of flags.retired) byPosition.set(RETIRED_MODEL_FLAGS.indexOf(r.flag as (typeof RETIRED_MODEL_FLAGS)[number]) + 1, r.value);
    const suggestion = [...byPosition.entries()]
      .sort(([a], [b]) => a - b)
      .map(([k, v]) => `--model ${memberIds[k] ?? `MEMBER${k + 1}`}=${v}`)
      .join(' ');
    const names = flags.retired.map((r) => `--${r.flag}`).join(', ');
    throw new UsageError(`${names} ${flags.retired.length > 1 ? 'are' : 'is'} no longer a flag: name each member's model with --model MEMBER=ID, here ${suggestion}`);
  }
  if (flags.models.length === 0) {
    throw new UsageError(`give one model per member (${memberIds.join(', ')}): --model ${memberIds[0]}=HF_ID${memberIds.length > 1 ? ` --model ${memberIds[1]}=HF_ID ...` : ''}`);
  }
  const named = flags.models.filter((v) => v.includes('='));
  if (named.length === 0) return [...flags.models]; // bare ids in member order; the builder checks the count
  if (named.length !== flags.models.length) {
    throw new UsageError('give every --model as MEMBER=ID, or every one as a bare ID in member order, not a mix');
  }
  const byMember = new Map<string, string>();
  for (const v of named) {
    const eq = v.indexOf('=');
    const member = v.slice(0, eq).trim();
    if (!memberIds.includes(member)) throw new UsageError(`--model ${v}: the experiment has no member "${member}" (members: ${memberIds.join(', ')})`);
    if (byMember.has(member)) throw new UsageError(`--model: member ${member} is given twice`);
    byMember.set(member, v.slice(eq + 1));
  }
  const missing = memberIds.filter((id) => !byMember.has(id));
  if (missing.length) throw new UsageError(`--model: no model for member${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (give --model ${missing[0]}=HF_ID)`);
  return memberIds.map((id) => byMember.get(id)!);
}

/** Parse, validate and build (no writing): what `main` writes. Throws UsageError on any user error. */
export function exportFromArgs(argv: string[]): { spec: ExperimentSpec; out: string; force: boolean; built: TrlExport } | null {
  const modelFlags = takeModelFlags(argv);
  const args = parseArgs(modelFlags.rest, FLAGS);
  if (args.flags.has('help')) return null;
  const to = choiceFlag(args, 'to', ['trl'] as const);
  if (!to) throw new UsageError('--to is needed: --to trl (the one export so far)');
  const out = args.flags.get('out') as string | undefined;
  if (!out) throw new UsageError('--out DIR is needed (the folder to write the project to)');
  const presetId = args.flags.get('preset') as string | undefined;
  const spec = resolveSpec(presetId, args.flags.get('spec') as string | undefined);
  // A relative local folder is relative to here; the project runs from its own folder.
  const models = modelsForMembers(spec.members.map((m) => m.id), modelFlags).map((m) => (isLocalModelPath(m) ? resolve(m.trim()) : m));
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
  for (const note of built.notes) console.error(`note: ${terminalText(note)}`);
  console.log(`wrote ${built.files.length} files to ${out}: a TRL project for arm${built.exportedArms.length > 1 ? 's' : ''} ${built.exportedArms.join(', ')} (not run here)`);
  console.log(`next, on a machine with GPUs: cd ${out} && pip install -r requirements.txt && bash launch.sh ${built.exportedArms[0]}  (README.md first)`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) runMain(main, 'export');
