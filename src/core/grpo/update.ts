/**
 * One GRPO optimisation step on a rollout batch: gradients of the loss (grpo/loss.ts) over the
 * policy's variables, global-norm clipping, Adam.
 *
 * With updatesPerBatch = mu > 1 the same batch is reused mu times (TRL's `num_iterations`); pi_old
 * stays fixed at the rollout policy, so rho drifts from 1 and the clip engages. pi_ref log-probs are
 * computed once per batch, outside the gradient tape.
 *
 * No readback happens until the end, and then only one: `grpoUpdate` awaits a single data() of a
 * small [mu, 6] stats tensor (dataSync loses the WebGPU device, PLATFORM.md). `grpoUpdateOnDevice`
 * skips even that, for a runner that wants to read several members' stats at once.
 */
import * as tf from '@tensorflow/tfjs';
import type { Policy } from '../models/policy';
import { tokenLogProbs } from './logprobs';
import { type GrpoBatch, type GrpoLossOptions, grpoTerms } from './loss';

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
export const UPDATE_STAT_NAMES = ['loss', 'policyLoss', 'kl', 'clipFraction', 'entropy', 'gradNorm'] as const;

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
}

/** Stats still on device: [updatesPerBatch, 6] float32, columns UPDATE_STAT_NAMES. Read with readUpdateStats. */
export interface DeviceUpdateStats {
  stats: tf.Tensor2D;
  klComputed: boolean;
}

/** Global L2 norm of a gradient map (a scalar tensor). */
function globalNorm(grads: tf.Tensor[]): tf.Scalar {
  return tf.tidy(() => tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g))))) as tf.Scalar);
}

/** Runs the updates and leaves the stats on device. The caller disposes `stats` (readUpdateStats does). */
export function grpoUpdateOnDevice(
  policy: Policy,
  optimizer: GradientApplier,
  batch: GrpoBatch,
  opts: GrpoUpdateOptions,
  refPolicy?: Policy,
): DeviceUpdateStats {
  const mu = opts.updatesPerBatch;
  if (!Number.isInteger(mu) || mu < 1) throw new RangeError(`updatesPerBatch must be an integer >= 1, got ${mu}`);
  if (opts.maxGradNorm < 0) throw new RangeError('maxGradNorm must be >= 0');
  const klComputed = opts.beta > 0;
  if (klComputed && !batch.refLogProbs && !refPolicy) throw new Error('beta > 0 needs refPolicy or batch.refLogProbs');

  // Tensors made here for the batch (not the caller's): disposed at the end.
  const owned: tf.Tensor[] = [];
  const b: GrpoBatch = { ...batch };
  if (klComputed && !b.refLogProbs) {
    b.refLogProbs = tokenLogProbs(refPolicy!, b.tokens, opts.temperature);
    owned.push(b.refLogProbs);
  }
  if (mu > 1 && !b.oldLogProbs) {
    // pi_old = the policy before the first update, fixed for all mu updates.
    b.oldLogProbs = tokenLogProbs(policy, b.tokens, opts.temperature);
    owned.push(b.oldLogProbs);
  }

  const rows: tf.Tensor1D[] = [];
  try {
    for (let k = 0; k < mu; k++) {
      const kept: { diag?: tf.Tensor1D } = {};
      const { value, grads } = tf.variableGrads(() => {
        const t = grpoTerms(policy, b, opts);
        const kl = t.kl ?? tf.scalar(0);
        // keep: variableGrads runs f inside a tidy that would otherwise dispose the diagnostics.
        kept.diag = tf.keep(tf.stack([t.loss, t.policyLoss, kl, t.clipFraction, t.entropy]) as tf.Tensor1D);
        return t.loss;
      }, policy.variables);

      const named: tf.NamedTensorMap = {};
      const list: tf.Tensor[] = [];
      for (const [name, g] of Object.entries(grads)) {
        if (g) {
          named[name] = g;
          list.push(g);
        }
      }
      const norm = globalNorm(list);
      if (opts.maxGradNorm > 0) {
        // torch's clip_grad_norm_: scale by max_norm / (norm + 1e-6) when that is below 1.
        const clipped = tf.tidy(() => {
          const coef = tf.minimum(tf.div(opts.maxGradNorm, tf.add(norm, 1e-6)), 1);
          const out: tf.NamedTensorMap = {};
          for (const [name, g] of Object.entries(named)) out[name] = tf.mul(g, coef);
          return out;
        });
        optimizer.applyGradients(clipped);
        tf.dispose(clipped);
      } else {
        optimizer.applyGradients(named);
      }
      rows.push(tf.tidy(() => tf.concat([kept.diag!, tf.reshape(norm, [1])])) as tf.Tensor1D);
      tf.dispose([value, norm, kept.diag!, ...list]);
    }
    return { stats: tf.stack(rows) as tf.Tensor2D, klComputed };
  } finally {
    tf.dispose([...rows, ...owned]);
  }
}

/** One readback of the stats; disposes them. */
export async function readUpdateStats({ stats, klComputed }: DeviceUpdateStats): Promise<GrpoUpdateStats> {
  const [mu, K] = stats.shape;
  const v = await stats.data();
  stats.dispose();
  const col = (j: number) => {
    let s = 0;
    for (let k = 0; k < mu; k++) s += v[k * K + j];
    return s / mu;
  };
  const losses: number[] = [];
  for (let k = 0; k < mu; k++) losses.push(v[k * K]);
  return {
    losses,
    loss: col(0),
    policyLoss: col(1),
    kl: klComputed ? col(2) : null,
    clipFraction: col(3),
    entropy: col(4),
    gradNorm: col(5),
  };
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
