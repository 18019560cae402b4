/**
 * Warm start: supervised next-token training on a small labeled set, so that the base policy is in
 * the regime where label-free RL is interesting (pass@1 moderate, maj@G above pass@1; docs/METHOD.md).
 *
 * Each labeled problem becomes one fixed-length sequence BOS + prompt + target completion + EOS,
 * padded to the model's maxLen; the loss is the mean cross-entropy over completion tokens only
 * (the prompt is given, not predicted). Whether a target uses the scratchpad is decided once per
 * problem (ScratchpadMode 'mixed' = a seeded coin), so a mixed warm start really contains both.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from './random';
import type { NamedWeight, Policy } from './models/policy';
import type { Problem, ScratchpadMode } from './tasks/types';
import { encodePrompt, encodeTarget, PAD_ID } from './tasks/tokenizer';
import { scratchpadFor, targetCompletion, type TaskCodec } from './tasks/index';

/** Built-in tasks' prompts and targets: the shared vocabulary, prompts of one length. */
const BASE_CODEC: TaskCodec = { prompt: (p) => encodePrompt(p), target: (c) => encodeTarget(c) };

export interface SupervisedBatchData {
  /** [N, T] int32 token sequences. */
  tokens: Int32Array;
  /** [N, T] 1 where position t is followed by a completion token (the loss is taken there). */
  lossMask: Float32Array;
  count: number;
  length: number;
}

/**
 * Encode labeled problems as padded sequences with a completion-only loss mask. `targets[i]`, where
 * given and not null, is the completion problem i imitates instead of its reference (the overlap
 * dial's inherited labels: experiment/overlapDial.ts); the scratchpad coin is drawn either way, so
 * the other problems' completions stay as they were.
 */
export function encodeSupervised(
  problems: Problem[],
  length: number,
  scratchpad: ScratchpadMode,
  rng: Rng,
  targets?: readonly (string | null)[],
  codec: TaskCodec = BASE_CODEC,
): SupervisedBatchData {
  const N = problems.length;
  const tokens = new Int32Array(N * length).fill(PAD_ID);
  const lossMask = new Float32Array(N * length);
  problems.forEach((p, i) => {
    const prompt = codec.prompt(p.prompt);
    const reference = targetCompletion(p, scratchpadFor(scratchpad, rng));
    const target = codec.target(targets?.[i] ?? reference);
    const seq = [...prompt, ...target];
    if (seq.length > length) throw new Error(`sequence of ${seq.length} tokens exceeds maxLen ${length}`);
    tokens.set(seq, i * length);
    // Position t predicts token t+1; completion tokens sit at prompt.length .. seq.length-1.
    for (let t = prompt.length - 1; t < seq.length - 1; t++) lossMask[i * length + t] = 1;
  });
  return { tokens, lossMask, count: N, length };
}

/** log p(token t+1 | tokens <= t) of each next token, teacher-forced: [N, T] (last position 0-padded). */
function nextTokenLogProbs(policy: Policy, tokens: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const [N, T] = tokens.shape;
    const logp = tf.logSoftmax(policy.logits(tokens)); // [N, T, V]
    // Targets are the tokens shifted left by one; the last position has no target (masks are 0).
    const next = tf.concat([tf.slice(tokens, [0, 1], [N, T - 1]), tf.fill([N, 1], PAD_ID, 'int32')], 1);
    return tf.sum(tf.mul(logp, tf.oneHot(next, policy.config.vocabSize)), 2) as tf.Tensor2D;
  });
}

/** Mean next-token cross-entropy over masked positions. tokens [N,T], mask [N,T]. */
export function supervisedLoss(policy: Policy, tokens: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => {
    const picked = nextTokenLogProbs(policy, tokens);
    return tf.div(tf.neg(tf.sum(tf.mul(picked, mask))), tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
  });
}

