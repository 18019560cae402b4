/**
 * The GRPO loss, as TRL implements it (huggingface/trl trl/trainer/grpo_trainer.py `_compute_loss`).
 *
 * For completion i and token t, with rho = pi_theta / pi_old and the group-relative advantage A_i:
 *
 *   l_{i,t} = -min(rho A_i, clip(rho, 1 - eps, 1 + eps) A_i) + beta * KL_{i,t}
 *   KL_{i,t} = pi_ref / pi_theta - log(pi_ref / pi_theta) - 1          (the k3 estimator: >= 0)
 *
 * and the loss is l summed over completion tokens and normalised by one of
 *   grpo:    1/N sum_i 1/|o_i| sum_t          (mean over sequences of per-sequence token means)
 *   bnpo:    1/sum_i |o_i| sum_i sum_t        (mean over all completion tokens in the batch)
 *   dr_grpo: 1/(N L_max) sum_i sum_t          (Dr. GRPO, arXiv 2503.20783: a constant, no length bias)
 * where N = B * G sequences, |o_i| the completion length (EOS included) and L_max the completion
 * length cap. TRL clamps |o_i| and sum |o_i| to at least 1; so do we. As in TRL, beta * KL is added
 * per token before normalising, so "loss = -norm(surrogate) + beta * norm(KL)" with the same norm.
 *
 * With one update per rollout batch pi_old = pi_theta, so rho = 1 in value but its gradient is
 * A * grad log pi (TRL: `old_per_token_logps = per_token_logps.detach()`): omit `oldLogProbs` for that.
 */
import * as tf from '@tensorflow/tfjs';
import type { Policy } from '../models/policy';
import { asStack } from '../models/index';
import { pickLogProbs, predictionLogits, tokenEntropy } from './logprobs';

export type LossNormalisation = 'grpo' | 'bnpo' | 'dr_grpo';

export interface GrpoBatch {
  /** int32 [N, T]: BOS + prompt + completion, PAD after EOS. N = B * G, prompt-major. */
  tokens: tf.Tensor2D;
  /** float32 [N, T - 1]: 1 where the NEXT token (tokens[:, t + 1]) is a completion token, EOS included. */
  completionMask: tf.Tensor2D;
  /** float32 [N]: one advantage per completion (grpo/advantages.ts). */
  advantages: tf.Tensor1D;
  /**
   * float32 [N, T - 1]: log pi_old of each next token (the rollout policy, at the same temperature).
   * Omit it for one update per batch: rho is then exactly 1 with the current policy's gradient.
   */
  oldLogProbs?: tf.Tensor2D;
  /** float32 [N, T - 1]: log pi_ref of each next token, if already computed; otherwise taken from refPolicy when beta > 0. */
  refLogProbs?: tf.Tensor2D;
}

export interface GrpoLossOptions {
  /** Sampling temperature; log-probs come from logits / temperature. */
  temperature: number;
  /** PPO clip range epsilon (TRL default 0.2). */
  clipEps: number;
  /** KL coefficient; 0 skips the reference policy entirely. */
  beta: number;
  normalisation: LossNormalisation;
  /** L_max: the completion length cap (tokens, EOS included); used by dr_grpo only. */
  maxCompletionLength: number;
}

export const DEFAULT_LOSS_OPTIONS: GrpoLossOptions = {
  temperature: 1,
  clipEps: 0.2,
  beta: 0,
  normalisation: 'grpo',
  maxCompletionLength: 0,
};

/** The loss and its diagnostics, all on device. The caller owns (and disposes) every tensor. */
export interface GrpoTerms {
  /** What is minimised. */
  loss: tf.Scalar;
  /** The clipped-surrogate part alone (normalised as the loss). */
  policyLoss: tf.Scalar;
  /** Mean k3 KL per completion token; null when beta = 0 (not computed). */
  kl: tf.Scalar | null;
  /** Fraction of completion tokens whose ratio is clipped in the direction that stops the gradient (TRL's `clip_ratio/region_mean`). */
  clipFraction: tf.Scalar;
  /** Mean next-token entropy (at the temperature) over completion tokens. */
  entropy: tf.Scalar;
}

