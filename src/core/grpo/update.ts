/**
 * One GRPO optimisation step on a rollout batch: gradients of the loss (grpo/loss.ts) over the
 * policy's variables, global-norm clipping, Adam.
 *
 * With updatesPerBatch = mu > 1 the same batch is reused mu times (TRL's `num_iterations`); pi_old
 * stays fixed at the rollout policy, so rho drifts from 1 and the clip engages. pi_ref log-probs are
 * computed once per batch, outside the gradient tape.
 *
 * No readback happens until the end, and then only one: `grpoUpdate` awaits a single data() of a
 * small [mu, 7] stats tensor (dataSync loses the WebGPU device, docs/TFJS-AND-BROWSER.md). `grpoUpdateOnDevice`
 * skips even that, for a runner that wants to read several members' stats at once.
 *
 * The stats carry what a numerical blow-up needs to be caught at its step with no readback of its
 * own (docs/RELIABILITY.md, "Numerical blow-ups"): each update's loss and gradient norm, and the
 * sum of each model's weights after the update (`weightSum`), which is finite exactly when every
 * weight is (nonfinite.ts reads them).
 */
import * as tf from '@tensorflow/tfjs';
import type { Policy } from '../models/policy';
import type { PolicyStack } from '../models/policy';
import { asStack } from '../models/index';
import { type GrpoBatch, type GrpoLossOptions, type GrpoStackBatch, grpoTermsStack, liftBatch, stackTokenLogProbs } from './loss';

export interface GrpoUpdateOptions extends GrpoLossOptions {
  /** Clip the global gradient norm to this (torch.nn.utils.clip_grad_norm_ semantics); 0 = off. */
  maxGradNorm: number;
  /** Optimiser steps per rollout batch (>= 1). */
  updatesPerBatch: number;
}

/**
 * What the update needs of an optimiser: a tf.train optimiser (tf.AdamOptimizer, ...) or anything
 * with the same applyGradients, such as the project's own Adam (src/core/adam.ts). The optimiser
 * must not dispose the gradients: grpoUpdate does.
 */
export type GradientApplier = tf.Optimizer | { applyGradients(grads: tf.NamedTensorMap): void };

/** Columns of the per-update stats tensor. */
export const UPDATE_STAT_NAMES = ['loss', 'policyLoss', 'kl', 'clipFraction', 'entropy', 'gradNorm', 'weightSum'] as const;

export interface GrpoUpdateStats {
  /** Loss before each optimiser step, one per update. */
  losses: number[];
  /** Means over the updates of this batch. */
  loss: number;
  policyLoss: number;
  /** Mean k3 KL to the reference per completion token; null when beta = 0. */
  kl: number | null;
  clipFraction: number;
  entropy: number;
  /** Global gradient norm before clipping. */
  gradNorm: number;
  /** Per update, in order: the gradient norm before clipping, and the sum of all weights after the step. */
  gradNorms: number[];
  weightSums: number[];
}

/** Stats still on device: [updatesPerBatch, 7] float32, columns UPDATE_STAT_NAMES. Read with readUpdateStats. */
export interface DeviceUpdateStats {
  stats: tf.Tensor2D;
  klComputed: boolean;
}

/**
 * tf.addN, in groups a WebGPU shader can bind: one reads at most 8 storage buffers (WebGPU's
 * default maxStorageBuffersPerShaderStage, which the lab's device keeps), its output one of them,
 * and tfjs-webgpu's AddN does not split its inputs. Unsplit, a transformer member's 38 variables
 * (39 buffers with the output) made an invalid pipeline, and the command buffer it was in was
 * dropped whole with only a validation message (seen in Node on Dawn; docs/BENCHMARKS.md, "WebGPU
 * on a real GPU"). Elsewhere one AddN, as before.
 */
export function addNBound(xs: tf.Tensor[], limit = tf.getBackend() === 'webgpu' ? 7 : Infinity): tf.Tensor {
  return tf.tidy(() => {
    let level = xs;
    while (level.length > limit) {
      const next: tf.Tensor[] = [];
      for (let i = 0; i < level.length; i += limit) {
        const group = level.slice(i, i + limit);
        next.push(group.length === 1 ? group[0] : tf.addN(group));
      }
      level = next;
    }
    return tf.addN(level);
  });
}

