/**
 * A tiny computation that proves a backend computes and differentiates: one matMul and one SGD
 * step of a 2-layer ReLU net on fixed data (no randomness, so every backend sees the same numbers).
 * Reads back only with `await data()` (never dataSync: it can lose the WebGPU device; docs/TFJS-AND-BROWSER.md) and
 * disposes everything it creates.
 */
import * as tf from '@tensorflow/tfjs';

export interface ProbeResult {
  /** [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]]. */
  matMul: number[];
  lossBefore: number;
  lossAfter: number;
  /** Sum of |gradient| over both weight matrices. */
  gradNorm1: number;
  /** Milliseconds for the whole probe, readback included. */
  ms: number;
  /** Tensors alive after the probe minus before (0 = no leak). */
  leakedTensors: number;
}

const X = [
  [0.5, -1.0, 0.25],
  [1.5, 0.5, -0.75],
  [-0.5, 2.0, 1.0],
  [1.0, 1.0, 1.0],
];
const Y = [[1.0], [-1.0], [0.5], [2.0]];
const HIDDEN = 8;

function fixedMatrix(rows: number, cols: number, scale: number, phase: number): number[][] {
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => scale * Math.sin(phase + 1.7 * i + 0.9 * j)),
  );
}

async function probeOnce(learningRate: number): Promise<Omit<ProbeResult, 'ms' | 'leakedTensors'>> {

  const a = tf.tensor2d([
    [1, 2],
    [3, 4],
  ]);
  const b = tf.tensor2d([
    [5, 6],
    [7, 8],
  ]);
  const product = tf.matMul(a, b);

  const x = tf.tensor2d(X);
  const y = tf.tensor2d(Y);
  // tidy disposes the initial-value tensors; the variables survive it.
  const w1 = tf.tidy(() => tf.variable(tf.tensor2d(fixedMatrix(3, HIDDEN, 0.5, 0.1)), true));
  const w2 = tf.tidy(() => tf.variable(tf.tensor2d(fixedMatrix(HIDDEN, 1, 0.5, 0.7)), true));
  const loss = () => tf.tidy(() => tf.mean(tf.square(tf.sub(tf.matMul(tf.relu(tf.matMul(x, w1)), w2), y))) as tf.Scalar);

  try {
    const { value: before, grads } = tf.variableGrads(loss, [w1, w2]);
    const gradNorm = tf.tidy(() => tf.addN([tf.sum(tf.abs(grads[w1.name]!)), tf.sum(tf.abs(grads[w2.name]!))]));
    tf.tidy(() => {
      w1.assign(tf.sub(w1, tf.mul(grads[w1.name]!, learningRate)));
      w2.assign(tf.sub(w2, tf.mul(grads[w2.name]!, learningRate)));
    });
    const after = loss();
    const [productValues, beforeValue, afterValue, gradNormValue] = await Promise.all([
      product.data(),
      before.data(),
      after.data(),
      gradNorm.data(),
    ]);
    tf.dispose([before, after, gradNorm, ...Object.values(grads)]);
    return {
      matMul: Array.from(productValues),
      lossBefore: beforeValue[0]!,
      lossAfter: afterValue[0]!,
      gradNorm1: gradNormValue[0]!,
    };
  } finally {
    tf.dispose([a, b, product, x, y, w1, w2]);
  }
}

/** Run the probe on the active backend; rejects if the backend throws. */
export async function runProbe(learningRate = 0.05): Promise<ProbeResult> {
  const start = performance.now();
  const tensorsBefore = tf.memory().numTensors;
  const result = await probeOnce(learningRate);
  return {
    ...result,
    ms: Math.round(performance.now() - start),
    leakedTensors: tf.memory().numTensors - tensorsBefore,
  };
}

/** True when the probe's numbers are what any correct backend must produce. */
export function probeLooksRight(r: ProbeResult): boolean {
  const expected = [19, 22, 43, 50];
  return (
    r.matMul.length === 4 &&
    r.matMul.every((v, i) => Math.abs(v - expected[i]!) < 1e-3) &&
    Number.isFinite(r.lossBefore) &&
    Number.isFinite(r.lossAfter) &&
    r.gradNorm1 > 0 &&
    r.lossAfter < r.lossBefore &&
    r.leakedTensors === 0
  );
}
