/**
 * A numerical blow-up, found in the stats one GRPO update already reads back (update.ts): no
 * readback of its own. Within an update the quantities come in causal order: the loss, then the
 * gradient computed from it (its global norm before clipping), then the weights Adam wrote from
 * that gradient (the sum of every weight, finite exactly when each is). The first non-finite one,
 * update by update, is what went wrong first: a NaN loss makes a NaN gradient and NaN weights, so
 * only the first is the cause.
 */
import type { GrpoUpdateStats } from './update';

export type NonFiniteQuantity = 'loss' | 'gradient' | 'weight';
export type NonFiniteValue = 'NaN' | 'Infinity' | '-Infinity';

export interface NonFinite {
  quantity: NonFiniteQuantity;
  value: NonFiniteValue;
  /** Which of the batch's updates (0-based; updatesPerBatch > 1 reuses the batch). */
  update: number;
}

/** How a number is not finite, in the words JavaScript prints it; null for a finite number. */
export function nonFiniteValue(x: number): NonFiniteValue | null {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return null;
}

/** The first quantity of a model's updates that is not finite, or null when all are. */
export function firstNonFinite(stats: Pick<GrpoUpdateStats, 'losses' | 'gradNorms' | 'weightSums'>): NonFinite | null {
  for (let u = 0; u < stats.losses.length; u++) {
    const inOrder: [NonFiniteQuantity, number][] = [
      ['loss', stats.losses[u]],
      ['gradient', stats.gradNorms[u]],
      ['weight', stats.weightSums[u]],
    ];
    for (const [quantity, x] of inOrder) {
      const value = nonFiniteValue(x);
      if (value) return { quantity, value, update: u };
    }
  }
  return null;
}
