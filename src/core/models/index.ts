/**
 * Policies: the three model families behind the one Policy interface (policy.ts).
 *
 * Each family is a parameter list (name, shape, init) plus a pure forward function over a
 * parameter record. This file turns the list into tf.Variables, seeded from the experiment's
 * generator tree, and wraps them in a Policy.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import type { Family, NamedWeight, Policy, PolicyConfig } from './policy';
import { initParam, sizeOf } from './layers';
import type { ParamSpec, Params } from './layers';
import { transformerForward, transformerParams } from './transformer';
import { gruForward, gruParams } from './gru';
import { DEFAULT_WINDOW, mlpForward, mlpParams } from './mlp';

export type { Family, NamedWeight, Policy, PolicyConfig } from './policy';
export type { ParamSpec, Params } from './layers';
export { transformerForward, transformerParams } from './transformer';
export { gruForward, gruParams } from './gru';
export { mlpForward, mlpParams } from './mlp';

interface FamilyDef {
  params(config: PolicyConfig): ParamSpec[];
  forward(params: Params, tokens: tf.Tensor2D, config: PolicyConfig): tf.Tensor3D;
}

const FAMILIES: Record<Family, FamilyDef> = {
  transformer: { params: transformerParams, forward: transformerForward },
  gru: { params: gruParams, forward: gruForward },
  mlp: { params: mlpParams, forward: mlpForward },
};

/** A model size without the task-given fields: spread it with { vocabSize, maxLen }. */
export type ModelSize = Omit<PolicyConfig, 'vocabSize' | 'maxLen'>;

/**
 * Size presets. Param counts at vocabSize 18, maxLen 20 (the tasks' vocabulary):
 * transformer small 27K / medium 104K, gru small 17K / medium 53K, mlp small 32K / medium 88K.
 * `small` trains a step (B 16, T 20, forward + backward) in a few ms on Node's wasm backend.
 */
export const DEFAULT_SIZES: Record<Family, Record<'small' | 'medium', ModelSize>> = {
  transformer: {
    small: { family: 'transformer', dModel: 32, layers: 2, heads: 2 },
    medium: { family: 'transformer', dModel: 64, layers: 2, heads: 4 },
  },
  gru: {
    small: { family: 'gru', dModel: 48, layers: 1 },
    medium: { family: 'gru', dModel: 64, layers: 2 },
  },
  mlp: {
    small: { family: 'mlp', dModel: 64, layers: 2, window: 6 },
    medium: { family: 'mlp', dModel: 96, layers: 2, window: 8 },
  },
};

/** Throws a RangeError naming the bad field; returns the family's parameter list otherwise. */
export function paramSpecs(config: PolicyConfig): ParamSpec[] {
  const def = FAMILIES[config.family];
  if (!def) throw new RangeError(`unknown model family "${String(config.family)}"`);
  const positive = (field: keyof PolicyConfig, min = 1) => {
    const v = config[field];
    if (!Number.isInteger(v) || (v as number) < min) {
      throw new RangeError(`${config.family}: ${field} must be an integer >= ${min}, got ${v}`);
    }
  };
  positive('vocabSize', 2);
  positive('maxLen');
  positive('dModel');
  positive('layers', config.family === 'mlp' ? 0 : 1);
  if (config.family === 'transformer' && config.heads !== undefined) positive('heads');
  if (config.family === 'mlp' && config.window !== undefined) positive('window');
  return def.params(config);
}

/** Number of scalar parameters a config gives (no variables are created). */
export function countParams(config: PolicyConfig): number {
  return paramSpecs(config).reduce((sum, s) => sum + sizeOf(s.shape), 0);
}

/** A short label, e.g. "transformer d32 L2 (27K params)" or "mlp d64 L2 w6 (32K params)". */
export function describePolicy(config: PolicyConfig): string {
  const n = countParams(config);
  const count =
    n < 1e3 ? `${n}` : n < 1e4 ? `${(n / 1e3).toFixed(1)}K` : n < 1e6 ? `${Math.round(n / 1e3)}K` : `${(n / 1e6).toFixed(1)}M`;
  const window = config.family === 'mlp' ? ` w${config.window ?? DEFAULT_WINDOW}` : '';
  return `${config.family} d${config.dModel} L${config.layers}${window} (${count} params)`;
}

/**
 * A fresh policy. Parameter `name` is drawn from the stream `rng.child(name)`, so the weights
 * depend only on (config, rng's seed and path): the same config and stream give bit-identical
 * weights, and adding a parameter never shifts the draws of another.
 */
