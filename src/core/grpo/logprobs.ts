/**
 * Per-token quantities from a policy's logits: the log-probability of the token actually taken,
 * the entropy of the next-token distribution, and Intuitor's self-certainty.
 *
 * Alignment: for tokens [N, T], logits[:, t] predicts tokens[:, t + 1], so every per-token array
 * here is [N, T - 1] and lines up with the `completionMask` [N, T - 1] of grpo/loss.ts (1 where the
 * NEXT token is a completion token, EOS included).
 *
 * Temperature: log-probs are taken from logits / temperature, as TRL does
 * (huggingface/trl grpo_trainer.py `_get_per_token_logps_and_entropies`: `logits /= self.temperature`),
 * so that pi_theta is the distribution the rollouts were sampled from.
 *
 * Ops: `logSoftmax` then a `oneHot` pick and `sum`. No `gather`: its gradient needs
 * UnsortedSegmentSum, which the wasm backend lacks (tfjs #8082, docs/TFJS-AND-BROWSER.md).
 */
import * as tf from '@tensorflow/tfjs';
import type { Policy } from '../models/policy';

/** logits[:, :-1] / temperature: the [N, T - 1, V] next-token logits of every predicted position. */
export function predictionLogits(logits: tf.Tensor3D, temperature = 1): tf.Tensor3D {
  if (!(temperature > 0)) throw new RangeError(`temperature must be > 0, got ${temperature}`);
  return tf.tidy(() => {
    const [N, T, V] = logits.shape;
    const z = tf.slice(logits, [0, 0, 0], [N, T - 1, V]);
    return temperature === 1 ? z : tf.div(z, temperature);
  });
}

/** log p(tokens[:, t + 1]) from prediction logits [N, T - 1, V] (already divided by the temperature). Returns [N, T - 1]. */
export function pickLogProbs(predLogits: tf.Tensor3D, tokens: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const [N, L, V] = predLogits.shape;
    if (tokens.shape[0] !== N || tokens.shape[1] !== L + 1) {
      throw new RangeError(`tokens [${tokens.shape}] do not match prediction logits [${predLogits.shape}]`);
    }
    const next = tf.slice(tokens, [0, 1], [N, L]); // [N, T-1] int32
    const logp = tf.logSoftmax(predLogits); // [N, T-1, V]
    return tf.sum(tf.mul(logp, tf.oneHot(next, V).toFloat()), -1) as tf.Tensor2D;
  });
}

/** Per-token log pi(token) under `policy` at `temperature`: [N, T - 1]. */
export function tokenLogProbs(policy: Policy, tokens: tf.Tensor2D, temperature = 1): tf.Tensor2D {
  return tf.tidy(() => pickLogProbs(predictionLogits(policy.logits(tokens), temperature), tokens));
}

/** Entropy of softmax(logits) at every position: -sum_v p_v log p_v. logits [N, L, V] -> [N, L]. Divide by the temperature first if needed. */
export function tokenEntropy(logits: tf.Tensor3D): tf.Tensor2D {
  return tf.tidy(() => {
    const logp = tf.logSoftmax(logits);
    return tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1)) as tf.Tensor2D;
  });
}

/**
 * Intuitor's self-certainty at every position (arXiv 2505.19590 eq. 2): KL(U || p) =
 * -log V - mean_v log p_v. Zero for the uniform distribution, large when p is peaked.
 * logits [N, L, V] -> [N, L].
 */
export function tokenCertainty(logits: tf.Tensor3D): tf.Tensor2D {
  return tf.tidy(() => {
    const V = logits.shape[2];
    return tf.sub(tf.neg(tf.mean(tf.logSoftmax(logits), -1)), Math.log(V)) as tf.Tensor2D;
  });
}

/** Mean of values [N, L] over the positions where mask [N, L] is 1, per row: [N]. A row with an empty mask gives 0. */
export function maskedRowMean(values: tf.Tensor2D, mask: tf.Tensor2D): tf.Tensor1D {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(values, mask), 1), tf.maximum(tf.sum(mask, 1), 1)) as tf.Tensor1D);
}

/** Mean of values over all masked positions (the token-level mean TRL logs); 0 for an empty mask. */
export function maskedMean(values: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(values, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
}

/**
 * Per-completion confidence for the intrinsic reward schemes, on device: the mean token entropy
 * (RENT's reward is its negative) and the mean self-certainty (Intuitor) over each completion's
 * tokens. tokens int32 [N, T], completionMask float32 [N, T - 1]; both results are [N].
 * No gradient is needed: call outside the training tape and read back with the rollout batch.
 */
export function completionConfidence(
  policy: Policy,
  tokens: tf.Tensor2D,
  completionMask: tf.Tensor2D,
  temperature = 1,
): { entropy: tf.Tensor1D; certainty: tf.Tensor1D } {
  return tf.tidy(() => {
    const z = predictionLogits(policy.logits(tokens), temperature);
    return {
      entropy: maskedRowMean(tokenEntropy(z), completionMask),
      certainty: maskedRowMean(tokenCertainty(z), completionMask),
    };
  });
}
