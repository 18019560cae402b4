/**
 * How much memory a run needs, estimated from its spec before any tensor exists, and the check
 * that refuses a run too large for its backend with a message saying what to reduce.
 *
 * The estimate is an upper bound in float32 bytes, built from the parts a GRPO step holds:
 *   weights       every warm-started member once (the reference for KL, the teacher, the clones'
 *                 source) and every arm's trained copy, with its gradient and Adam's two moments;
 *   activations   the policy-gradient pass over promptsPerStep x G rows of the full sequence, kept
 *                 by the gradient tape for the backward pass (TAPE below), for all trained copies
 *                 at once (the copies' losses are differentiated together);
 *   sampling      promptsPerStep x max(G, n_vote) rows, or the held-out evaluation (512 rows),
 *                 every copy at once, without a tape.
 * Per row and position a model holds: transformer, per block ~12 d (q, k, v, attention output,
 * the 4d MLP, norms) plus its attention scores heads x T; GRU, per layer ~8 d (gates, state);
 * MLP, the folded one-hot window W x V plus ~2 d per hidden layer; every family, V logits and
 * their softmax. Checked against tf.memory()'s measured peak for each family in budget.test.ts.
 */
import type { ExperimentSpec, MemberSpec } from './spec';
import { VOCAB_SIZE } from '../tasks/tokenizer';
import { countParams } from '../models';
import { policyConfigFor } from './cohort';
import { runMaxLen, runVocabSize } from './lengths';

const FLOAT = 4;
/** Rows of one evaluation batch (runner.ts evalOpts: floor(512 / G) prompts x G samples). */
const evalRows = (spec: ExperimentSpec) => Math.min(spec.data.heldOut, Math.floor(512 / spec.grpo.groupSize)) * spec.grpo.groupSize;
/**
 * Floats held per float of one forward pass (floatsPerPosition), measured on wasm as the tf.memory()
 * peak of one RL step and one evaluation of quick's shape (6 copies, T 16) at 4 and 16 prompts a
 * step, then rounded up: training (forward values, gradients, the tape's saved copies, the loss)
 * took 7.1x (MLP), 10.8x (GRU), 14.9x (transformer); sampling and evaluation (no tape; the
 * transformer's KV cache and the GRU's per-step states) 0.7x, 2.7x, 3.1x. budget.test.ts checks the
 * MLP and the transformer; the GRU's figures are from the same measurement (docs/RELIABILITY.md).
 */
const HELD: Record<MemberSpec['family'], { train: number; sample: number }> = {
  mlp: { train: 8, sample: 1 },
  gru: { train: 12, sample: 3 },
  transformer: { train: 16, sample: 3.5 },
};
/** What tfjs holds besides (the task's token tables, kernels' scratch): the largest intercept measured, rounded up. */
const FIXED_BYTES = 64 * 1024 * 1024;

export interface MemoryEstimate {
  /** Members warm-started once, plus every arm's trained copies. */
  models: number;
  /** Largest member, in parameters. */
  maxParams: number;
  weightBytes: number;
  activationBytes: number;
  totalBytes: number;
  /** The largest single tensor (one activation of the training pass). */
  largestTensorBytes: number;
}

/** Floats one model keeps per sequence row and position. */
export function floatsPerPosition(m: MemberSpec, seqLen: number, V: number = VOCAB_SIZE): number {
  const d = m.dModel;
  const logits = 2 * V;
  if (m.family === 'transformer') return m.layers * (12 * d + 2 * m.heads * seqLen) + 2 * d + logits;
  if (m.family === 'gru') return m.layers * 8 * d + 2 * d + logits;
  return m.window * V + Math.max(1, m.layers) * 2 * d + logits;
}

