/**
 * npx tsx scripts/docs.ts [--write | --check]
 *
 * Fills the generated blocks of README.md and docs/*.md from their sources (scripts/docs-figures.ts)
 * with --write; with --check (the default) lists the blocks that differ and every figure in prose
 * that disagrees with its source, and exits 1 if there is any. scripts/docs-figures.test.ts runs
 * the same check in `npm test`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillBlocks, figureProblems, generatedBlocks, readDocs, readSources, staleBlocks } from './docs-figures';
import { FORMATS } from './docs-formats';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const write = process.argv.includes('--write');
const blocks = generatedBlocks(readSources(root));
let failed = false;
for (const doc of readDocs(root)) {
  const stale = staleBlocks(doc.text, blocks);
  if (stale.length === 0) continue;
  if (write) {
    writeFileSync(join(root, doc.path), fillBlocks(readFileSync(join(root, doc.path), 'utf8'), blocks));
    console.log(`${doc.path}: wrote ${stale.join(', ')}`);
  } else {
    console.log(`${doc.path}: stale generated blocks: ${stale.join(', ')} (npx tsx scripts/docs.ts --write)`);
    failed = true;
  }
}
const problems = figureProblems(readDocs(root), readSources(root), FORMATS);
for (const p of problems) console.log(p);
if (failed || problems.length > 0) process.exit(1);
console.log('every generated block and checked figure agrees with its source');