/**
 * Probability that sampling at temperature 1 reproduces each reference completion exactly,
 * averaged over the problems: exp(sum of the completion tokens' log-probs), teacher-forced.
 * It is a lower bound on the expected pass@1 (another completion can end in the right answer too),
 * deterministic and one forward pass, so the warm start can check it every step.
 */
export function referenceProbability(policy: Policy, tokens: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.exp(tf.sum(tf.mul(nextTokenLogProbs(policy, tokens), mask), 1))) as tf.Scalar);
}

/** The validation problems as one [N, T] batch on the device, with their completion-only masks. */
function uploadValidation(problems: Problem[], length: number, scratchpad: ScratchpadMode, rng: Rng, codec?: TaskCodec): { tokens: tf.Tensor2D; mask: tf.Tensor2D } {
  // The scratchpad coin of the validation set is its own stream, so it does not depend on the
  // training set (the warm start and `validationValue` draw the same completions).
  const v = encodeSupervised(problems, length, scratchpad, rng.child('validation-scratchpad'), undefined, codec);
  return { tokens: tf.tensor2d(v.tokens, [v.count, v.length], 'int32'), mask: tf.tensor2d(v.lossMask, [v.count, v.length], 'float32') };
}

/**
 * `referenceProbability` of `policy` on validation problems, as the warm start measures it with
 * the same `rng` (one forward pass): how a stored or untrained member stands against its target.
 */
export async function validationValue(policy: Policy, problems: Problem[], scratchpad: ScratchpadMode, rng: Rng, codec?: TaskCodec): Promise<number> {
  const v = uploadValidation(problems, policy.config.maxLen, scratchpad, rng, codec);
  try {
    const p = referenceProbability(policy, v.tokens, v.mask);
    const value = (await p.data())[0];
    p.dispose();
    return value;
  } finally {
    tf.dispose([v.tokens, v.mask]);
  }
}

/** Stop the warm start early once the held-back labeled problems reach a target. */
export interface WarmStartTarget {
  /** Labeled problems the member does not train on. */
  validation: Problem[];
  /** Stop at the first step whose `referenceProbability` on them is at least this. */
  value: number;
}

export interface WarmStartOptions {
  /** Steps, or the most steps when `target` is set. */
  steps: number;
  batchSize: number;
  learningRate: number;
  scratchpad: ScratchpadMode;
  /** Stream for the scratchpad coin and the minibatch order. */
  rng: Rng;
  /** Read the loss back every this many steps (a readback is a sync point; default 10). */
  reportEvery?: number;
  /** Called with progress; may be async (e.g. to evaluate and stop early by returning true). */
  onProgress?: (p: WarmStartProgress) => void | boolean | Promise<void | boolean>;
  target?: WarmStartTarget;
  /** Per problem: a completion to imitate instead of the reference (null: the reference). */
  targets?: readonly (string | null)[];
  /** Called after every update with the step number (the overlap dial snapshots the weights). */
  onStep?: (step: number) => void | Promise<void>;
  /** A custom task's prompts and targets (tasks/index.ts taskCodec); absent = built-in tasks'. */
  codec?: TaskCodec;
  /**
   * With a target: when it is missed, end with the weights of the best validation value instead of
   * the last (a custom task's warm start that finds its way: experiment/warmStartCohort.ts).
   * Each improvement reads the weights back once.
   */
  keepBest?: boolean;
}

export interface WarmStartProgress {
  step: number;
  steps: number;
  loss: number;
  /** With a target: the latest validation value measured (after the step before this one). */
  validation?: number;
}

export interface WarmStartResult {
  steps: number;
  finalLoss: number;
  losses: { step: number; loss: number }[];
  stoppedEarly: boolean;
  /** With a target: referenceProbability on the validation problems after each step. */
  validation: { step: number; value: number }[];
  /** With a target: whether it was reached within `steps`. */
  reachedTarget: boolean;
  /** With keepBest and a missed target: the step whose weights the policy ends with, and their value. */
  restoredBest?: { step: number; value: number };
}

