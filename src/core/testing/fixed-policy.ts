/**
 * Test doubles whose next-token distribution is known in closed form, so sampler and loss tests
 * can compare against hand-computed probabilities; and the backend set-up for Node tests.
 */
import * as tf from '@tensorflow/tfjs';
import type { Policy } from '../models/policy';
import { BigramPolicy } from './bigram-policy';

/** logits at every position are table[lastToken] (table [V][V]). */
export function bigramPolicy(table: number[][]): Policy {
  return new BigramPolicy(table.length, table.flat());
}

/** Every row the same: the distribution softmax(logits) at every step, whatever came before. */
export function constantPolicy(logits: number[]): Policy {
  return bigramPolicy(logits.map(() => logits));
}

/** Node tests: pick a tfjs backend once per file. */
export async function useBackend(name: 'cpu' | 'wasm'): Promise<void> {
  if (name === 'wasm') await import('@tensorflow/tfjs-backend-wasm');
  const ok = await tf.setBackend(name);
  if (!ok) throw new Error(`tfjs backend ${name} failed to initialise`);
  await tf.ready();
}
