/**
 * The gradient oracle: one GRPO update of a bench cohort on the active tfjs
 * backend, exported so that PyTorch can recompute it (scripts/torch_gradcheck.py) and say how far
 * the lab's loss and gradients are from its own on the same weights and rollouts.
 *
 * What is exported, per case: every model's weights (the members at their seeded initial weights,
 * as `npm run bench` runs them), the rollouts the lab's own sampler drew (tokens, completion mask),
 * the rewards and the lab's group advantages, and what the lab computed from them: each model's
 * loss, each completion token's log-prob (the forward alone), every parameter's gradient
 * (tf.variableGrads over grpoTermsStack, the update's own loss), the gradient norm and the clipped
 * gradients that grpoUpdateStackOnDevice hands to the optimiser.
 *
 * At rho = 1 the loss's value is minus the mean advantage, about 0 whatever the model computes:
 * the forward is checked through the log-probs, the backward through the gradients.
 *
 * Rewards are seeded coins, not votes: at initial weights almost no completion is right or agrees,
 * so the lab's own rewards would give mostly zero advantages and a check of nothing.
 *
 * `plant` computes the lab's side with a deliberate bug (the exported inputs stay correct), so the
 * check is shown to fail when the loss is wrong.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { benchCase, modelCount, shapeOf, type CaseId } from '../../src/core/benchmark/index';
import { createPolicy, stackOf, ModelStack } from '../../src/core/models/index';
import type { PolicyConfig } from '../../src/core/models/policy';
import { policyConfigFor } from '../../src/core/experiment/cohort';
import { lengthCap, runMaxLen } from '../../src/core/experiment/lengths';
import { completionMask } from '../../src/core/experiment/arm';
import { grpoTermsStack, stackTokenLogProbs, type GrpoLossOptions, type GrpoStackBatch } from '../../src/core/grpo/loss';
import { grpoUpdateStackOnDevice, readStackUpdateStats } from '../../src/core/grpo/update';
import { groupAdvantages } from '../../src/core/grpo/advantages';
import { sampleStack } from '../../src/core/rollout';
import { Rng } from '../../src/core/random';
import { getTask, encodePrompt, VOCAB_SIZE } from '../../src/core/tasks/index';

/** The MLP cohort and the transformer cohort that the PyTorch timing reference mirrors (cli/bench/bench-torch.ts). */
export const CHECK_CASES: readonly CaseId[] = ['collapse', 'peers-teach', 'transformer'];

/** Deliberate bugs on the lab's side only: the advantage's sign flipped, or 'bnpo' normalisation instead of the spec's. */
export const PLANTS = ['none', 'adv-sign', 'bnpo'] as const;
export type Plant = (typeof PLANTS)[number];

/** The tolerance: absolute, on every quantity. */
export const DEFAULT_TOLERANCE = 1e-5;
/** Of each tensor's largest |value| (scripts/torch_gradcheck.py says why both). */
export const DEFAULT_REL_TOLERANCE = 1e-4;

interface ArrayEntry {
  dtype: 'float32' | 'int32';
  shape: number[];
  /** Byte offset in data.bin. */
  offset: number;
}

/** manifest.json: everything the Python side needs besides the arrays in data.bin. */
export interface CheckManifest {
  caseId: CaseId;
  preset: string;
  shape: string;
  backend: string;
  plant: Plant;
  seed: number;
  config: PolicyConfig;
  K: number;
  N: number;
  T: number;
  /** The first predicted position kept by the loss (prompt length - 1), as step.ts passes it. */
  from: number;
  temperature: number;
  clipEps: number;
  normalisation: string;
  maxCompletionLength: number;
  /** The clip of the captured update: min(the spec's, half the smallest model's gradient norm). */
  maxGradNorm: number;
  /** Parameter names in the stack's variable order, and their per-model shapes. */
  params: { name: string; shape: number[] }[];
  arrays: Record<string, ArrayEntry>;
}

/** Writes named arrays one after another into one little-endian buffer (both typed arrays are LE on x86/ARM). */
class ArrayWriter {
  readonly entries: Record<string, ArrayEntry> = {};
  private parts: Uint8Array[] = [];
  private bytes = 0;

