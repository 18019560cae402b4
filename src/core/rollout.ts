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
 * entropies, self-certainties). There is no dataSync anywhere: it loses the device on WebGPU (docs/TFJS-AND-BROWSER.md).
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from './random';
import type { DecodeStep, Policy, PolicyStack } from './models/policy';
import { asStack } from './models/index';
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
 * (built-in tasks' prompts have one length; a custom task's are left-padded to its longest by
 * promptTokens). The policy must accept sequences of length P + L.
 */
export async function sampleRollouts(
  policy: Policy,
  promptIds: number[][],
  task: Task,
  difficulty: number,
  opts: RolloutOptions,
): Promise<RolloutBatch> {
  const { rng, ...rest } = opts;
  const [batch] = await sampleStack(asStack(policy), promptIds, task, difficulty, { ...rest, rngs: [rng] });
  return batch;
}

export interface StackRolloutOptions extends Omit<RolloutOptions, 'rng'> {
  /** One sampling stream per model of the stack: model k's Gumbel noise comes from rngs[k]. */
  rngs: Rng[];
}

/**
 * Every model of a stack samples G completions for each of the same B prompts, in one pass:
 * the token buffer is [K, N] per step and there is one readback for all K models. Model k's
 * batch is exactly what it would sample alone with stream rngs[k].
 */
export async function sampleStack(
  stack: PolicyStack,
  promptIds: number[][],
  task: Task,
  difficulty: number,
  opts: StackRolloutOptions,
): Promise<RolloutBatch[]> {
  const K = stack.size;
  const B = promptIds.length;
  const G = opts.groupSize;
  const L = opts.maxNewTokens;
  const N = B * G;
  if (B === 0) throw new Error('sampleRollouts needs at least one prompt');
  if (opts.rngs.length !== K) throw new Error(`sampleStack: ${opts.rngs.length} streams for ${K} models`);
  const P = promptIds[0].length;
  if (promptIds.some((p) => p.length !== P)) throw new Error('all prompts must have the same length');
  const T = P + L;
  if (T > stack.config.maxLen) {
    throw new Error(`prompt (${P}) + length cap (${L}) exceeds the model's maxLen ${stack.config.maxLen}`);
  }
  const V = stack.config.vocabSize;
  const greedy = opts.temperature <= 0;
  const invTemp = greedy ? 1 : 1 / opts.temperature;

  // Every prompt repeated G times (row b*G + g), the same for every model.
  const promptRows = new Int32Array(N * P);
  for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) promptRows.set(promptIds[b], (b * G + g) * P);
  // All the Gumbel noise for the rollout, drawn up front from each model's seeded stream
  // ([L, N, V] per model, as a model alone draws it) and laid out [L, K, N, V].
  let gumbel: tf.Tensor4D | null = null;
  if (!greedy) {
    const u = new Float32Array(L * K * N * V);
    opts.rngs.forEach((rng, k) => {
      const own = rng.uniforms(L * N * V);
      for (let t = 0; t < L; t++) u.set(own.subarray(t * N * V, (t + 1) * N * V), (t * K + k) * N * V);
    });
    gumbel = tf.tidy(() => tf.neg(tf.log(tf.neg(tf.log(tf.tensor4d(u, [L, K, N, V]))))));
  }

  const decoder = stack.prefill && stack.decode ? (stack as Required<PolicyStack>) : recomputingDecoder(stack, T);
  const prompt = tf.tensor3d(tileModels(promptRows, K), [K, N, P], 'int32');
  let step = decoder.prefill(prompt); // logits [K, N, V] for position P
  prompt.dispose();
  let done = tf.zeros([K, N], 'bool');
  const stepOutputs: tf.Tensor2D[][] = [[], [], [], []]; // tokens, log-probs, entropies, certainties

  for (let t = 0; t < L; t++) {
    const out = tf.tidy(() => {
      const scaled = tf.mul(step.logits, invTemp); // [K, N, V]
      const logp = tf.logSoftmax(scaled);
      const noisy = gumbel ? tf.add(scaled, tf.reshape(tf.slice(gumbel, [t, 0, 0, 0], [1, K, N, V]), [K, N, V])) : scaled;
      const drawn = tf.cast(tf.argMax(noisy, 2), 'int32'); // [K, N]
      // Rows that already emitted EOS keep writing PAD and contribute nothing.
      const token = tf.where(done, tf.fill([K, N], PAD_ID, 'int32'), drawn) as tf.Tensor2D;
      const live = tf.cast(tf.logicalNot(done), 'float32');
      const pickedLogp = tf.mul(tf.sum(tf.mul(logp, tf.oneHot(drawn, V)), 2), live) as tf.Tensor2D;
      const entropy = tf.mul(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 2)), live) as tf.Tensor2D;
      const certainty = tf.mul(tf.sub(tf.neg(tf.mean(logp, 2)), Math.log(V)), live) as tf.Tensor2D;
      const nextDone = tf.logicalOr(done, tf.equal(token, EOS_ID)) as tf.Tensor2D;
      return { token, pickedLogp, entropy, certainty, nextDone };
    });
    done.dispose();
    done = out.nextDone;
    [out.token, out.pickedLogp, out.entropy, out.certainty].forEach((x, j) => stepOutputs[j].push(x));
    if (t < L - 1) {
      const next = decoder.decode(step.state, out.token, P + t); // the token sits at position P + t
      tf.dispose([step.logits, ...step.state]);
      step = next;
    }
  }
  tf.dispose([step.logits, ...step.state, done]);

  // One readback for the whole rollout: tokens, log-probs, entropies, certainties as [4, K, N, L].
  const packed = tf.tidy(() => tf.stack(stepOutputs.map((xs, j) => tf.stack(j === 0 ? xs.map((x) => tf.cast(x, 'float32')) : xs, 2))));
  tf.dispose(stepOutputs.flat());
  if (gumbel) gumbel.dispose();
  const flat = (await packed.data()) as Float32Array;
  packed.dispose();

  const KNL = K * N * L;
  return Array.from({ length: K }, (_, k) => {
    const part = (j: number) => flat.slice(j * KNL + k * N * L, j * KNL + (k + 1) * N * L);
    const completionTokens = Int32Array.from(part(0), Math.round);
    return assembleBatch(B, G, P, L, promptRows, completionTokens, part(1), part(2), part(3), task, difficulty);
  });
}

