/**
 * npm run bench [-- --backends wasm,cpu,webgpu] [--out docs/BENCHMARKS.md] [--repeats 7]
 *
 * Measures, per available backend, for each member of the default preset's cohort:
 *   - rollout throughput: generated tokens per second of one batched rollout (B*G rows, L tokens),
 *   - warm-start step time: one supervised Adam step on a batch of labeled sequences,
 *   - GRPO update time: one GRPO update on a rollout batch.
 * Each is the median of `repeats` runs after two warm-up runs (shader compilation and kernel
 * caches are excluded, PLATFORM.md). This is a measurement, not a test: nothing is asserted.
 * Results are printed and written to docs/BENCHMARKS.md together with the machine.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import * as tf from '@tensorflow/tfjs';
import { parseArgs, intFlag, UsageError } from './args';
import { initNodeBackend, type NodeBackendName } from '../src/engine/node-backend';
import { getPreset, DEFAULT_PRESET } from '../src/core/experiment/presets';
import { policyConfigFor } from '../src/core/experiment/cohort';
import { lengthCap } from '../src/core/experiment/runner';
import { createPolicy, describePolicy } from '../src/core/models/index';
import { Rng } from '../src/core/random';
import { getTask, makeSplit, sequenceLength } from '../src/core/tasks/index';
import { VOCAB_SIZE, encodePrompt } from '../src/core/tasks/tokenizer';
import { sampleRollouts } from '../src/core/rollout';
import { encodeSupervised, supervisedLoss } from '../src/core/warmstart';
import { grpoUpdate } from '../src/core/grpo/update';
import { Adam } from '../src/core/adam';

interface Row {
  backend: string;
  adapter: string | null;
  member: string;
  rolloutTokensPerS: number;
  rolloutMs: number;
  warmStartStepMs: number;
  grpoUpdateMs: number;
}

async function medianMs(repeats: number, fn: () => Promise<void>): Promise<number> {
  await fn();
  await fn(); // warm-up: shader compilation, kernel caches
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function benchBackend(name: NodeBackendName, repeats: number): Promise<Row[]> {
  const report = await initNodeBackend(name, { fallback: false });
  const spec = getPreset(DEFAULT_PRESET)!.spec;
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const maxLen = Math.max(sequenceLength(task, d), 1 + task.promptLength(d) + L);
  const split = makeSplit(task, d, new Rng(1, 'bench'), { warmStart: 256, rl: spec.grpo.promptsPerStep, heldOut: 0 });
  const prompts = split.rl.map((p) => encodePrompt(p.prompt));
  const B = spec.grpo.promptsPerStep;
  const G = spec.grpo.groupSize;
  const rows: Row[] = [];
  for (const m of spec.members) {
    const config = policyConfigFor(m, VOCAB_SIZE, maxLen);
    const policy = createPolicy(config, new Rng(1, `bench/${m.id}`));
    // Rollout: B*G completions of L tokens, one readback.
    let batch = await sampleRollouts(policy, prompts, task, d, { groupSize: G, temperature: 1, maxNewTokens: L, rng: new Rng(2) });
    const rolloutMs = await medianMs(repeats, async () => {
      batch = await sampleRollouts(policy, prompts, task, d, { groupSize: G, temperature: 1, maxNewTokens: L, rng: new Rng(2) });
    });
    // Warm-start step: one Adam step on a batch of labeled sequences.
    const data = encodeSupervised(split.warmStart.slice(0, spec.warmStart.batchSize), maxLen, spec.task.scratchpad, new Rng(3));
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
    // GRPO update on the last rollout batch.
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
        temperature: g.temperature, clipEps: g.clipEps, beta: g.beta, normalisation: g.lossNormalisation,
        maxCompletionLength: L, maxGradNorm: g.maxGradNorm, updatesPerBatch: g.updatesPerBatch,
      });
    });
    tf.dispose([seq, cm, adv]);
    adam.dispose();
    policy.dispose();
    rows.push({
      backend: report.backend,
      adapter: report.adapter,
      member: `${m.id}: ${describePolicy(config)}`,
      rolloutTokensPerS: (N * L) / (rolloutMs / 1000),
      rolloutMs,
      warmStartStepMs,
      grpoUpdateMs,
    });
  }
  return rows;
}

function table(rows: Row[]): string {
  const head = '| backend | member | rollout (tokens/s) | rollout batch (ms) | warm-start step (ms) | GRPO update (ms) |';
  const sep = '|---|---|---:|---:|---:|---:|';
  const body = rows.map(
    (r) =>
      `| ${r.backend}${r.adapter ? ` (${r.adapter})` : ''} | ${r.member} | ${r.rolloutTokensPerS.toFixed(0)} | ${r.rolloutMs.toFixed(1)} | ${r.warmStartStepMs.toFixed(1)} | ${r.grpoUpdateMs.toFixed(1)} |`,
  );
  return [head, sep, ...body].join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { backends: 'string', out: 'string', repeats: 'string' });
  const repeats = intFlag(args, 'repeats', 1, 100) ?? 7;
  const list = String(args.flags.get('backends') ?? 'wasm,cpu,webgpu').split(',');
  for (const b of list) if (!['wasm', 'cpu', 'webgpu'].includes(b)) throw new UsageError(`unknown backend "${b}" (wasm, cpu, webgpu)`);
  const out = (args.flags.get('out') as string | undefined) ?? 'docs/BENCHMARKS.md';
  const rows: Row[] = [];
  const skipped: string[] = [];
  for (const b of list as NodeBackendName[]) {
    try {
      console.error(`benchmarking ${b} ...`);
      rows.push(...(await benchBackend(b, repeats)));
    } catch (e) {
      skipped.push(`${b}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
  const spec = getPreset(DEFAULT_PRESET)!.spec;
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
  const section = [
    `## Node (\`npm run bench\`), ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Machine: ${machine}. Preset \`${DEFAULT_PRESET}\`: B ${spec.grpo.promptsPerStep} prompts x G ${spec.grpo.groupSize}, ` +
      `warm-start batch ${spec.warmStart.batchSize}; median of ${repeats} after 2 warm-up runs.`,
    '',
    table(rows),
    '',
    ...(skipped.length ? ['Not measured: ' + skipped.join('; '), ''] : []),
  ].join('\n');
  console.log(section);
  writeNodeSection(out, section);
  if (list.includes('webgpu')) process.exit(0); // Dawn keeps Node alive (PLATFORM.md)
}

/** Replace the Node section of BENCHMARKS.md, keeping everything else (browser and GPU sections). */
function writeNodeSection(path: string, section: string): void {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '# Benchmarks\n\nMeasurements, not tests: rerun with the commands given. Absolute speed on SwiftShader (CPU-emulated WebGPU) says nothing about a real GPU.\n\n<!-- node -->\n<!-- /node -->\n';
  }
  const start = text.indexOf('<!-- node -->');
  const end = text.indexOf('<!-- /node -->');
  const next = start >= 0 && end > start
    ? text.slice(0, start) + '<!-- node -->\n' + section + '\n' + text.slice(end)
    : text + '\n<!-- node -->\n' + section + '\n<!-- /node -->\n';
  writeFileSync(path, next);
}

main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
