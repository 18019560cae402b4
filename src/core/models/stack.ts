/**
 * ModelStack: K same-shape models as one, every parameter with a leading model axis [K, ...]
 * (PyTorch's `torch.func.stack_module_state` + `vmap` ensembles). One forward pass, one
 * rollout, one loss and one optimiser step serve all K; model k only ever meets its own weights,
 * so each keeps its own results. A single Policy is a stack of one (index.ts).
 */
import * as tf from '@tensorflow/tfjs';
import type { DecodeStep, NamedWeight, PolicyConfig, PolicyStack } from './policy';
import type { Params } from './layers';
import { sizeOf } from './layers';
import { familyOf } from './families';

// tfjs registers variables globally by name, so each stack gets its own prefix; the local name
// ('blocks.0.attn.wq') is what NamedWeight carries, so weights move between stacks.
let instanceCounter = 0;
function uniquePrefix(): string {
  const taken = tf.engine().registeredVariables;
  let prefix: string;
  do prefix = `policy${++instanceCounter}/`;
  while (Object.keys(taken).some((k) => k.startsWith(prefix)));
  return prefix;
}

export class ModelStack implements PolicyStack {
  readonly config: PolicyConfig;
  readonly size: number;
  readonly variables: tf.Variable[];
  private readonly params: Params;
  private disposed = false;

  /** `tensors` [K, ...] in the family's parameter order; the stack keeps them as its variables. */
  private constructor(
    config: PolicyConfig,
    /** Local names, in variable order. */
    readonly names: string[],
    tensors: tf.Tensor[],
  ) {
    this.config = Object.freeze({ ...config });
    this.size = tensors[0].shape[0];
    const prefix = uniquePrefix();
    // tf.variable(t) shares t's buffer (reference-counted); tfjs never writes a buffer in place
    // (assign swaps in a new one), so stacks built from the same tensors train independently.
    this.variables = tensors.map((t, i) => tf.variable(t, true, prefix + names[i]));
    this.params = Object.fromEntries(names.map((n, i) => [n, this.variables[i]]));
  }

  /** A stack owning copies of `tensors` (the caller keeps and disposes its own). */
  static fromTensors(config: PolicyConfig, names: string[], tensors: tf.Tensor[]): ModelStack {
    return new ModelStack(config, names, tensors);
  }

  /** Models of one config side by side: slot k of the result is `stacks` flattened in order. */
  static concat(stacks: ModelStack[]): ModelStack {
    if (stacks.length === 0) throw new Error('ModelStack.concat needs at least one stack');
    const key = shapeKey(stacks[0].config);
    for (const s of stacks) {
      s.checkAlive();
      if (shapeKey(s.config) !== key) throw new Error(`cannot stack ${shapeKey(s.config)} with ${key}`);
    }
    const names = stacks[0].names;
    const tensors = tf.tidy(() => names.map((_, i) => (stacks.length === 1 ? tf.clone(stacks[0].variables[i]) : tf.concat(stacks.map((s) => s.variables[i]), 0))));
    const out = new ModelStack(stacks[0].config, names, tensors);
    tf.dispose(tensors); // the variables hold their own references
    return out;
  }

  /** tokens [K, N, T] -> logits [K, N, T - from, V] at positions from..T-1 (default: all). */
  logits(tokens: tf.Tensor3D, from = 0): tf.Tensor4D {
    this.checkAlive();
    if (tokens.rank !== 3 || tokens.dtype !== 'int32' || tokens.shape[0] !== this.size) {
      throw new TypeError(`logits: tokens must be int32 [${this.size}, N, T], got ${tokens.dtype} [${tokens.shape}]`);
    }
    const T = tokens.shape[2];
    if (T < 1 || T > this.config.maxLen) throw new RangeError(`logits: T = ${T} is outside 1..maxLen (${this.config.maxLen})`);
    if (!Number.isInteger(from) || from < 0 || from >= T) throw new RangeError(`logits: from = ${from} is outside 0..${T - 1}`);
    // Token ids outside [0, vocabSize) give an all-zero one-hot (no error: checking needs a readback).
    const family = familyOf(this.config);
    return tf.tidy(() => family.forward(this.params, tokens, this.config, from) as tf.Tensor4D);
  }

  prefill(prompt: tf.Tensor3D): DecodeStep {
    this.checkAlive();
    const family = familyOf(this.config);
    return keepStep(() => family.prefill(this.params, prompt, this.config));
  }