/**
 * Each model's gradient L2 norm: [K]. Model k's gradients are row k of every stacked gradient;
 * with K = 1 the whole tensor (so unstacked test policies work too).
 */
function perModelNorm(grads: tf.Tensor[], K: number): tf.Tensor1D {
  return tf.tidy(() => {
    const sq = grads.map((g) => (K === 1 ? tf.reshape(tf.sum(tf.square(g)), [1]) : tf.sum(tf.square(g), g.shape.map((_, i) => i).slice(1))));
    return tf.sqrt(addNBound(sq)) as tf.Tensor1D;
  });
}

/**
 * Each model's sum of all its weights: [K]. Finite exactly when every weight is finite (NaN for a
 * NaN or for +Infinity next to -Infinity, else the infinity's sign); a float32 sum of finite
 * weights could only overflow with weights near 1e38 / their count, far past any blow-up that
 * the loss and gradient norm catch first. The cheapest reduction that sees every weight: one Sum
 * per variable and one AddN (a finite flag, isFinite + all, would be two kernels per variable).
 */
export function perModelWeightSum(variables: tf.Tensor[], K: number): tf.Tensor1D {
  return tf.tidy(() => {
    const sums = variables.map((v) => (K === 1 ? tf.sum(v) : tf.sum(v, v.shape.map((_, i) => i).slice(1))));
    const total = sums.length === 1 ? sums[0] : addNBound(sums);
    return (K === 1 ? tf.reshape(total, [1]) : total) as tf.Tensor1D;
  });
}

/** Stats still on device: [K, updatesPerBatch, 7] float32, columns UPDATE_STAT_NAMES. */
export interface DeviceStackUpdateStats {
  stats: tf.Tensor3D;
  klComputed: boolean;
}

/**
 * GRPO update(s) of K stacked models on their own rollout batches, as one loss, one backward
 * pass and one optimiser step: the loss is the sum of the models' losses, and since model k's
 * loss depends on model k's weights only, each model gets exactly its own gradient. Clipping is
 * per model (each model's own global norm), as if it trained alone; Adam is elementwise.
 */
export function grpoUpdateStackOnDevice(
  stack: PolicyStack,
  optimizer: GradientApplier,
  batch: GrpoStackBatch,
  opts: GrpoUpdateOptions,
  refStack?: PolicyStack,
): DeviceStackUpdateStats {
  const mu = opts.updatesPerBatch;
  if (!Number.isInteger(mu) || mu < 1) throw new RangeError(`updatesPerBatch must be an integer >= 1, got ${mu}`);
  if (opts.maxGradNorm < 0) throw new RangeError('maxGradNorm must be >= 0');
  const klComputed = opts.beta > 0;
  if (klComputed && !batch.refLogProbs && !refStack) throw new Error('beta > 0 needs refPolicy or batch.refLogProbs');
  const K = stack.size;
  const from = batch.from ?? 0;
  const logits = (t: tf.Tensor3D, f?: number) => stack.logits(t, f);

  // Tensors made here for the batch (not the caller's): disposed at the end.
  const owned: tf.Tensor[] = [];
  const b: GrpoStackBatch = { ...batch };
  if (klComputed && !b.refLogProbs) {
    b.refLogProbs = stackTokenLogProbs((t, f) => refStack!.logits(t, f), b.tokens, opts.temperature, from);
    owned.push(b.refLogProbs);
  }
  if (mu > 1 && !b.oldLogProbs) {
    // pi_old = the policy before the first update, fixed for all mu updates.
    b.oldLogProbs = stackTokenLogProbs(logits, b.tokens, opts.temperature, from);
    owned.push(b.oldLogProbs);
  }

  const rows: tf.Tensor2D[] = [];
  try {
    for (let k = 0; k < mu; k++) {
      const kept: { diag?: tf.Tensor2D } = {};
      const { value, grads } = tf.variableGrads(() => {
        const t = grpoTermsStack(logits, b, opts);
        const kl = t.kl ?? tf.zeros([K]);
        // keep: variableGrads runs f inside a tidy that would otherwise dispose the diagnostics.
        kept.diag = tf.keep(tf.stack([t.loss, t.policyLoss, kl, t.clipFraction, t.entropy], 1) as tf.Tensor2D); // [K, 5]
        return tf.sum(t.loss) as tf.Scalar;
      }, stack.variables);

      const named: tf.NamedTensorMap = {};
      const list: tf.Tensor[] = [];
      for (const [name, g] of Object.entries(grads)) {
        if (g) {
          named[name] = g;
          list.push(g);
        }
      }
      const norm = perModelNorm(list, K); // [K]
      if (opts.maxGradNorm > 0) {
        // torch's clip_grad_norm_, per model: scale by max_norm / (norm + 1e-6) when that is below 1.
        const clipped = tf.tidy(() => {
          const coef = tf.minimum(tf.div(opts.maxGradNorm, tf.add(norm, 1e-6)), 1);
          const out: tf.NamedTensorMap = {};
          for (const [name, g] of Object.entries(named)) {
            out[name] = tf.mul(g, K === 1 ? tf.reshape(coef, []) : tf.reshape(coef, [K, ...g.shape.slice(1).map(() => 1)]));
          }
          return out;
        });
        optimizer.applyGradients(clipped);
        tf.dispose(clipped);
      } else {
        optimizer.applyGradients(named);
      }
      // After the step: every weight of each model, folded into the same stats row (no readback of its own).
      const weights = perModelWeightSum(stack.variables, K); // [K]
      rows.push(tf.tidy(() => tf.concat([kept.diag!, tf.reshape(norm, [K, 1]), tf.reshape(weights, [K, 1])], 1)) as tf.Tensor2D);
      tf.dispose([value, norm, weights, kept.diag!, ...list]);
    }
    return { stats: tf.stack(rows, 1) as tf.Tensor3D, klComputed };
  } finally {
    tf.dispose([...rows, ...owned]);
  }
}

