/**
 * Policies: the three model families behind the one Policy interface (policy.ts).
 *
 * Each family is a parameter list (name, shape, init) plus a pure forward function over a
 * parameter record. This file turns the list into tf.Variables, seeded from the experiment's
 * generator tree, and wraps them in a Policy.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import type { Family, NamedWeight, Policy, PolicyConfig, PolicyStack } from './policy';
import { initialValues, sizeOf } from './layers';
import type { ParamSpec } from './layers';
import { familyOf } from './families';
import { ModelStack } from './stack';
import { DEFAULT_WINDOW } from './mlp';

export type { DecodeStep, Family, NamedWeight, Policy, PolicyConfig, PolicyStack } from './policy';
export type { ParamSpec, Params } from './layers';
export { transformerForward, transformerParams } from './transformer';
export { gruForward, gruParams } from './gru';
export { mlpForward, mlpParams } from './mlp';
export { ModelStack, shapeKey } from './stack';

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
  const def = familyOf(config);
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
  const tensors = specs.map((s) => tf.tensor(initialValues(s, rng.child(s.name)), [1, ...s.shape], 'float32'));
  const stack = ModelStack.fromTensors({ ...config }, specs.map((s) => s.name), tensors);
  tf.dispose(tensors);
  return new StackedPolicy(stack);
}

/** The policy behind `p` as a stack of one, if it is one of ours (createPolicy); else null. */
export function stackOf(p: Policy): ModelStack | null {
  return p instanceof StackedPolicy ? p.stack : null;
}

/**
 * Any Policy as a stack of one: ours as its own ModelStack (with incremental decoding); another
 * (e.g. a test double) through its logits, sampled by recomputing the sequence.
 */
export function asStack(policy: Policy): PolicyStack {
  const own = stackOf(policy);
  if (own) return own;
  return {
    config: policy.config,
    size: 1,
    variables: policy.variables,
    logits: (tokens, from = 0) =>
      tf.tidy(() => {
        const [, N, T] = tokens.shape;
        const V = policy.config.vocabSize;
        const all = tf.reshape(policy.logits(tf.reshape(tokens, [N, T])), [1, N, T, V]);
        return (from > 0 ? tf.slice(all, [0, 0, from, 0], [1, N, T - from, V]) : all) as tf.Tensor4D;
      }),
  };
}

/** A single model: a view of a stack of one, taking [N, T] where the stack takes [1, N, T]. */
class StackedPolicy implements Policy {
  constructor(readonly stack: ModelStack) {}

  get config(): PolicyConfig {
    return this.stack.config;
  }

  get variables(): tf.Variable[] {
    return this.stack.variables;
  }

  logits(tokens: tf.Tensor2D): tf.Tensor3D {
    if (tokens.rank !== 2 || tokens.dtype !== 'int32') {
      throw new TypeError(`logits: tokens must be int32 [N, T], got ${tokens.dtype} [${tokens.shape}]`);
    }
    const [N, T] = tokens.shape;
    return tf.tidy(() => tf.reshape(this.stack.logits(tf.reshape(tokens, [1, N, T])), [N, T, this.config.vocabSize]) as tf.Tensor3D);
  }

  paramCount(): number {
    return this.stack.paramCountPerModel();
  }

  async exportWeights(): Promise<NamedWeight[]> {
    return (await this.stack.exportAll())[0];
  }

  importWeights(weights: NamedWeight[]): void {
    this.stack.importModel(0, weights);
  }

  clone(): Policy {
    return new StackedPolicy(ModelStack.concat([this.stack]));
  }

  dispose(): void {
    this.stack.dispose();
  }
}