export function createPolicy(config: PolicyConfig, rng: Rng): Policy {
  const specs = paramSpecs(config);
  const prefix = uniquePrefix();
  const variables = specs.map((s) => initParam(s, rng.child(s.name), prefix + s.name));
  return new TfPolicy({ ...config }, specs.map((s) => s.name), variables);
}

// tfjs registers variables globally by name, so each instance gets its own prefix; the local
// name ('blocks.0.attn.wq') is what NamedWeight carries, so weights move between instances.
let instanceCounter = 0;
function uniquePrefix(): string {
  const taken = tf.engine().registeredVariables;
  let prefix: string;
  do prefix = `policy${++instanceCounter}/`;
  while (Object.keys(taken).some((k) => k.startsWith(prefix)));
  return prefix;
}

class TfPolicy implements Policy {
  readonly config: PolicyConfig;
  private readonly params: Params;
  private disposed = false;

  constructor(
    config: PolicyConfig,
    /** Local names, in variable order. */
    private readonly names: string[],
    readonly variables: tf.Variable[],
  ) {
    this.config = Object.freeze(config);
    this.params = Object.fromEntries(names.map((n, i) => [n, variables[i]]));
  }

  logits(tokens: tf.Tensor2D): tf.Tensor3D {
    this.checkAlive();
    if (tokens.rank !== 2 || tokens.dtype !== 'int32') {
      throw new TypeError(`logits: tokens must be int32 [N, T], got ${tokens.dtype} [${tokens.shape}]`);
    }
    const T = tokens.shape[1];
    if (T < 1 || T > this.config.maxLen) {
      throw new RangeError(`logits: T = ${T} is outside 1..maxLen (${this.config.maxLen})`);
    }
    // Token ids outside [0, vocabSize) give an all-zero one-hot (no error: checking needs a readback).
    const forward = FAMILIES[this.config.family].forward;
    return tf.tidy(() => forward(this.params, tokens, this.config));
  }

  paramCount(): number {
    return this.variables.reduce((sum, v) => sum + v.size, 0);
  }

  async exportWeights(): Promise<NamedWeight[]> {
    this.checkAlive();
    const data = await Promise.all(this.variables.map((v) => v.data<'float32'>()));
    // Copy: on the cpu backend data() hands out the variable's own buffer.
    return this.names.map((name, i) => ({
      name,
      shape: [...this.variables[i].shape],
      values: Float32Array.from(data[i]),
    }));
  }

  importWeights(weights: NamedWeight[]): void {
    this.checkAlive();
    const byName = new Map<string, NamedWeight>();
    for (const w of weights) {
      if (byName.has(w.name)) throw new Error(`importWeights: weight "${w.name}" appears twice`);
      byName.set(w.name, w);
    }
    const extra = weights.map((w) => w.name).filter((n) => !this.names.includes(n));
    if (extra.length) throw new Error(`importWeights: unknown weight(s) ${extra.join(', ')} for ${this.label()}`);
    // Check everything before assigning anything, so a bad import leaves the policy unchanged.
    this.names.forEach((name, i) => {
      const w = byName.get(name);
      if (!w) throw new Error(`importWeights: missing weight "${name}" for ${this.label()}`);
      const want = this.variables[i].shape;
      if (w.shape.length !== want.length || w.shape.some((d, j) => d !== want[j])) {
        throw new Error(`importWeights: "${name}" has shape [${w.shape}], expected [${want}]`);
      }
      if (w.values.length !== sizeOf(want)) {
        throw new Error(`importWeights: "${name}" has ${w.values.length} values, expected ${sizeOf(want)}`);
      }
      for (let j = 0; j < w.values.length; j++) {
        if (!Number.isFinite(w.values[j])) throw new Error(`importWeights: "${name}" holds a non-finite value`);
      }
    });
    this.names.forEach((name, i) => {
      const w = byName.get(name)!;
      // Copy: tf.tensor keeps a reference to the caller's array on the cpu backend.
      const t = tf.tensor(Float32Array.from(w.values), w.shape, 'float32');
      this.variables[i].assign(t);
      t.dispose(); // assign took its own reference
    });
  }

  clone(): Policy {
    this.checkAlive();
    const prefix = uniquePrefix();
    // tf.variable(v) shares v's data buffer (reference-counted); tfjs never writes a buffer in
    // place (assign swaps in a new one), so the copies train independently without a readback.
    const variables = this.variables.map((v, i) => tf.variable(v, true, prefix + this.names[i]));
    return new TfPolicy({ ...this.config }, [...this.names], variables);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const v of this.variables) v.dispose();
  }

  private label(): string {
    return describePolicy(this.config);
  }

  private checkAlive(): void {
    if (this.disposed) throw new Error(`${this.label()}: used after dispose()`);
  }
}