/** One readback of every model's stats; disposes them. */
export async function readStackUpdateStats({ stats, klComputed }: DeviceStackUpdateStats): Promise<GrpoUpdateStats[]> {
  const [K, mu, C] = stats.shape;
  const v = await stats.data();
  stats.dispose();
  return Array.from({ length: K }, (_, k) => {
    const at = (u: number, j: number) => v[(k * mu + u) * C + j];
    const col = (j: number) => {
      let s = 0;
      for (let u = 0; u < mu; u++) s += at(u, j);
      return s / mu;
    };
    return {
      losses: Array.from({ length: mu }, (_, u) => at(u, 0)),
      loss: col(0),
      policyLoss: col(1),
      kl: klComputed ? col(2) : null,
      clipFraction: col(3),
      entropy: col(4),
      gradNorm: col(5),
      gradNorms: Array.from({ length: mu }, (_, u) => at(u, 5)),
      weightSums: Array.from({ length: mu }, (_, u) => at(u, 6)),
    };
  });
}

/** Runs the updates of one policy and leaves the stats [mu, 7] on device. The caller disposes `stats` (readUpdateStats does). */
export function grpoUpdateOnDevice(
  policy: Policy,
  optimizer: GradientApplier,
  batch: GrpoBatch,
  opts: GrpoUpdateOptions,
  refPolicy?: Policy,
): DeviceUpdateStats {
  // One model is a stack of one.
  const lifted = liftBatch(batch);
  try {
    const out = grpoUpdateStackOnDevice(asStack(policy), optimizer, lifted, opts, refPolicy ? asStack(refPolicy) : undefined);
    const [, mu, C] = out.stats.shape;
    const stats = tf.reshape(out.stats, [mu, C]) as tf.Tensor2D;
    out.stats.dispose();
    return { stats, klComputed: out.klComputed };
  } finally {
    tf.dispose(Object.values(lifted).filter((t): t is tf.Tensor => t !== undefined));
  }
}

/** One readback of the stats; disposes them. */
export async function readUpdateStats({ stats, klComputed }: DeviceUpdateStats): Promise<GrpoUpdateStats> {
  const [mu, C] = stats.shape;
  const [one] = await readStackUpdateStats({ stats: tf.reshape(stats, [1, mu, C]) as tf.Tensor3D, klComputed });
  stats.dispose();
  return one;
}

/** GRPO update(s) on one rollout batch, then one readback of the stats. */
export async function grpoUpdate(
  policy: Policy,
  optimizer: GradientApplier,
  batch: GrpoBatch,
  opts: GrpoUpdateOptions,
  refPolicy?: Policy,
): Promise<GrpoUpdateStats> {
  return readUpdateStats(grpoUpdateOnDevice(policy, optimizer, batch, opts, refPolicy));
}