  add(name: string, data: Float32Array | Int32Array, shape: number[]): void {
    const size = shape.reduce((a, b) => a * b, 1);
    if (size !== data.length) throw new Error(`${name}: ${data.length} values for shape [${shape}]`);
    this.entries[name] = { dtype: data instanceof Int32Array ? 'int32' : 'float32', shape, offset: this.bytes };
    const copy = new Uint8Array(data.byteLength);
    copy.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.parts.push(copy);
    this.bytes += copy.byteLength;
  }

  buffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * One GRPO update of `caseId`'s cohort on the active backend, written to `dir` (manifest.json and
 * data.bin). Returns the manifest. Disposes every tensor it makes.
 */
export async function exportUpdate(caseId: CaseId, dir: string, opts: { seed?: number; plant?: Plant } = {}): Promise<CheckManifest> {
  const seed = opts.seed ?? 1;
  const plant = opts.plant ?? 'none';
  const c = benchCase(caseId);
  const spec = c.spec;
  const g = spec.grpo;
  if (g.beta > 0) throw new Error(`${caseId}: beta > 0 (a KL term) is not in the oracle`);
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const maxLen = runMaxLen(spec, task);
  const root = new Rng(seed, 'torch-check');

  // Every arm's members, one model each, at the member's seeded initial weights (cohort.ts buildMember's stream).
  const byId = new Map(spec.members.map((m) => [m.id, m]));
  const slots = spec.arms.flatMap((a) => a.members.map((id) => byId.get(id)!));
  const shapes = new Set(slots.map(shapeOf));
  if (shapes.size !== 1) throw new Error(`${caseId}: the oracle takes one model shape, this cohort has ${[...shapes].join(', ')}`);
  const config = policyConfigFor(slots[0], VOCAB_SIZE, maxLen);
  const policies = slots.map((m) => createPolicy(config, new Rng(spec.seed).child(`init/${m.initSeed}/${m.family}`)));
  const stack = ModelStack.concat(policies.map((p) => stackOf(p)!));
  policies.forEach((p) => p.dispose());
  const K = stack.size;
  if (K !== modelCount(spec)) throw new Error(`${caseId}: ${K} models in the stack, ${modelCount(spec)} in the spec`);

  const held: tf.Tensor[] = [];
  try {
    // Rollouts: B prompts of the task, G samples each, by the lab's sampler; one stream per model.
    const B = g.promptsPerStep;
    const G = g.groupSize;
    const N = B * G;
    const problemRng = root.child('problems');
    const prompts = Array.from({ length: B }, () => encodePrompt(task.generate(problemRng, d).prompt));
    const rngs = Array.from({ length: K }, (_, k) => root.child(`sample/${k}`));
    const batches = await sampleStack(stack, prompts, task, d, { groupSize: G, temperature: g.temperature, maxNewTokens: L, rngs });
    const P = batches[0].promptLength;
    const T = P + L;
    const from = P - 1;

    const coins = root.child('rewards');
    const rewards = batches.map(() => Float32Array.from({ length: N }, () => (coins.next() < 0.5 ? 0 : 1)));
    const advantages = rewards.map((r) => groupAdvantages(r, B, G, g.advantageScale));
    const flat = <A extends Float32Array | Int32Array>(parts: A[], make: (n: number) => A): A => {
      const out = make(parts.reduce((n, p) => n + p.length, 0));
      parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
      return out;
    };
    const tokensData = flat(batches.map((b) => b.sequences), (n) => new Int32Array(n));
    const maskData = flat(batches.map(completionMask), (n) => new Float32Array(n));
    const advData = flat(advantages, (n) => new Float32Array(n));
    const sign = plant === 'adv-sign' ? -1 : 1;
    const tokens = tf.tensor3d(tokensData, [K, N, T], 'int32');
    const mask = tf.tensor3d(maskData, [K, N, T - 1]);
    const adv = tf.tensor2d(advData.map((a) => sign * a), [K, N]);
    held.push(tokens, mask, adv);
    const batch: GrpoStackBatch = { tokens, completionMask: mask, advantages: adv, from };
    const lossOpts: GrpoLossOptions = {
      temperature: g.temperature,
      clipEps: g.clipEps,
      beta: 0,
      normalisation: plant === 'bnpo' ? 'bnpo' : g.lossNormalisation,
      maxCompletionLength: L,
    };

    const w = new ArrayWriter();
    const names = stack.variables.map((v) => v.name); // tfjs's global names: "<stack prefix>/<param>"
    const local = stack.names; // the family's parameter names, in the same order
    for (let i = 0; i < names.length; i++) w.add(`w/${local[i]}`, (await stack.variables[i].data()) as Float32Array, stack.variables[i].shape);

    // The raw gradients: the update's own loss under tf.variableGrads, as grpoUpdateStackOnDevice takes it.
    let lossPerModel: tf.Tensor | null = null;
    const { value, grads } = tf.variableGrads(() => {
      const t = grpoTermsStack((x, f) => stack.logits(x, f), batch, lossOpts);
      lossPerModel = tf.keep(t.loss);
      return tf.sum(t.loss) as tf.Scalar;
    }, stack.variables);
    held.push(value, lossPerModel!, ...Object.values(grads));
    for (let i = 0; i < names.length; i++) w.add(`g/${local[i]}`, (await grads[names[i]].data()) as Float32Array, stack.variables[i].shape);

    // The forward alone: each completion token's log-prob under the lab's logits (the loss's own pick).
    const logp = stackTokenLogProbs((x, f) => stack.logits(x, f), tokens, g.temperature, from);
    held.push(logp);
    w.add('logp', (await logp.data()) as Float32Array, logp.shape);

    // The clipped gradients the lab's update hands its optimiser (captured, not applied). At initial
    // weights every model's norm is below the spec's clip (1), which would leave them unclipped: the
    // clip is set to half the smallest norm instead, so that its rule is exercised on every model.
    const norms = await Promise.all(
      Array.from({ length: K }, async (_, k) => {
        let ss = 0;
        for (const n of names) {
          const v = (await grads[n].data()) as Float32Array;
          const per = v.length / K;
          for (let i = k * per; i < (k + 1) * per; i++) ss += v[i] * v[i];
        }
        return Math.sqrt(ss);
      }),
    );
    const clipNorm = Math.min(g.maxGradNorm, 0.5 * Math.min(...norms));
    const clipped: Record<string, Float32Array> = {};
    const capture = {
      applyGradients(named: tf.NamedTensorMap) {
        for (const [n, t] of Object.entries(named)) clipped[n] = t.dataSync() as Float32Array;
      },
    };
    const stats = await readStackUpdateStats(
      grpoUpdateStackOnDevice(stack, capture, batch, { ...lossOpts, maxGradNorm: clipNorm, updatesPerBatch: 1 }),
    );
    for (let i = 0; i < names.length; i++) w.add(`c/${local[i]}`, clipped[names[i]], stack.variables[i].shape);

    w.add('tokens', tokensData, [K, N, T]);
    w.add('mask', maskData, [K, N, T - 1]);
    w.add('rewards', flat(rewards, (n) => new Float32Array(n)), [K, N]);
    w.add('advantages', advData, [K, N]);
    w.add('loss', (await lossPerModel!.data()) as Float32Array, [K]);
    w.add('updateLoss', Float32Array.from(stats.map((s) => s.loss)), [K]);
    w.add('gradNorm', Float32Array.from(stats.map((s) => s.gradNorm)), [K]);

    const manifest: CheckManifest = {
      caseId,
      preset: c.preset,
      shape: shapeOf(slots[0]),
      backend: tf.getBackend(),
      plant,
      seed,
      config,
      K,
      N,
      T,
      from,
      temperature: g.temperature,
      clipEps: g.clipEps,
      normalisation: g.lossNormalisation,
      maxCompletionLength: L,
      maxGradNorm: clipNorm,
      params: local.map((name, i) => ({ name, shape: stack.variables[i].shape.slice(1) })),
      arrays: w.entries,
    };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'data.bin'), w.buffer());
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
    return manifest;
  } finally {
    tf.dispose(held);
    stack.dispose();
  }
}

