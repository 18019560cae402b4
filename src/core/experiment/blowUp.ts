/**
 * A numerical blow-up in words for a student: which number of which trained copy stopped being
 * finite, at which step, and what in the spec to change (docs/RELIABILITY.md, "Numerical
 * blow-ups"). The advice comes from the spec: the learning rate, the gradient clip and the KL
 * weight beta are what make an update too large.
 */
import type { NonFiniteQuantity, NonFiniteValue } from '../grpo/nonfinite';
import type { ExperimentSpec } from './spec';

export interface BlowUp {
  step: number;
  armId: string;
  memberId: string;
  quantity: NonFiniteQuantity;
  value: NonFiniteValue;
}

const SUBJECT: Record<NonFiniteQuantity, string> = {
  loss: 'The loss',
  gradient: 'The gradient norm',
  weight: 'A weight',
};

/** The smallest learning rate the spec's schema allows (spec.ts GrpoSpecSchema). */
const MIN_LEARNING_RATE = 1e-6;

/** Two significant digits: 0.30000000000000004 -> "0.3". */
const nice = (x: number) => String(Number(x.toPrecision(2)));
/** A learning rate as people write it: 0.03 -> "3e-2". */
const rate = (x: number) => Number(x.toPrecision(2)).toExponential();

function orList(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
}

/**
 * "The loss of member A in arm self became NaN at step 37. This usually means the learning rate
 * (3e-2) is too high for this model: lower it (try 3e-3), ... then Start again." `alsoAt` names
 * other copies that blew up at the same step.
 */
export function blowUpExplanation(spec: ExperimentSpec, b: BlowUp, alsoAt: { armId: string; memberId: string }[] = []): string {
  const { learningRate: lr, maxGradNorm: clip, beta } = spec.grpo;
  const remedies: string[] = [];
  const lower = Math.max(lr / 10, MIN_LEARNING_RATE);
  if (lower < lr) remedies.push(`lower it (try ${rate(lower)})`);
  if (clip === 0) remedies.push('turn gradient clipping on (max grad norm 1)');
  else if (clip > 0.1) remedies.push(`clip gradients harder (max grad norm ${nice(clip / 2)} instead of ${nice(clip)})`);
  if (beta > 0) remedies.push(`lower the KL weight beta (${nice(beta)}; try ${nice(beta / 10)}), whose penalty grows exponentially as the model leaves its warm start`);
  const what = `${SUBJECT[b.quantity]} of member ${b.memberId} in arm ${b.armId} became ${b.value} at step ${b.step}.`;
  const cause = lower < lr ? `the learning rate (${rate(lr)}) is too high for this model` : `the updates are too large for this model (the learning rate, ${rate(lr)}, is the lowest allowed)`;
  const why =
    remedies.length > 0
      ? ` This usually means ${cause}: ${orList(remedies)}, then Start again.`
      : ` The learning rate (${rate(lr)}) is already the lowest allowed: try another seed or a smaller model, then Start again.`;
  const others = alsoAt.length ? ` At the same step: ${alsoAt.map((o) => `member ${o.memberId} in arm ${o.armId}`).join(', ')}.` : '';
  return what + why + others;
}
