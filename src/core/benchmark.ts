/**
 * Speed measurements of the default cohort on whatever tfjs backend is active. Shared by the Node
 * benchmark (cli/bench.ts) and the browser one (bench.html, driven by cli/bench.ts --browser), so
 * both measure the same thing. A measurement, not a test: nothing here asserts a time.
 *
 * Per member: one batched rollout (B*G rows, L tokens, one readback), one supervised warm-start
 * Adam step, and one GRPO update. Each is the median of `repeats` runs after two warm-up runs
 * (shader compilation and kernel caches are excluded, PLATFORM.md).
 */
import * as tf from '@tensorflow/tfjs';
import type { ExperimentSpec } from './experiment/spec';
import { policyConfigFor } from './experiment/cohort';
import { lengthCap } from './experiment/runner';
import { createPolicy, describePolicy } from './models/index';
import { Rng } from './random';
import { getTask, makeSplit, sequenceLength } from './tasks/index';
import { VOCAB_SIZE, encodePrompt } from './tasks/tokenizer';
import { sampleRollouts } from './rollout';
import { encodeSupervised, supervisedLoss } from './warmstart';
import { grpoUpdate } from './grpo/update';
import { Adam } from './adam';

export interface BenchRow {
  backend: string;
  member: string;
  rolloutTokensPerS: number;
  rolloutMs: number;
  warmStartStepMs: number;
  grpoUpdateMs: number;
}

async function medianMs(repeats: number, fn: () => Promise<void>): Promise<number> {
  await fn();
  await fn();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchmarkCohort(spec: ExperimentSpec, repeats: number): Promise<BenchRow[]> {
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const maxLen = Math.max(sequenceLength(task, d), 1 + task.promptLength(d) + L);
  const B = spec.grpo.promptsPerStep;
  const G = spec.grpo.groupSize;
  const split = makeSplit(task, d, new Rng(1, 'bench'), { warmStart: spec.warmStart.batchSize, rl: B, heldOut: 0 });
  const prompts = split.rl.map((p) => encodePrompt(p.prompt));
  const rows: BenchRow[] = [];
  for (const m of spec.members) {
    const config = policyConfigFor(m, VOCAB_SIZE, maxLen);
    const policy = createPolicy(config, new Rng(1, `bench/${m.id}`));
    const sample = () => sampleRollouts(policy, prompts, task, d, { groupSize: G, temperature: 1, maxNewTokens: L, rng: new Rng(2) });
    let batch = await sample();
    const rolloutMs = await medianMs(repeats, async () => {
      batch = await sample();
    });

    const data = encodeSupervised(split.warmStart, maxLen, spec.task.scratchpad, new Rng(3));
    const tokens = tf.tensor2d(data.tokens, [data.count, data.length], 'int32');
    const mask = tf.tensor2d(data.lossMask, [data.count, data.length]);
    const opt = tf.train.adam(spec.warmStart.learningRate);
    const warmStartStepMs = await medianMs(repeats, async () => {
      const loss = opt.minimize(() => supervisedLoss(policy, tokens, mask), true, policy.variables)!;
      await loss.data();
      loss.dispose();
    });
    opt.dispose();
    tf.dispose([tokens, mask]);

    const N = B * G;
    const T = batch.promptLength + L;
    const cmask = new Float32Array(N * (T - 1));
    for (let i = 0; i < N; i++) for (let k = 0; k < batch.lengths[i]; k++) cmask[i * (T - 1) + batch.promptLength - 1 + k] = 1;
    const seq = tf.tensor2d(batch.sequences, [N, T], 'int32');
    const cm = tf.tensor2d(cmask, [N, T - 1]);
    const adv = tf.tensor1d(Array.from({ length: N }, (_, i) => (i % 2 ? 1 : -1)));
    const adam = new Adam(policy.variables, { learningRate: spec.grpo.learningRate });
    const g = spec.grpo;
    const grpoUpdateMs = await medianMs(repeats, async () => {
      await grpoUpdate(policy, adam, { tokens: seq, completionMask: cm, advantages: adv }, {
        temperature: g.temperature,
        clipEps: g.clipEps,
        beta: g.beta,
        normalisation: g.lossNormalisation,
        maxCompletionLength: L,
        maxGradNorm: g.maxGradNorm,
        updatesPerBatch: g.updatesPerBatch,
      });
    });
    tf.dispose([seq, cm, adv]);
    adam.dispose();
    policy.dispose();
    rows.push({
      backend: tf.getBackend(),
      member: `${m.id}: ${describePolicy(config)}`,
      rolloutTokensPerS: (N * L) / (rolloutMs / 1000),
      rolloutMs,
      warmStartStepMs,
      grpoUpdateMs,
    });
  }
  return rows;
}

export function benchTable(rows: (BenchRow & { adapter?: string | null })[]): string {
  const head = '| backend | member | rollout (tokens/s) | rollout batch (ms) | warm-start step (ms) | GRPO update (ms) |';
  const sep = '|---|---|---:|---:|---:|---:|';
  const body = rows.map(
    (r) =>
      `| ${r.backend}${r.adapter ? ` (${r.adapter})` : ''} | ${r.member} | ${r.rolloutTokensPerS.toFixed(0)} | ` +
      `${r.rolloutMs.toFixed(1)} | ${r.warmStartStepMs.toFixed(1)} | ${r.grpoUpdateMs.toFixed(1)} |`,
  );
  return [head, sep, ...body].join('\n');
}
