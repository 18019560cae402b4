/**
 * The PyTorch references of `npm run bench` (scripts/torch_reference.py), without I/O: which lab
 * cohorts have one, the script's command line for a cohort, and the `<!-- torch -->` section of
 * docs/BENCHMARKS.md that sets each beside the Node wasm row of the same case and shape.
 * cli/bench/bench-extra.ts runs the script; cli/bench/bench.ts writes the section.
 *
 * The targets: the lab's Node wasm RL step at most 1.5x PyTorch's for the MLP cohort and
 * at most 2x for the transformer cohort, on the same machine in the same run.
 */
import { benchCase, modelCount, shapeOf, type BenchRow, type CaseId } from '../../src/core/benchmark/index';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { lengthCap } from '../../src/core/experiment/runner';
import { getTask, sequenceLength } from '../../src/core/tasks/index';
import { VOCAB_SIZE } from '../../src/core/tasks/tokenizer';

/** One cohort as the script takes it (its flags). */
export interface TorchShape {
  family: 'mlp' | 'transformer';
  /** Models trained per step (every arm's members). */
  models: number;
  /** Models that only sample (the frozen teachers of teacher arms). */
  frozen: number;
  prompts: number;
  group: number;
  promptLength: number;
  newTokens: number;
  vocab: number;
  dModel: number;
  layers: number;
  /** mlp only. */
  window: number;
  /** transformer only. */
  heads: number;
  /** transformer only: learned positions (the lab's maxLen). */
  maxLen: number;
  learningRate: number;
  clipEps: number;
  temperature: number;
}

export interface TorchTiming {
  stepMs: number;
  stepMsMin: number;
  stepMsMax: number;
  rolloutMs: number;
  updateMs: number;
}

/** The script's JSON line, plus what bench.ts adds (preset, target, date). */
export interface TorchResult {
  torch: string;
  blas: string;
  threads: number;
  models: number;
  /** Absent in results of the script before it had --family (then 'mlp', 0, 'window'). */
  family?: 'mlp' | 'transformer';
  frozen?: number;
  decode?: 'window' | 'kv-cache';
  shape: string;
  B: number;
  G: number;
  promptLength: number;
  newTokens: number;
  params: number;
  repeats: number;
  /** Every token recomputes the whole fixed-length sequence. */
  fullRecompute: TorchTiming;
  /** Every token computes only its own position (MLP: its window; transformer: a KV cache), as the lab's rollout does. */
  newPositionOnly: TorchTiming;
  /** The lab's bench row this mirrors: its preset ('collapse', 'peers-teach', 'collapse-transformer'). */
  preset?: string;
  /** The target ratio, lab / PyTorch. */
  target?: number;
  date?: string;
}

/** A reference that did not run, and why. */
export interface TorchSkip {
  preset: string;
  skipped: string;
}

/** The lab cohorts with a PyTorch reference: the bench case whose spec it mirrors, and the target ratio. */
export const TORCH_CASES: readonly { caseId: CaseId; target: number }[] = [
  { caseId: 'collapse', target: 1.5 },
  { caseId: 'peers-teach', target: 2 },
  { caseId: 'transformer', target: 2 },
];

/** The script's cohort for a spec: every arm's members (one shape), plus the frozen teachers that sample. */
export function torchShapeOf(spec: ExperimentSpec): TorchShape {
  const byId = new Map(spec.members.map((m) => [m.id, m]));
  const trained = spec.arms.flatMap((a) => a.members.map((id) => byId.get(id)!));
  const teachers = [...new Set(spec.arms.flatMap((a) => (a.scheme === 'teacher' && a.teacher ? [a.teacher] : [])))].map((id) => byId.get(id)!);
  const shapes = new Set([...trained, ...teachers].map(shapeOf));
  if (shapes.size !== 1) throw new Error(`the PyTorch reference runs one model shape, this cohort has ${[...shapes].join(', ')}`);
  const m = trained[0];
  if (m.family !== 'mlp' && m.family !== 'transformer') throw new Error(`no PyTorch reference for the ${m.family} family`);
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const promptLength = 1 + task.promptLength(d);
  const newTokens = lengthCap(spec, task);
  return {
    family: m.family,
    models: modelCount(spec),
    frozen: teachers.length,
    prompts: spec.grpo.promptsPerStep,
    group: spec.grpo.groupSize,
    promptLength,
    newTokens,
    vocab: VOCAB_SIZE,
    dModel: m.dModel,
    layers: m.layers,
    window: m.window,
    heads: m.heads,
    maxLen: Math.max(sequenceLength(task, d), promptLength + newTokens), // as the runner sizes the models
    learningRate: spec.grpo.learningRate,
    clipEps: spec.grpo.clipEps,
    temperature: spec.grpo.temperature,
  };
}

/** The script's arguments for a cohort. */
export function torchArgs(shape: TorchShape, repeats: number): string[] {
  const family =
    shape.family === 'transformer'
      ? [['--heads', shape.heads], ['--max-len', shape.maxLen]]
      : [['--window', shape.window]];
  return [
    'scripts/torch_reference.py',
    ['--family', shape.family],
    ['--models', shape.models],
    ['--frozen', shape.frozen],
    ['--prompts', shape.prompts],
    ['--group', shape.group],
    ['--prompt-len', shape.promptLength],
    ['--new-tokens', shape.newTokens],
    ['--vocab', shape.vocab],
    ['--d-model', shape.dModel],
    ['--layers', shape.layers],
    ...family,
    ['--lr', shape.learningRate],
    ['--clip-eps', shape.clipEps],
    ['--temperature', shape.temperature],
    ['--repeats', repeats],
  ]
    .flat()
    .map(String);
}

