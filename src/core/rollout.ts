/**
 * Batched on-device sampling of G completions for each of B prompts.
 *
 * Each step runs the policy over a fixed-shape token buffer [N, P+L] (N = B*G rows, prompt-major:
 * row b*G + g is the g-th sample for prompt b), reads the logits at the last written position and
 * draws the next token by Gumbel-max: argmax(logits / T + g) with g = -log(-log(u)) is an exact
 * sample from softmax(logits / T). tf.multinomial is not used: it is wrong on cpu (every row gets
 * the same draw) and on webgpu (tfjs #8057). The uniforms u come from the experiment's seeded
 * generator and are uploaded once per rollout, so a seed fixes every sample.
 *
 * The buffer keeps one shape for the whole rollout, so WebGPU compiles each shader once. Nothing is
 * read back until the end: one `await data()` of a packed [4, N, L] tensor (tokens, log-probs,
 * entropies, self-certainties). There is no dataSync anywhere: it loses the device on WebGPU (PLATFORM.md).
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from './random';
import type { Policy } from './models/policy';
import type { Task } from './tasks/types';
import { EOS_ID, PAD_ID } from './tasks/tokenizer';
import { completionText, extractAnswer } from './tasks/extract';

export interface RolloutOptions {
  /** G: completions per prompt. */
  groupSize: number;
  /** Sampling temperature; 0 means greedy (argmax). */
  temperature: number;
  /** L: the length cap in tokens, EOS included. */
  maxNewTokens: number;
  /** The sampling stream (Gumbel noise is drawn from it). */
  rng: Rng;
}

export interface RolloutBatch {
  numPrompts: number;
  groupSize: number;
  promptLength: number;
  maxNewTokens: number;
  /** [N, P+L] the full sequences (BOS + prompt + completion), PAD after EOS. */
  sequences: Int32Array;
  /** [N, L] completion tokens (PAD after EOS). */
  completionTokens: Int32Array;
  /** [N] tokens generated, EOS included; L when the cap was hit. */
  lengths: Int32Array;
  /** [N] 1 when the completion ended with EOS before the cap. */
  finished: Uint8Array;
  /** [N, L] log pi(token | prefix) of the sampling policy at temperature T; 0 past the end. */
  logProbs: Float32Array;
  /** [N, L] entropy of the next-token distribution at temperature T; 0 past the end. */
  entropies: Float32Array;
  /** [N, L] Intuitor's self-certainty KL(Uniform || p) = -log V - mean_v log p_v; 0 past the end. */
  certainties: Float32Array;
  /** [N] decoded completions up to EOS (null when the cap was hit). */
  completions: (string | null)[];
  /** [N] extracted answers; null = malformed or missing, casts no vote. */
  answers: (string | null)[];
}

/**
 * Sample G completions for each prompt. `promptIds` are BOS + prompt tokens, all of one length P
 * (tasks guarantee fixed prompt lengths). The policy must accept sequences of length P + L.
 */