/** rho's denominator when pi_old = pi_theta: the same value, no gradient (torch's .detach()). */
const stopGradient = tf.customGrad((...inputs: (tf.Tensor | tf.GradSaveFunc)[]) => ({
  value: tf.clone(inputs[0] as tf.Tensor),
  gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy),
})) as (x: tf.Tensor2D) => tf.Tensor2D;

/** Sum of x [N, L] over masked tokens, normalised as `kind` says. */
export function normaliseTokenSum(
  x: tf.Tensor2D,
  mask: tf.Tensor2D,
  kind: LossNormalisation,
  maxCompletionLength = 0,
): tf.Scalar {
  return tf.tidy(() => {
    const masked = tf.mul(x, mask);
    switch (kind) {
      case 'grpo':
        return tf.mean(tf.div(tf.sum(masked, 1), tf.maximum(tf.sum(mask, 1), 1))) as tf.Scalar;
      case 'bnpo':
        return tf.div(tf.sum(masked), tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
      case 'dr_grpo':
        if (!(maxCompletionLength > 0)) throw new RangeError('dr_grpo needs maxCompletionLength > 0');
        return tf.div(tf.sum(masked), x.shape[0] * maxCompletionLength) as tf.Scalar;
    }
  });
}

/**
 * The same normalisation for K stacked models at once: x, mask [K, N, L] -> [K], model k's loss
 * from model k's rows only.
 */
export function normaliseTokenSumK(x: tf.Tensor3D, mask: tf.Tensor3D, kind: LossNormalisation, maxCompletionLength = 0): tf.Tensor1D {
  return tf.tidy(() => {
    const masked = tf.mul(x, mask);
    switch (kind) {
      case 'grpo':
        return tf.mean(tf.div(tf.sum(masked, 2), tf.maximum(tf.sum(mask, 2), 1)), 1) as tf.Tensor1D;
      case 'bnpo':
        return tf.div(tf.sum(masked, [1, 2]), tf.maximum(tf.sum(mask, [1, 2]), 1)) as tf.Tensor1D;
      case 'dr_grpo':
        if (!(maxCompletionLength > 0)) throw new RangeError('dr_grpo needs maxCompletionLength > 0');
        return tf.div(tf.sum(masked, [1, 2]), x.shape[1] * maxCompletionLength) as tf.Tensor1D;
    }
  });
}

/** Mean of x over each model's masked tokens: [K, N, L] -> [K]; 0 for an empty mask. */
function maskedMeanK(x: tf.Tensor, mask: tf.Tensor): tf.Tensor1D {
  return tf.div(tf.sum(tf.mul(x, mask), [1, 2]), tf.maximum(tf.sum(mask, [1, 2]), 1)) as tf.Tensor1D;
}

/** A GRPO batch of K stacked models: every tensor has a leading model axis. */
export interface GrpoStackBatch {
  /** int32 [K, N, T]. */
  tokens: tf.Tensor3D;
  /** float32 [K, N, T - 1]. */
  completionMask: tf.Tensor3D;
  /** float32 [K, N]. */
  advantages: tf.Tensor2D;
  oldLogProbs?: tf.Tensor3D;
  refLogProbs?: tf.Tensor3D;
  /**
   * The first position whose next token can be a completion token (the prompt length - 1). The
   * mask is 0 before it, so the loss skips those positions' logits entirely (the MLP then computes
   * only completion positions). Default 0. `oldLogProbs` / `refLogProbs` are [K, N, T - 1 - from].
   */
  from?: number;
}

/** Each model's terms, [K] each (model k's loss depends on model k's weights only). */
export interface GrpoStackTerms {
  loss: tf.Tensor1D;
  policyLoss: tf.Tensor1D;
  kl: tf.Tensor1D | null;
  clipFraction: tf.Tensor1D;
  entropy: tf.Tensor1D;
}

type StackLogits = (tokens: tf.Tensor3D, from?: number) => tf.Tensor4D;

/**
 * Next-token prediction logits of positions from..T-2 at `temperature`, [K*N, T-1-from, V], and
 * the tokens from position `from` on, [K*N, T-from] (pickLogProbs' alignment).
 */
function predictions(logits: StackLogits, tokens: tf.Tensor3D, from: number, temperature: number) {
  const [K, N, T] = tokens.shape;
  const z = predictionLogits(tf.reshape(logits(tokens, from), [K * N, T - from, -1]) as tf.Tensor3D, temperature);
  const next = tf.reshape(tf.slice(tokens, [0, 0, from], [K, N, T - from]), [K * N, T - from]) as tf.Tensor2D;
  return { z, next };
}

/** Per-token log pi of K stacked models at `temperature`: tokens [K, N, T] -> [K, N, T - 1 - from]. */
export function stackTokenLogProbs(logits: StackLogits, tokens: tf.Tensor3D, temperature: number, from = 0): tf.Tensor3D {
  return tf.tidy(() => {
    const [K, N, T] = tokens.shape;
    const { z, next } = predictions(logits, tokens, from, temperature);
    return tf.reshape(pickLogProbs(z, next), [K, N, T - 1 - from]) as tf.Tensor3D;
  });
}

/**
 * The GRPO loss and diagnostics of K stacked models (the formulas above, per model). `logits`
 * maps tokens [K, N, T] to logits [K, N, T, V]. Safe inside tf.variableGrads.
 */
export function grpoTermsStack(logits: StackLogits, batch: GrpoStackBatch, opts: GrpoLossOptions, refLogits?: StackLogits): GrpoStackTerms {
  const { beta, clipEps, normalisation, maxCompletionLength, temperature } = opts;
  const [K, N, T] = batch.tokens.shape;
  const from = batch.from ?? 0;
  const Lp = T - 1 - from; // predicted positions kept
  if (batch.tokens.dtype !== 'int32') throw new TypeError('tokens must be int32');
  if (T < 2) throw new RangeError('tokens need at least 2 positions');
  if (!Number.isInteger(from) || from < 0 || from > T - 2) throw new RangeError(`from = ${from} is outside 0..${T - 2}`);
  const want = (name: string, t: tf.Tensor | undefined, L: number) => {
    if (t && (t.shape[0] !== K || t.shape[1] !== N || t.shape[2] !== L)) throw new RangeError(`${name} is [${t.shape}], want [${K},${N},${L}]`);
  };
  want('completionMask', batch.completionMask, T - 1);
  want('oldLogProbs', batch.oldLogProbs, Lp);
  want('refLogProbs', batch.refLogProbs, Lp);
  if (batch.advantages.shape[0] !== K || batch.advantages.shape[1] !== N) throw new RangeError(`advantages is [${batch.advantages.shape}], want [${K},${N}]`);
  if (beta > 0 && !batch.refLogProbs && !refLogits) throw new Error('beta > 0 needs refPolicy or batch.refLogProbs');

  const out = tf.tidy(() => {
    const mask = (from > 0 ? tf.slice(batch.completionMask, [0, 0, from], [K, N, Lp]) : batch.completionMask) as tf.Tensor3D;
    const { z, next } = predictions(logits, batch.tokens, from, temperature); // z [KN, Lp, V]
    const logp = tf.reshape(pickLogProbs(z, next), [K, N, Lp]) as tf.Tensor3D;
    const old = batch.oldLogProbs ?? (stopGradient(logp as unknown as tf.Tensor2D) as unknown as tf.Tensor3D);
    const rho = tf.exp(tf.sub(logp, old)); // [K, N, T-1]
    const A = tf.expandDims(batch.advantages, 2); // [K, N, 1]
    const unclipped = tf.mul(rho, A);
    const clipped = tf.mul(tf.clipByValue(rho, 1 - clipEps, 1 + clipEps), A);
    const surrogateLoss = tf.neg(tf.minimum(unclipped, clipped)) as tf.Tensor3D;
    const policyLoss = normaliseTokenSumK(surrogateLoss, mask, normalisation, maxCompletionLength);

    let loss = tf.clone(policyLoss);
    let kl: tf.Tensor1D | null = null;
    if (beta > 0) {
      const ref = batch.refLogProbs ?? stackTokenLogProbs(refLogits!, batch.tokens, temperature, from);
      const d = tf.sub(ref, logp); // log(pi_ref / pi_theta)
      const klTok = tf.sub(tf.sub(tf.exp(d), d), 1) as tf.Tensor3D;
      loss = tf.add(policyLoss, tf.mul(beta, normaliseTokenSumK(klTok, mask, normalisation, maxCompletionLength)));
      kl = maskedMeanK(klTok, mask);
    }
    const low = tf.logicalAnd(tf.less(rho, 1 - clipEps), tf.less(A, 0));
    const high = tf.logicalAnd(tf.greater(rho, 1 + clipEps), tf.greater(A, 0));
    const clipFraction = maskedMeanK(tf.logicalOr(low, high).toFloat(), mask);
    const entropy = maskedMeanK(tf.reshape(tokenEntropy(z), [K, N, Lp]), mask);
    const terms: Record<string, tf.Tensor1D> = { loss, policyLoss, clipFraction, entropy };
    if (kl) terms.kl = kl;
    return terms;
  });
  return { loss: out.loss, policyLoss: out.policyLoss, kl: out.kl ?? null, clipFraction: out.clipFraction, entropy: out.entropy };
}

function checkBatch(batch: GrpoBatch): void {
  const [N, T] = batch.tokens.shape;
  const want = `[${N},${T - 1}]`;
  const same = (t: tf.Tensor | undefined, name: string) => {
    if (t && (t.shape[0] !== N || t.shape[1] !== T - 1)) throw new RangeError(`${name} is [${t.shape}], want ${want}`);
  };
  if (batch.tokens.dtype !== 'int32') throw new TypeError('tokens must be int32');
  if (T < 2) throw new RangeError('tokens need at least 2 positions');
  same(batch.completionMask, 'completionMask');
  same(batch.oldLogProbs, 'oldLogProbs');
  same(batch.refLogProbs, 'refLogProbs');
  if (batch.advantages.shape[0] !== N) throw new RangeError(`advantages is [${batch.advantages.shape}], want [${N}]`);
}

/**
 * The GRPO loss and its diagnostics for one batch. Safe inside tf.variableGrads (every op here has
 * a gradient on cpu, wasm, webgl and webgpu). refPolicy is needed only when beta > 0 and the batch
 * carries no refLogProbs.
 */
/** One model's batch as a stack-of-one batch (new tensors with a leading axis of 1; the caller disposes them). */
export function liftBatch(batch: GrpoBatch): GrpoStackBatch {
  const lift = <R extends tf.Tensor>(t: tf.Tensor | undefined) => (t ? (tf.expandDims(t, 0) as R) : undefined);
  return {
    tokens: lift<tf.Tensor3D>(batch.tokens)!,
    completionMask: lift<tf.Tensor3D>(batch.completionMask)!,
    advantages: lift<tf.Tensor2D>(batch.advantages)!,
    oldLogProbs: lift<tf.Tensor3D>(batch.oldLogProbs),
    refLogProbs: lift<tf.Tensor3D>(batch.refLogProbs),
  };
}

export function grpoTerms(policy: Policy, batch: GrpoBatch, opts: GrpoLossOptions, refPolicy?: Policy): GrpoTerms {
  checkBatch(batch);
  if (opts.beta > 0 && !batch.refLogProbs && !refPolicy) throw new Error('beta > 0 needs refPolicy or batch.refLogProbs');
  // One model is a stack of one: every tensor gets a leading model axis of 1, and loses it after.
  const logitsOf = (p: Policy): StackLogits => (tokens, from) => asStack(p).logits(tokens, from);
  const out = tf.tidy(() => {
    const t = grpoTermsStack(
      logitsOf(policy),
      liftBatch(batch),
      opts,
      refPolicy ? logitsOf(refPolicy) : undefined,
    );
    const scalar = (x: tf.Tensor1D) => tf.reshape(x, []) as tf.Scalar;
    const terms: Record<string, tf.Scalar> = {
      loss: scalar(t.loss),
      policyLoss: scalar(t.policyLoss),
      clipFraction: scalar(t.clipFraction),
      entropy: scalar(t.entropy),
    };
    if (t.kl) terms.kl = scalar(t.kl);
    return terms;
  });
  return { loss: out.loss, policyLoss: out.policyLoss, kl: out.kl ?? null, clipFraction: out.clipFraction, entropy: out.entropy };
}

/** The GRPO loss alone (diagnostics computed and disposed). */
export function grpoLoss(policy: Policy, batch: GrpoBatch, opts: GrpoLossOptions, refPolicy?: Policy): tf.Scalar {
  const t = grpoTerms(policy, batch, opts, refPolicy);
  tf.dispose([t.policyLoss, t.kl, t.clipFraction, t.entropy].filter((x): x is tf.Scalar => x !== null));
  return t.loss;
}