/** Each reference's cohort: the bench case's spec, its preset name and target. */
export function torchCohorts(): { preset: string; target: number; shape: TorchShape }[] {
  return TORCH_CASES.map(({ caseId, target }) => {
    const c = benchCase(caseId);
    return { preset: c.preset, target, shape: torchShapeOf(c.spec) };
  });
}

/** The Node wasm row a reference compares with: same preset, model count and shape. */
export function labRow(t: TorchResult, rows: BenchRow[]): BenchRow | undefined {
  return rows.find((r) => r.where === 'node' && r.backend === 'wasm' && r.preset === t.preset && r.models === t.models && r.shape === t.shape);
}

/** lab / PyTorch: the Node wasm step's median over PyTorch's incremental step, or null without a row. */
export function labRatio(t: TorchResult, rows: BenchRow[]): number | null {
  const row = labRow(t, rows);
  return row ? row.stepMs.median / t.newPositionOnly.stepMs : null;
}

const ms = (x: number) => x.toFixed(0);

/**
 * The `<!-- torch -->` section: one row per reference, beside the lab's Node wasm row of the same
 * case and shape. `machine` is bench.ts's machine line (CPU, load average when written).
 */
export function torchSection(results: TorchResult[], skipped: TorchSkip[], rows: BenchRow[], machine: string): string {
  if (results.length === 0) {
    const why = [...new Set(skipped.map((s) => s.skipped))].join('; ') || 'nothing ran';
    return ['## PyTorch reference', '', `${why}.`, ''].join('\n');
  }
  const first = results[0];
  const dates = [...new Set(results.map((t) => t.date ?? '?'))].sort().join(', ');
  const repeats = [...new Set(results.map((t) => t.repeats))].join(', ');
  const body = results.map((t) => {
    const n = t.newPositionOnly;
    const row = labRow(t, rows);
    const ratio = labRatio(t, rows);
    const frozen = t.frozen ? ` + ${t.frozen} frozen teacher${t.frozen > 1 ? 's' : ''}` : '';
    const lab = row ? `${ms(row.stepMs.median)} (${ms(row.stepMs.min)}-${ms(row.stepMs.max)})${row.date !== t.date ? `, ${row.date}` : ''}` : 'not measured';
    const target = t.target === undefined ? '–' : `<= ${t.target}x${ratio === null ? '' : ratio <= t.target ? ': met' : ': missed'}`;
    return [
      `\`${t.preset ?? '?'}\``,
      `${t.models}${frozen}`,
      t.shape,
      String(t.params),
      `${t.B} x ${t.G}, ${t.promptLength} + ${t.newTokens}`,
      `${ms(n.stepMs)} (${ms(n.stepMsMin)}-${ms(n.stepMsMax)})`,
      ms(n.rolloutMs),
      ms(n.updateMs),
      ms(t.fullRecompute.stepMs),
      lab,
      ratio === null ? '–' : `${ratio.toFixed(2)}x`,
      target,
    ];
  });
  const head = [
    'lab case',
    'models',
    'shape',
    'parameters each',
    'B x G, prompt + new tokens',
    'PyTorch step ms (min-max)',
    'of which rollouts ms',
    'of which updates ms',
    'PyTorch step recomputing per token ms',
    'Node wasm step ms (min-max)',
    'lab / PyTorch',
    'target',
  ];
  const align = head.map((_, i) => (i < 3 ? '---' : i === head.length - 1 ? '---' : '---:'));
  const stale = results.filter((t) => {
    const row = labRow(t, rows);
    return row && row.date !== t.date;
  });
  return [
    `## PyTorch reference, ${dates}`,
    '',
    `\`scripts/torch_reference.py\`: the RL step of each cohort below in PyTorch ${first.torch} on the CPU ` +
      `(${first.threads} thread, BLAS: ${first.blas}). Each trained model samples B x G completions of the new tokens ` +
      'after the prompt and takes one GRPO update (clipped surrogate at rho = 1, grpo normalisation, global grad-norm ' +
      'clip 1, Adam), the models one after another; a frozen teacher only samples (timed with the rollouts). The rollout ' +
      "decodes as the lab's does, a new token computing only its own position (the MLP from its window of tokens, the " +
      'transformer from a KV cache of every layer\'s keys and values); the "recomputing" column runs the whole sequence ' +
      `per token instead. Medians of ${repeats} steps after 2 warm-up steps. Machine: ${machine}.`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...body.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'The Node wasm column is the row of the same case, model count and shape in the Node section; lab / PyTorch is its ' +
      "median step divided by PyTorch's step; the targets: MLP cohort <= 1.5x, transformer cohort <= 2x, " +
      "same machine, same run. The lab's step also computes votes, rewards and metrics (small) and trains same-shape " +
      'copies as stacks; PyTorch trains the models one after another. On a shared machine both times move with the load: ' +
      'compare within one run.' +
      (stale.length ? ` Node rows from another day than the PyTorch run (${stale.map((t) => `\`${t.preset}\``).join(', ')}) are not the same run.` : ''),
    ...(skipped.length ? ['', `Not run: ${skipped.map((s) => `\`${s.preset}\`: ${s.skipped}`).join('; ')}.`] : []),
    '',
  ].join('\n');
}