export async function sampleRollouts(
  policy: Policy,
  promptIds: number[][],
  task: Task,
  difficulty: number,
  opts: RolloutOptions,
): Promise<RolloutBatch> {
  const B = promptIds.length;
  const G = opts.groupSize;
  const L = opts.maxNewTokens;
  const N = B * G;
  if (B === 0) throw new Error('sampleRollouts needs at least one prompt');
  const P = promptIds[0].length;
  if (promptIds.some((p) => p.length !== P)) throw new Error('all prompts must have the same length');
  const T = P + L;
  if (T > policy.config.maxLen) {
    throw new Error(`prompt (${P}) + length cap (${L}) exceeds the model's maxLen ${policy.config.maxLen}`);
  }
  const V = policy.config.vocabSize;
  const greedy = opts.temperature <= 0;
  const invTemp = greedy ? 1 : 1 / opts.temperature;

  // Initial buffer: every prompt repeated G times, PAD where the completion will go.
  const init = new Int32Array(N * T).fill(PAD_ID);
  for (let b = 0; b < B; b++) {
    for (let g = 0; g < G; g++) init.set(promptIds[b], (b * G + g) * T);
  }
  // All the Gumbel noise for the rollout, drawn up front from the seeded stream: [L, N, V].
  const uniforms = greedy ? null : opts.rng.uniforms(L * N * V);

  let buffer = tf.tensor2d(init, [N, T], 'int32');
  let done = tf.zeros([N], 'bool');
  const gumbel = uniforms
    ? tf.tidy(() => tf.neg(tf.log(tf.neg(tf.log(tf.tensor3d(uniforms, [L, N, V]))))))
    : null;
  const stepTokens: tf.Tensor1D[] = [];
  const stepLogProbs: tf.Tensor1D[] = [];
  const stepEntropies: tf.Tensor1D[] = [];
  const stepCertainties: tf.Tensor1D[] = [];

  for (let t = 0; t < L; t++) {
    const pos = P - 1 + t; // logits at `pos` predict the token written at pos + 1
    const out = tf.tidy(() => {
      const logits = policy.logits(buffer); // [N, T, V]
      const last = tf.reshape(tf.slice(logits, [0, pos, 0], [N, 1, V]), [N, V]);
      const scaled = tf.mul(last, invTemp);
      const logp = tf.logSoftmax(scaled); // [N, V]
      const noisy = gumbel ? tf.add(scaled, tf.reshape(tf.slice(gumbel, [t, 0, 0], [1, N, V]), [N, V])) : scaled;
      const drawn = tf.cast(tf.argMax(noisy, 1), 'int32'); // [N]
      // Rows that already emitted EOS keep writing PAD and contribute nothing.
      const token = tf.where(done, tf.fill([N], PAD_ID, 'int32'), drawn) as tf.Tensor1D;
      const live = tf.cast(tf.logicalNot(done), 'float32');
      const pickedLogp = tf.mul(tf.sum(tf.mul(logp, tf.oneHot(drawn, V)), 1), live) as tf.Tensor1D;
      const entropy = tf.mul(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)), live) as tf.Tensor1D;
      const certainty = tf.mul(tf.sub(tf.neg(tf.mean(logp, 1)), Math.log(V)), live) as tf.Tensor1D;
      // Write the token into column pos + 1 of the buffer.
      const column = tf.reshape(tf.oneHot(tf.scalar(pos + 1, 'int32'), T), [1, T]);
      const nextBuffer = tf.where(
        tf.cast(tf.tile(column, [N, 1]), 'bool'),
        tf.tile(tf.reshape(token, [N, 1]), [1, T]),
        buffer,
      ) as tf.Tensor2D;
      const nextDone = tf.logicalOr(done, tf.equal(token, EOS_ID)) as tf.Tensor1D;
      return { token, pickedLogp, entropy, certainty, nextBuffer, nextDone };
    });
    buffer.dispose();
    done.dispose();
    buffer = out.nextBuffer;
    done = out.nextDone;
    stepTokens.push(out.token);
    stepLogProbs.push(out.pickedLogp);
    stepEntropies.push(out.entropy);
    stepCertainties.push(out.certainty);
  }

  // One readback for the whole rollout: tokens, log-probs, entropies, certainties as [4, N, L].
  const packed = tf.tidy(() =>
    tf.stack([
      tf.stack(stepTokens.map((x) => tf.cast(x, 'float32')), 1),
      tf.stack(stepLogProbs, 1),
      tf.stack(stepEntropies, 1),
      tf.stack(stepCertainties, 1),
    ]),
  );
  tf.dispose([...stepTokens, ...stepLogProbs, ...stepEntropies, ...stepCertainties, buffer, done]);
  if (gumbel) gumbel.dispose();
  const flat = (await packed.data()) as Float32Array;
  packed.dispose();

  const completionTokens = new Int32Array(N * L);
  for (let i = 0; i < N * L; i++) completionTokens[i] = Math.round(flat[i]);
  const logProbs = flat.slice(N * L, 2 * N * L);
  const entropies = flat.slice(2 * N * L, 3 * N * L);
  const certainties = flat.slice(3 * N * L, 4 * N * L);
  const sequences = new Int32Array(N * T);
  const lengths = new Int32Array(N);
  const finished = new Uint8Array(N);
  const completions: (string | null)[] = [];
  const answers: (string | null)[] = [];
  for (let i = 0; i < N; i++) {
    const row = completionTokens.subarray(i * L, (i + 1) * L);
    sequences.set(init.subarray(i * T, i * T + P), i * T);
    sequences.set(row, i * T + P);
    const eos = row.indexOf(EOS_ID);
    finished[i] = eos >= 0 ? 1 : 0;
    lengths[i] = eos >= 0 ? eos + 1 : L;
    completions.push(completionText(row));
    answers.push(extractAnswer(row, task, difficulty));
  }
  return {
    numPrompts: B,
    groupSize: G,
    promptLength: P,
    maxNewTokens: L,
    sequences,
    completionTokens,
    lengths,
    finished,
    logProbs,
    entropies,
    certainties,
    completions,
    answers,
  };
}

/** Mean over generated tokens of each completion's per-token values (e.g. entropy): [N]. */
export function perCompletionMean(values: Float32Array, lengths: Int32Array, L: number): Float32Array {
  const out = new Float32Array(lengths.length);
  for (let i = 0; i < lengths.length; i++) {
    let s = 0;
    for (let t = 0; t < lengths[i]; t++) s += values[i * L + t];
    out[i] = lengths[i] > 0 ? s / lengths[i] : 0;
  }
  return out;
}
