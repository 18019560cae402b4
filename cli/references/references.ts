/**
 * npm run references -- --from DIR [--preset NAME[,NAME...]] [--out DIR]
 * npm run references -- --check [--out DIR]
 *
 * Makes the shipped reference runs (src/share/reference.ts): for each preset, DIR/PRESET.json
 * (a result file as `npm run science -- --save DIR` or `npm run experiment -- --out` writes it) is
 * summarised as the seed-mean and sd of the metrics the charts draw and written to
 * public/references/PRESET.json, with public/references/index.json listing what is shipped.
 * Without --preset: every preset that has a DIR/PRESET.json. A result file whose spec differs
 * from the preset's (anything but the seed) is refused with the differences named, and then
 * nothing is written.
 *
 *   --check   write nothing: exit 1 unless every shipped reference still matches its preset's spec
 *             and the index describes it
 *   --out     where the references go (default public/references)
 *
 * Exit code 0; 1 for a refused result file or a failed --check; 2 for bad arguments.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getPreset, PRESETS } from '../../src/core/experiment/presets';
import { MAX_REFERENCE_CHARS, REFERENCE_INDEX_FILE, indexEntry, seedsText, serializeReference, serializeReferenceIndex } from '../../src/share/reference';
import { parseArgs, runMain, UsageError } from '../common/args';
import { SHIPPED_REFERENCE_DIR, buildReference, checkReferences, nextIndex, readIndex } from './references-lib';
import { readResultFile } from '../common/result-file';

const FLAGS = { from: 'string', preset: 'string', out: 'string', check: 'boolean', help: 'boolean' } as const;
const USAGE = `usage: npm run references -- --from DIR [--preset NAME[,NAME...]] [--out DIR]
       npm run references -- --check [--out DIR]`;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const out = (args.flags.get('out') as string | undefined) ?? SHIPPED_REFERENCE_DIR;
  if (args.flags.has('check')) {
    if (args.flags.has('from') || args.flags.has('preset')) throw new UsageError('--check writes nothing: give it alone (or with --out)');
    const result = checkReferences(out);
    for (const line of result.fine) console.log(line);
    if (result.missing.length) console.log(`no reference shipped: ${result.missing.join(', ')}`);
    for (const p of result.problems) console.error(p);
    if (!result.ok) {
      console.error(`${result.problems.length} problem(s) in ${out}`);
      process.exit(1);
    }
    return;
  }
  const from = args.flags.get('from') as string | undefined;
  if (!from) throw new UsageError('give --from DIR (the result files) or --check');
  if (!existsSync(from) || !statSync(from).isDirectory()) throw new UsageError(`--from: ${from} is not a folder`);
  const asked = (args.flags.get('preset') as string | undefined)?.split(',').filter(Boolean);
  for (const p of asked ?? []) if (!getPreset(p)) throw new UsageError(`--preset: unknown preset "${p}" (known: ${Object.keys(PRESETS).join(', ')})`);
  const presets = asked ?? Object.keys(PRESETS).filter((p) => existsSync(join(from, `${p}.json`)));
  if (presets.length === 0) throw new UsageError(`--from: ${from} holds no PRESET.json of a known preset (${Object.keys(PRESETS).join(', ')})`);

  // Read and check everything first: a refused file writes nothing.
  const made = [];
  const refused: string[] = [];
  for (const preset of presets) {
    const path = join(from, `${preset}.json`);
    if (!existsSync(path)) {
      refused.push(`${path} does not exist`);
      continue;
    }
    const read = readResultFile(path);
    if (!read.ok) {
      refused.push(read.error);
      continue;
    }
    const r = buildReference(preset, read.file, { source: path });
    if (!r.ok) refused.push(r.error);
    else made.push(r.reference);
  }
  if (refused.length) {
    for (const line of refused) console.error(`refused: ${line}`);
    console.error('nothing written');
    process.exit(1);
  }

  mkdirSync(out, { recursive: true });
  const entries = [];
  for (const ref of made) {
    const text = serializeReference(ref);
    if (text.length > MAX_REFERENCE_CHARS) throw new Error(`the reference of ${ref.preset} is ${text.length} characters; the page reads at most ${MAX_REFERENCE_CHARS}`);
    const path = join(out, `${ref.preset}.json`);
    writeFileSync(path, text);
    entries.push(indexEntry(ref, text));
    console.log(`wrote ${path}: ${seedsText(ref.seeds)} on ${ref.backend}, ${ref.steps.length} steps, ${(text.length / 1024).toFixed(1)} KiB`);
  }
  const index = nextIndex(readIndex(out), entries, (file) => existsSync(join(out, file)));
  writeFileSync(join(out, REFERENCE_INDEX_FILE), serializeReferenceIndex(index));
  console.log(`wrote ${join(out, REFERENCE_INDEX_FILE)}: ${index.references.map((r) => r.preset).join(', ')}`);
}

runMain(main, 'references');
