/**
 * The Policy interface every model family implements.
 *
 * A policy maps a batch of token sequences to next-token logits at every position (causal: the
 * logits at position t depend only on tokens 0..t). Families are written as pure functions of a
 * parameter record (`forward(params, tokens)`), and the Policy object only owns the tf.Variables.
 * Families are written for K same-shape models at once (every parameter and activation carries a
 * leading model axis, like PyTorch's stack_module_state + vmap ensembles): a single policy is a
 * stack of one, and the experiment runs every same-shape member of every arm as one stack.
 */
import type * as tf from '@tensorflow/tfjs';

export type Family = 'transformer' | 'gru' | 'mlp';

export interface PolicyConfig {
  family: Family;
  /** Vocabulary size (from the tokenizer). */
  vocabSize: number;
  /** Longest sequence (prompt + completion, including BOS/EOS) the model will ever see. */
  maxLen: number;
  /** Width: embedding / hidden size. */
  dModel: number;
  /** Depth: transformer blocks, GRU layers or MLP hidden layers. */
  layers: number;
  /** Transformer only: attention heads (dModel must be divisible by it). */
  heads?: number;
  /** MLP only: how many previous tokens the MLP sees. */
  window?: number;
}

/** A weight as plain data: what checkpoints, clones and share bundles carry. */
export interface NamedWeight {
  name: string;
  shape: number[];
  values: Float32Array;
}

export interface Policy {
  readonly config: PolicyConfig;
  /** Trainable variables in a stable order (the optimizer and gradients use this order). */
  readonly variables: tf.Variable[];
  /**
   * tokens: int32 [N, T] with T <= maxLen. Returns float32 logits [N, T, vocabSize]; position t
   * predicts token t+1. Must only use ops whose gradients exist on cpu, wasm, webgl and webgpu
   * (docs/TFJS-AND-BROWSER.md): embeddings as oneHot + matMul, a constant additive causal mask.
   */
  logits(tokens: tf.Tensor2D): tf.Tensor3D;
  /** Number of scalar parameters. */
  paramCount(): number;
  /** Weights as plain typed arrays (one readback per variable; use between steps, not per token). */
  exportWeights(): Promise<NamedWeight[]>;
  /** Overwrite weights from plain data; throws on a name or shape mismatch. */
  importWeights(weights: NamedWeight[]): void;
  /** A deep copy with its own variables (same weights, independent training). */
  clone(): Policy;
  dispose(): void;
}

/** One step of incremental decoding: next-token logits [K, N, V] and the state to carry on. */
export interface DecodeStep {
  logits: tf.Tensor3D;
  /** Family-specific (the MLP's window, the GRU's hidden states, the transformer's KV cache). */
  state: tf.Tensor[];
}

/**
 * K same-shape models run as one: tokens [K, N, T] -> logits [K, N, T, V], model k on row k.
 * `prefill`/`decode` are incremental decoding (each new token costs one position); a stack
 * without them is sampled by recomputing the whole sequence for every token.
 */
export interface PolicyStack {
  readonly config: PolicyConfig;
  /** K: the number of models. */
  readonly size: number;
  /** Trainable variables, each with a leading model axis [K, ...]. */
  readonly variables: tf.Variable[];
  /** Logits [K, N, T - from, V] at positions from..T-1 (default from = 0: every position). */
  logits(tokens: tf.Tensor3D, from?: number): tf.Tensor4D;
  /** The prompt [K, N, P]: logits at its last position. */
  prefill?(prompt: tf.Tensor3D): DecodeStep;
  /** The token [K, N] just written at position `pos`: logits for the next one. */
  decode?(state: tf.Tensor[], token: tf.Tensor2D, pos: number): DecodeStep;
}
