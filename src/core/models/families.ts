/**
 * The model families as data: each is a parameter list (name, shape, init) plus pure functions of
 * a parameter record whose tensors carry a leading model axis (stack.ts): the full forward pass
 * and incremental decoding.
 */
import type * as tf from '@tensorflow/tfjs';
import type { DecodeStep, Family, PolicyConfig } from './policy';
import type { ParamSpec, Params } from './layers';
import { transformerDecode, transformerForward, transformerParams, transformerPrefill } from './transformer';
import { gruDecode, gruForward, gruParams, gruPrefill } from './gru';
import { mlpDecode, mlpForward, mlpParams, mlpPrefill } from './mlp';

export interface FamilyDef {
  params(config: PolicyConfig): ParamSpec[];
  /** tokens int32 [K, N, T] -> logits [K, N, T - from, V] at positions from..T-1. */
  forward(params: Params, tokens: tf.Tensor3D, config: PolicyConfig, from?: number): tf.Tensor4D;
  /** prompt [K, N, P] -> logits at its last position, and the decoding state. */
  prefill(params: Params, prompt: tf.Tensor3D, config: PolicyConfig): DecodeStep;
  /** the token [K, N] at position pos -> logits for the next one, and the new state. */
  decode(params: Params, state: tf.Tensor[], token: tf.Tensor2D, pos: number, config: PolicyConfig): DecodeStep;
}

export const FAMILIES: Record<Family, FamilyDef> = {
  transformer: { params: transformerParams, forward: transformerForward, prefill: transformerPrefill, decode: transformerDecode },
  gru: { params: gruParams, forward: gruForward, prefill: gruPrefill, decode: gruDecode },
  mlp: { params: mlpParams, forward: mlpForward, prefill: mlpPrefill, decode: mlpDecode },
};

export function familyOf(config: PolicyConfig): FamilyDef {
  const def = FAMILIES[config.family];
  if (!def) throw new RangeError(`unknown model family "${String(config.family)}"`);
  return def;
}