/** Supervised warm start with Adam; returns the loss curve. Disposes everything it creates. */
export async function warmStart(policy: Policy, problems: Problem[], opts: WarmStartOptions): Promise<WarmStartResult> {
  if (problems.length === 0) throw new Error('warm start needs labeled problems');
  const data = encodeSupervised(problems, policy.config.maxLen, opts.scratchpad, opts.rng.child('scratchpad'), opts.targets, opts.codec);
  const order = opts.rng.child('order');
  // The validation set is uploaded once and checked after every step.
  const validation = opts.target ? uploadValidation(opts.target.validation, policy.config.maxLen, opts.scratchpad, opts.rng, opts.codec) : null;
  const curve: { step: number; value: number }[] = [];
  let reachedTarget = false;
  const optimizer = tf.train.adam(opts.learningRate);
  const reportEvery = opts.reportEvery ?? 10;
  const B = Math.min(opts.batchSize, data.count);
  const T = data.length;
  const losses: { step: number; loss: number }[] = [];
  let perm: number[] = [];
  let cursor = 0;
  let finalLoss = NaN;
  let stoppedEarly = false;
  let step = 0;
  let best: { step: number; value: number; weights: NamedWeight[] | null } = { step: 0, value: -Infinity, weights: null };
  try {
    for (step = 1; step <= opts.steps; step++) {
      // Sample a minibatch without replacement within an epoch, reshuffled each epoch.
      const idx: number[] = [];
      for (let k = 0; k < B; k++) {
        if (cursor >= perm.length) {
          perm = order.shuffle(Array.from({ length: data.count }, (_, i) => i));
          cursor = 0;
        }
        idx.push(perm[cursor++]);
      }
      const tok = new Int32Array(B * T);
      const msk = new Float32Array(B * T);
      idx.forEach((r, k) => {
        tok.set(data.tokens.subarray(r * T, (r + 1) * T), k * T);
        msk.set(data.lossMask.subarray(r * T, (r + 1) * T), k * T);
      });
      const tokens = tf.tensor2d(tok, [B, T], 'int32');
      const mask = tf.tensor2d(msk, [B, T], 'float32');
      const loss = optimizer.minimize(() => supervisedLoss(policy, tokens, mask), true, policy.variables);
      tokens.dispose();
      mask.dispose();
      await opts.onStep?.(step);
      if (step % reportEvery === 0 || step === opts.steps) {
        finalLoss = (await loss!.data())[0];
        losses.push({ step, loss: finalLoss });
        loss!.dispose();
        const latest = curve.length ? curve[curve.length - 1].value : undefined;
        const stop = await opts.onProgress?.({ step, steps: opts.steps, loss: finalLoss, ...(latest !== undefined ? { validation: latest } : {}) });
        if (stop === true) {
          stoppedEarly = true;
          break;
        }
      } else {
        loss!.dispose();
      }
      if (validation && opts.target) {
        const p = referenceProbability(policy, validation.tokens, validation.mask);
        const value = (await p.data())[0];
        p.dispose();
        curve.push({ step, value });
        if (opts.keepBest && value > best.value && value < opts.target.value) best = { step, value, weights: await policy.exportWeights() };
        if (value >= opts.target.value) {
          reachedTarget = true;
          if (step < opts.steps) stoppedEarly = true;
          break;
        }
      }
    }
  } finally {
    optimizer.dispose();
    if (validation) tf.dispose([validation.tokens, validation.mask]);
  }
  const last = curve.length ? curve[curve.length - 1].value : -Infinity;
  const restore = opts.keepBest && !reachedTarget && !stoppedEarly && best.weights !== null && best.value > last;
  if (restore) policy.importWeights(best.weights!);
  return {
    steps: Math.min(step, opts.steps),
    finalLoss,
    losses,
    stoppedEarly,
    validation: curve,
    reachedTarget,
    ...(restore ? { restoredBest: { step: best.step, value: best.value } } : {}),
  };
}
