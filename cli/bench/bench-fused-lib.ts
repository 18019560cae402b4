/**
 * BENCHMARKS' fused section (<!-- fused -->), made from bench/results/fused.json: what
 * cli/bench/bench-fused.ts counted and timed of one RL step of a stack, on tfjs's webgpu path and on
 * the fused path (src/engine/fused), on the same device. No tfjs here: the docs checks import it.
 *
 *   npx tsx cli/bench/bench-fused-lib.ts --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const FUSED_JSON = 'bench/results/fused.json';
const MARK = 'fused';

export interface FusedRow {
  /** 'tfjs webgpu': the core's step op by op (rollout.ts sampleStack, then grpo/update.ts); 'fused': src/engine/fused. */
  path: 'tfjs webgpu' | 'fused';
  preset: string;
  models: number;
  shape: string;
  /** Per measured step (each step's own count; all equal for the fused path). */
  dispatches: number[];
  submits: number[];
  gpuReadbacks: number[];
  /** tfjs kernels and tfjs readbacks a step. */
  kernels: number[];
  stepMs: number[];
  /** The family's budget (src/engine/fused/budgets.ts), fused rows only. */
  budget: { dispatches: number; submits: number; gpuReadbacks: number } | null;
}

export interface FusedBench {
  date: string;
  command: string;
  machine: string;
  node: string;
  /** The adapter Dawn chose, in words (SwiftShader: the CPU emulates the GPU). */
  adapter: string;
  /** Rollout and batch: B prompts, G samples each, L new tokens at most. */
  batch: { prompts: number; groupSize: number; maxNewTokens: number };
  rows: FusedRow[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const range = (xs: number[]) => (Math.min(...xs) === Math.max(...xs) ? String(xs[0]) : `${Math.min(...xs)}-${Math.max(...xs)}`);

/** The section between <!-- fused --> and <!-- /fused --> (without the markers). */
export function fusedSection(file: FusedBench): string {
  const b = file.batch;
  const lines = [
    `## The fused WebGPU step, counted: ${file.adapter}, ${file.date}`,
    '',
    `\`${file.command}\` on ${file.machine}, Node ${file.node}, Dawn (the \`webgpu\` package) on ${file.adapter}. ` +
      `One RL step of one stack: the rollout (${b.prompts} prompts, ${b.groupSize} samples each, at most ${b.maxNewTokens} new tokens) and one GRPO update with clipping and Adam; ` +
      "votes, rewards and advantages are the CPU's and not in the counts. Each count is over the measured steps (one value when every step made the same). " +
      "The fused row is a steady step: this step's update and the next step's rollouts in one command encoder (src/engine/fused/mlpStack.ts updateThenSample). " +
      'Step times on SwiftShader are the CPU emulating a GPU: they say nothing of a GPU. The GPU rows wait for a lent GPU machine.',
    '',
    '| path | preset | models | shape | dispatches / step | submits / step | GPU readbacks / step | tfjs kernels / step | budget (dispatches, submits, readbacks) | step ms: median (min-max) |',
    '| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: |',
  ];
  for (const r of file.rows) {
    const budget = r.budget ? `${r.budget.dispatches}, ${r.budget.submits}, ${r.budget.gpuReadbacks}` : '–';
    lines.push(
      `| ${r.path} | \`${r.preset}\` | ${r.models} | ${r.shape} | ${range(r.dispatches)} | ${range(r.submits)} | ${range(r.gpuReadbacks)} | ${range(r.kernels)} | ${budget} | ${ms(median(r.stepMs))} (${ms(Math.min(...r.stepMs))}-${ms(Math.max(...r.stepMs))}) |`,
    );
  }
  lines.push('', `Made from ${FUSED_JSON} (\`npx tsx cli/bench/bench-fused-lib.ts --write\`); src/engine/fused/budgets.test.ts counts the fused step again and checks the file's counts.`, '');
  return lines.join('\n');
}

/** The marked section of `doc` (without markers), or null. */
export function markedFusedSection(doc: string): string | null {
  const open = `<!-- ${MARK} -->\n`;
  const close = `\n<!-- /${MARK} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  return start < 0 || end < start ? null : doc.slice(start + open.length, end);
}

/** What is wrong with `doc`'s fused section against the results file; [] when it is what the file makes. */
export function fusedSectionProblems(path: string, doc: string, file: FusedBench | null): string[] {
  const said = markedFusedSection(doc);
  if (!file) return said === null ? [] : [`${path}: has a fused section (<!-- fused -->), but there is no ${FUSED_JSON}`];
  if (said === null) return [`${path}: no fused section (<!-- fused -->) for ${FUSED_JSON}`];
  return said === fusedSection(file) ? [] : [`${path}: the fused section is not what ${FUSED_JSON} makes (npx tsx cli/bench/bench-fused-lib.ts --write)`];
}

function main(argv: string[]): void {
  if (!argv.includes('--write')) {
    console.error('usage: npx tsx cli/bench/bench-fused-lib.ts --write');
    process.exit(2);
  }
  const file = JSON.parse(readFileSync(FUSED_JSON, 'utf8')) as FusedBench;
  const path = 'docs/BENCHMARKS.md';
  const text = readFileSync(path, 'utf8');
  const open = `<!-- ${MARK} -->`;
  const close = `<!-- /${MARK} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${path} has no ${open} ... ${close}`);
  writeFileSync(path, text.slice(0, start) + `${open}\n${fusedSection(file)}\n${close}` + text.slice(end + close.length));
  console.error(`wrote ${path}'s fused section from ${FUSED_JSON}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