  decode(state: tf.Tensor[], token: tf.Tensor2D, pos: number): DecodeStep {
    this.checkAlive();
    if (pos >= this.config.maxLen) throw new RangeError(`decode: position ${pos} is past maxLen (${this.config.maxLen})`);
    const family = familyOf(this.config);
    return keepStep(() => family.decode(this.params, state, token, pos, this.config));
  }

  paramCountPerModel(): number {
    return this.variables.reduce((sum, v) => sum + v.size, 0) / this.size;
  }

  /** Every model's weights as plain data: one readback per variable (between steps only). */
  async exportAll(): Promise<NamedWeight[][]> {
    this.checkAlive();
    const data = await Promise.all(this.variables.map((v) => v.data<'float32'>()));
    return Array.from({ length: this.size }, (_, k) =>
      this.names.map((name, i) => {
        const shape = this.variables[i].shape.slice(1);
        const n = sizeOf(shape);
        // Copy: on the cpu backend data() hands out the variable's own buffer.
        return { name, shape, values: Float32Array.from(data[i].subarray(k * n, (k + 1) * n)) };
      }),
    );
  }

  /**
   * Overwrite model k's weights from plain data. Everything is checked before anything is
   * assigned, so a bad import leaves the stack unchanged.
   */
  importModel(k: number, weights: NamedWeight[]): void {
    this.checkAlive();
    if (!Number.isInteger(k) || k < 0 || k >= this.size) throw new RangeError(`importModel: no model ${k} in a stack of ${this.size}`);
    const byName = new Map<string, NamedWeight>();
    for (const w of weights) {
      if (byName.has(w.name)) throw new Error(`importWeights: weight "${w.name}" appears twice`);
      byName.set(w.name, w);
    }
    const extra = weights.map((w) => w.name).filter((n) => !this.names.includes(n));
    if (extra.length) throw new Error(`importWeights: unknown weight(s) ${extra.join(', ')} for ${shapeKey(this.config)}`);
    this.names.forEach((name, i) => {
      const w = byName.get(name);
      if (!w) throw new Error(`importWeights: missing weight "${name}" for ${shapeKey(this.config)}`);
      const want = this.variables[i].shape.slice(1);
      if (w.shape.length !== want.length || w.shape.some((d, j) => d !== want[j])) {
        throw new Error(`importWeights: "${name}" has shape [${w.shape}], expected [${want}]`);
      }
      if (w.values.length !== sizeOf(want)) throw new Error(`importWeights: "${name}" has ${w.values.length} values, expected ${sizeOf(want)}`);
      for (let j = 0; j < w.values.length; j++) {
        if (!Number.isFinite(w.values[j])) throw new Error(`importWeights: "${name}" holds a non-finite value`);
      }
    });
    this.names.forEach((name, i) => {
      const w = byName.get(name)!;
      const v = this.variables[i];
      tf.tidy(() => {
        // Copy: tf.tensor keeps a reference to the caller's array on the cpu backend.
        const value = tf.tensor(Float32Array.from(w.values), [1, ...w.shape], 'float32');
        if (this.size === 1) {
          v.assign(value);
          return;
        }
        // Replace row k: where(row == k, new, old) keeps one shape for every k.
        const rowIsK = tf.reshape(tf.equal(tf.range(0, this.size, 1, 'int32'), k), [this.size, ...w.shape.map(() => 1)]);
        v.assign(tf.where(tf.broadcastTo(rowIsK, v.shape), tf.broadcastTo(value, v.shape), v));
      });
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const v of this.variables) v.dispose();
  }

  private checkAlive(): void {
    if (this.disposed) throw new Error(`${shapeKey(this.config)} stack: used after dispose()`);
  }
}

/** Run a decoding step in a tidy, keeping only its logits and state. */
function keepStep(fn: () => DecodeStep): DecodeStep {
  const out = tf.tidy(() => {
    const step = fn();
    return [step.logits, ...step.state];
  });
  return { logits: out[0] as tf.Tensor3D, state: out.slice(1) };
}

/** Models with equal keys have parameters of equal shapes and can share a stack. */
export function shapeKey(config: PolicyConfig): string {
  const { family, vocabSize, maxLen, dModel, layers } = config;
  const extra = family === 'transformer' ? ` h${config.heads ?? 1}` : family === 'mlp' ? ` w${config.window ?? 6}` : '';
  return `${family} d${dModel} L${layers}${extra} V${vocabSize} T${maxLen}`;
}