/** One compared quantity: the lab's value against PyTorch's (float32) and an exact (float64) recomputation. */
export interface CheckRow {
  name: string;
  /** Largest |x| of PyTorch's float32 value: what the absolute difference is read against. */
  scale: number;
  /** max |lab - PyTorch float32|. */
  maxAbs: number;
  /** maxAbs / scale; null below a scale of 1e-6 (a cancellation: scripts/torch_gradcheck.py). */
  rel: number | null;
  /** max |lab - float64|. */
  maxAbs64: number;
  /** max |PyTorch float32 - float64|: PyTorch's own rounding, for comparison. */
  torch32vs64: number;
  pass: boolean;
}

/** scripts/torch_gradcheck.py's JSON line. */
export interface CheckReport {
  caseId: string;
  torch: string;
  tolerance: number;
  relTolerance: number;
  pass: boolean;
  /** The quantities over a tolerance. */
  failed: string[];
  /** The largest absolute difference and where. */
  worst: { name: string; maxAbs: number };
  rows: CheckRow[];
}

/** Debian's python with torch, or why there is none (looked up once). */
let found: { python: string } | { skipped: string } | undefined;
export const NO_TORCH = 'skipped: no torch (apt-get install python3-torch)';

export function findTorchPython(candidates?: string[]): { python: string } | { skipped: string } {
  if (found && !candidates) return found;
  let out: { python: string } | { skipped: string } = { skipped: NO_TORCH };
  // Debian's python first: python3 on PATH may be another (pyenv's) without Debian's packages.
  for (const python of candidates ?? ['/usr/bin/python3', 'python3']) {
    if (python.startsWith('/') && !existsSync(python)) continue;
    const r = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8', timeout: 120_000 });
    if (r.status === 0) {
      out = { python };
      break;
    }
  }
  if (!candidates) found = out;
  return out;
}