/** The prompt rows [N, P] repeated for each of K models: [K, N, P]. */
function tileModels(rows: Int32Array, K: number): Int32Array {
  const out = new Int32Array(rows.length * K);
  for (let k = 0; k < K; k++) out.set(rows, k * rows.length);
  return out;
}

/** Decoded completions, lengths and answers of one model's rollout. */
export function assembleBatch(
  B: number,
  G: number,
  P: number,
  L: number,
  promptRows: Int32Array,
  completionTokens: Int32Array,
  logProbs: Float32Array,
  entropies: Float32Array,
  certainties: Float32Array,
  task: Task,
  difficulty: number,
): RolloutBatch {
  const N = B * G;
  const T = P + L;
  const sequences = new Int32Array(N * T);
  const lengths = new Int32Array(N);
  const finished = new Uint8Array(N);
  const completions: (string | null)[] = [];
  const answers: (string | null)[] = [];
  for (let i = 0; i < N; i++) {
    const row = completionTokens.subarray(i * L, (i + 1) * L);
    sequences.set(promptRows.subarray(i * P, (i + 1) * P), i * T);
    sequences.set(row, i * T + P);
    const eos = row.indexOf(EOS_ID);
    finished[i] = eos >= 0 ? 1 : 0;
    lengths[i] = eos >= 0 ? eos + 1 : L;
    completions.push(completionText(row, task.vocabulary));
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

/**
 * Decoding for a stack without incremental decoding: the state is a fixed-shape token buffer
 * [K, N, T] (PAD where nothing is written yet), and every token recomputes the whole sequence.
 */
function recomputingDecoder(stack: PolicyStack, T: number): Required<Pick<PolicyStack, 'prefill' | 'decode'>> {
  const logitsAt = (buffer: tf.Tensor3D, pos: number) => {
    const [K, N] = buffer.shape;
    const V = stack.config.vocabSize;
    return tf.reshape(tf.slice(stack.logits(buffer), [0, 0, pos, 0], [K, N, 1, V]), [K, N, V]) as tf.Tensor3D;
  };
  return {
    prefill(prompt) {
      return tf.tidy(() => {
        const [, , P] = prompt.shape;
        const buffer = tf.pad(prompt, [[0, 0], [0, 0], [0, T - P]], PAD_ID) as tf.Tensor3D;
        return { logits: logitsAt(buffer, P - 1), state: [buffer] };
      }) as DecodeStep;
    },
    decode(state, token, pos) {
      return tf.tidy(() => {
        const [buffer] = state as [tf.Tensor3D];
        const [K, N] = token.shape;
        // Write the token into column `pos` of the buffer (where + a one-hot column: one shape).
        const column = tf.reshape(tf.cast(tf.oneHot(tf.scalar(pos, 'int32'), T), 'bool'), [1, 1, T]);
        const next = tf.where(tf.broadcastTo(column, [K, N, T]), tf.broadcastTo(tf.reshape(token, [K, N, 1]), [K, N, T]), buffer) as tf.Tensor3D;
        return { logits: logitsAt(next, pos), state: [next] };
      }) as DecodeStep;
    },
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

/**
 * The rollouts GRPO trains on when more samples vote than train (n_vote > G; docs/METHOD.md,
 * "Votes and rewards"): the first G of each prompt's n_vote samples, every per-rollout array sliced
 * prompt-major (row b*G + g of the result is row b*n_vote + g of the batch). The samples of a prompt
 * are i.i.d. given the prompt (each row has its own Gumbel noise), so the first G are as unbiased a
 * subset as any G of them, and taking the first keeps it deterministic. A batch that already has G
 * per prompt is returned as it is.
 */
export function trainedSubset(batch: RolloutBatch, G: number): RolloutBatch {
  const n = batch.groupSize;
  if (!Number.isInteger(G) || G < 1 || G > n) throw new RangeError(`trainedSubset: G = ${G} of ${n} samples per prompt`);
  if (G === n) return batch;
  const B = batch.numPrompts;
  const L = batch.maxNewTokens;
  const T = batch.promptLength + L;
  // Rows [b*n, b*n + G) of every prompt b, each `width` values wide.
  const rows = <A extends Int32Array | Float32Array | Uint8Array>(xs: A, width: number, make: (len: number) => A): A => {
    const out = make(B * G * width);
    for (let b = 0; b < B; b++) out.set(xs.subarray(b * n * width, (b * n + G) * width), b * G * width);
    return out;
  };
  const list = <T>(xs: T[]): T[] => Array.from({ length: B * G }, (_, i) => xs[Math.floor(i / G) * n + (i % G)]);
  return {
    numPrompts: B,
    groupSize: G,
    promptLength: batch.promptLength,
    maxNewTokens: L,
    sequences: rows(batch.sequences, T, (k) => new Int32Array(k)),
    completionTokens: rows(batch.completionTokens, L, (k) => new Int32Array(k)),
    lengths: rows(batch.lengths, 1, (k) => new Int32Array(k)),
    finished: rows(batch.finished, 1, (k) => new Uint8Array(k)),
    logProbs: rows(batch.logProbs, L, (k) => new Float32Array(k)),
    entropies: rows(batch.entropies, L, (k) => new Float32Array(k)),
    certainties: rows(batch.certainties, L, (k) => new Float32Array(k)),
    completions: list(batch.completions),
    answers: list(batch.answers),
  };
}
