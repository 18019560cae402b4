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
import { maskedMean, pickLogProbs, predictionLogits, tokenEntropy, tokenLogProbs } from './logprobs';

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
export function grpoTerms(policy: Policy, batch: GrpoBatch, opts: GrpoLossOptions, refPolicy?: Policy): GrpoTerms {
  checkBatch(batch);
  const { beta, clipEps, normalisation, maxCompletionLength, temperature } = opts;
  if (beta > 0 && !batch.refLogProbs && !refPolicy) throw new Error('beta > 0 needs refPolicy or batch.refLogProbs');
  const mask = batch.completionMask;

  const out = tf.tidy(() => {
    const z = predictionLogits(policy.logits(batch.tokens), temperature); // [N, T-1, V]
    const logp = pickLogProbs(z, batch.tokens); // [N, T-1]
    const old = batch.oldLogProbs ?? stopGradient(logp);
    const rho = tf.exp(tf.sub(logp, old)); // [N, T-1]
    const A = tf.expandDims(batch.advantages, 1); // [N, 1]
    const unclipped = tf.mul(rho, A);
    const clipped = tf.mul(tf.clipByValue(rho, 1 - clipEps, 1 + clipEps), A);
    const surrogateLoss = tf.neg(tf.minimum(unclipped, clipped)) as tf.Tensor2D;
    const policyLoss = normaliseTokenSum(surrogateLoss, mask, normalisation, maxCompletionLength);

    let loss = tf.clone(policyLoss); // a distinct tensor, so each term can be disposed on its own
    let kl: tf.Scalar | null = null;
    if (beta > 0) {
      const ref = batch.refLogProbs ?? tokenLogProbs(refPolicy!, batch.tokens, temperature);
      const d = tf.sub(ref, logp); // log(pi_ref / pi_theta)
      const klTok = tf.sub(tf.sub(tf.exp(d), d), 1) as tf.Tensor2D;
      loss = tf.add(policyLoss, tf.mul(beta, normaliseTokenSum(klTok, mask, normalisation, maxCompletionLength)));
      kl = maskedMean(klTok, mask);
    }

    // Clipped "in the region": ratio below 1 - eps with A < 0, or above 1 + eps with A > 0.
    const low = tf.logicalAnd(tf.less(rho, 1 - clipEps), tf.less(A, 0));
    const high = tf.logicalAnd(tf.greater(rho, 1 + clipEps), tf.greater(A, 0));
    const clipFraction = maskedMean(tf.logicalOr(low, high).toFloat(), mask);
    const entropy = maskedMean(tokenEntropy(z), mask);

    const terms: Record<string, tf.Scalar> = { loss, policyLoss, clipFraction, entropy };
    if (kl) terms.kl = kl;
    return terms;
  });
  return {
    loss: out.loss,
    policyLoss: out.policyLoss,
    kl: out.kl ?? null,
    clipFraction: out.clipFraction,
    entropy: out.entropy,
  };
}

/** The GRPO loss alone (diagnostics computed and disposed). */
export function grpoLoss(policy: Policy, batch: GrpoBatch, opts: GrpoLossOptions, refPolicy?: Policy): tf.Scalar {
  const t = grpoTerms(policy, batch, opts, refPolicy);
  tf.dispose([t.policyLoss, t.kl, t.clipFraction, t.entropy].filter((x): x is tf.Scalar => x !== null));
  return t.loss;
}