/** `T`: the policies' sequence length, when the caller resolved it already (resolve.ts). */
export function estimateMemory(spec: ExperimentSpec, T: number = runMaxLen(spec)): MemoryEstimate {
  const byId = new Map(spec.members.map((m) => [m.id, m]));
  const V = runVocabSize(spec);
  const params = (m: MemberSpec) => countParams(policyConfigFor(m, V, T));
  const trained = spec.arms.flatMap((a) => a.members.map((id) => byId.get(id)!)).filter(Boolean);
  const G = spec.grpo.groupSize;
  const trainRows = spec.grpo.promptsPerStep * G;
  const sampleRows = Math.max(spec.grpo.promptsPerStep * Math.max(G, spec.grpo.voteSize ?? 0), evalRows(spec));

  let weightFloats = spec.members.reduce((sum, m) => sum + params(m), 0);
  let trainFloats = 0;
  let sampleFloats = 0;
  let largest = 0;
  for (const m of trained) {
    weightFloats += 4 * params(m); // weights, gradient, Adam's m and v
    const perRow = T * floatsPerPosition(m, T, V);
    trainFloats += HELD[m.family].train * trainRows * perRow;
    sampleFloats += HELD[m.family].sample * sampleRows * perRow;
    largest = Math.max(largest, trainRows * T * Math.max(4 * m.dModel, V, m.family === 'transformer' ? m.heads * T : 0));
  }
  const weightBytes = FLOAT * weightFloats;
  // Training and sampling (or evaluation) do not overlap: the peak is the larger of the two.
  const activationBytes = FLOAT * Math.max(trainFloats, sampleFloats) + FIXED_BYTES;
  return {
    models: spec.members.length + trained.length,
    maxParams: Math.max(...spec.members.map(params)),
    weightBytes,
    activationBytes,
    totalBytes: weightBytes + activationBytes,
    largestTensorBytes: FLOAT * largest,
  };
}

/** What a backend can hold: in all, and in one tensor (WebGPU's maxStorageBufferBindingSize). */
export interface MemoryLimits {
  backend: string;
  totalBytes: number;
  maxTensorBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * Default limits per backend. wasm32 memory cannot grow past 4 GiB and tfjs-wasm's heap shares it
 * with the module: 2 GiB is what a run can count on. WebGPU exposes no device-memory figure, only
 * per-buffer limits: 2 GiB in all is a budget most integrated GPUs meet, and the per-tensor limit
 * is WebGPU's default maxStorageBufferBindingSize (128 MiB) unless the adapter reports its own.
 * WebGL textures and the JS heap of the cpu backend: the same 2 GiB.
 */
export function defaultLimits(backend: string, maxStorageBufferBindingSize?: number): MemoryLimits {
  const maxTensorBytes = backend === 'webgpu' ? maxStorageBufferBindingSize ?? 128 * MiB : 1 * GiB;
  return { backend, totalBytes: 2 * GiB, maxTensorBytes };
}

function mb(bytes: number): string {
  return bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${Math.ceil(bytes / MiB)} MiB`;
}

/**
 * null when the run fits; otherwise one sentence: the estimate, the limit, and what to reduce
 * (the part of the estimate that dominates).
 */
export function checkMemory(spec: ExperimentSpec, limits: MemoryLimits, maxLen?: number): string | null {
  const e = estimateMemory(spec, maxLen);
  const reduce =
    e.activationBytes >= e.weightBytes
      ? 'lower prompts per step or group size, or use narrower or fewer members or arms'
      : 'use narrower or shallower members, or fewer members or arms';
  if (e.totalBytes > limits.totalBytes) {
    return `This run needs about ${mb(e.totalBytes)} on ${limits.backend} (weights ${mb(e.weightBytes)}, activations ${mb(e.activationBytes)}), more than the ${mb(limits.totalBytes)} it can count on: ${reduce}.`;
  }
  if (e.largestTensorBytes > limits.maxTensorBytes) {
    return `One tensor of this run would take about ${mb(e.largestTensorBytes)}, more than ${limits.backend} allows in one buffer (${mb(limits.maxTensorBytes)}): lower prompts per step or group size.`;
  }
  return null;
}