/** Runs scripts/torch_gradcheck.py on an export and returns its report (throws with its stderr on failure). */
export function compareWithTorch(python: string, dir: string, tolerance = DEFAULT_TOLERANCE, relTolerance = DEFAULT_REL_TOLERANCE): CheckReport {
  const args = ['scripts/torch_gradcheck.py', dir, '--tolerance', String(tolerance), '--rel-tolerance', String(relTolerance)];
  const r = spawnSync(python, args, { encoding: 'utf8', timeout: 10 * 60_000 });
  if (r.status !== 0) throw new Error(`scripts/torch_gradcheck.py failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as CheckReport;
}

const e = (x: number) => (x === 0 ? '0' : x.toExponential(1));

/**
 * Rows for the table: each quantity, or (summary) the forward's and the norm's rows and one row per
 * kind of gradient (raw 'g/', clipped 'c/') with its worst tensor by relative difference.
 */
export function tableRows(r: CheckReport, summary: boolean): (CheckRow & { label: string })[] {
  if (!summary) return r.rows.map((x) => ({ ...x, label: x.name }));
  const out = r.rows.filter((x) => !x.name.includes('/')).map((x) => ({ ...x, label: x.name }));
  for (const [prefix, what] of [
    ['g/', 'gradients'],
    ['c/', 'clipped gradients'],
  ] as const) {
    const group = r.rows.filter((x) => x.name.startsWith(prefix));
    if (!group.length) continue;
    const worst = group.reduce((a, b) => ((b.rel ?? 0) > (a.rel ?? 0) ? b : a));
    const max = (f: (x: CheckRow) => number) => Math.max(...group.map(f));
    out.push({
      ...worst,
      label: `${what}, ${group.length} tensors (largest relative: ${worst.name.slice(2)})`,
      scale: max((x) => x.scale),
      maxAbs: max((x) => x.maxAbs),
      maxAbs64: max((x) => x.maxAbs64),
      torch32vs64: max((x) => x.torch32vs64),
      pass: group.every((x) => x.pass),
    });
  }
  return out;
}

/** The report as a Markdown table. */
export function reportTable(m: CheckManifest, r: CheckReport, summary = true): string {
  const verdict = r.pass ? 'pass' : `FAIL (${r.failed.length} over: ${r.failed.slice(0, 4).join(', ')}${r.failed.length > 4 ? ', ...' : ''})`;
  return [
    `${r.caseId} (${m.K} x ${m.shape}, ${m.N} rollouts of ${m.T} tokens, ${m.backend}, seed ${m.seed}, clip ${m.maxGradNorm.toPrecision(3)}` +
      `${m.plant === 'none' ? '' : `, planted: ${m.plant}`}): ${verdict} at ${r.tolerance} absolute and ${r.relTolerance} relative; ` +
      `worst absolute ${r.worst.name} ${e(r.worst.maxAbs)}`,
    '',
    '| quantity | max abs value | lab - PyTorch f32 | relative | lab - float64 | PyTorch f32 - float64 |',
    '|---|---:|---:|---:|---:|---:|',
    ...tableRows(r, summary).map(
      (x) => `| ${x.label} | ${x.scale.toPrecision(3)} | ${e(x.maxAbs)} | ${x.rel === null ? '–' : e(x.rel)} | ${e(x.maxAbs64)} | ${e(x.torch32vs64)} |`,
    ),
  ].join('\n');
}
