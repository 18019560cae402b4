/**
 * npm run bench:ops [-- --backend wasm|cpu] [--repeats 15]
 *
 * The tfjs kernel costs behind the CPU path's choices (src/core/models/layers.ts, stack.ts): for
 * shapes of the default cohort's GRPO update (B 16 x G 8 rows, 7 completion positions, an MLP of
 * width 64 over a window of 6), the median time of an op against the formulation used instead.
 * A measurement, not a test; docs/BENCHMARKS.md keeps the figures.
 */
import * as tf from '@tensorflow/tfjs';
import { parseArgs, intFlag, runMain, UsageError } from './args';
import { initNodeBackend } from '../src/engine/node-backend';

async function medianMs(repeats: number, f: () => tf.Tensor | tf.Tensor[]): Promise<number> {
  const once = async () => {
    const t0 = performance.now();
    const out = tf.tidy(f);
    const list = Array.isArray(out) ? out : [out];
    await list[list.length - 1].data();
    tf.dispose(list);
    return performance.now() - t0;
  };
  await once();
  await once();
  const ts: number[] = [];
  for (let i = 0; i < repeats; i++) ts.push(await once());
  ts.sort((a, b) => a - b);
  return ts[Math.floor(ts.length / 2)];
}

runMain(async () => {
  const args = parseArgs(process.argv.slice(2), { backend: 'string', repeats: 'string' });
  const backend = String(args.flags.get('backend') ?? 'wasm');
  if (backend !== 'wasm' && backend !== 'cpu') throw new UsageError('--backend: wasm or cpu');
  const repeats = intFlag(args, 'repeats', 1, 200) ?? 15;
  await initNodeBackend(backend, { fallback: false });
  const M = 16 * 8 * 7; // rows of the update: B x G x completion positions
  const K = 6; // models in the collapse preset
  const x = tf.randomNormal([M, 384]) as tf.Tensor2D; // window features: 6 tokens x width 64
  const w = tf.randomNormal([384, 64]) as tf.Tensor2D;
  const dy = tf.randomNormal([M, 64]) as tf.Tensor2D;
  const xs = tf.randomNormal([K, M, 384]) as tf.Tensor3D;
  const ws = tf.randomNormal([K, 384, 64]) as tf.Tensor3D;
  const big = tf.randomNormal([K, M, 64]);
  const rows: [string, string, number, string, number][] = [];
  const pair = async (what: string, a: string, fa: () => tf.Tensor | tf.Tensor[], b: string, fb: () => tf.Tensor | tf.Tensor[]) => {
    rows.push([what, a, await medianMs(repeats, fa), b, await medianMs(repeats, fb)]);
  };
  await pair('weight gradient x^T dY', 'matMul(x, dY, transposeA)', () => tf.matMul(x, dy, true, false), 'matMul(transpose(x), dY)', () => tf.matMul(tf.transpose(x), dy));
  await pair('input gradient dY w^T', 'matMul(dY, w, false, transposeB)', () => tf.matMul(dy, w, false, true), 'matMul(dY, transpose(w))', () => tf.matMul(dy, tf.transpose(w)));
  await pair(`${K} models' first layer`, 'batched matMul [K, M, 384] @ [K, 384, 64]', () => tf.matMul(xs, ws), `split, then ${K} plain matMuls`, () => tf.split(xs, K, 0).map((xk, k) => tf.matMul(tf.reshape(xk, [M, 384]) as tf.Tensor2D, tf.reshape(tf.slice(ws, [k, 0, 0], [1, 384, 64]), [384, 64]) as tf.Tensor2D)));
  await pair(`tanh on [${K}, ${M}, 64]`, 'tanh(x)', () => tf.tanh(big), '2 sigmoid(2x) - 1', () => tf.sub(tf.mul(tf.sigmoid(tf.mul(big, 2)), 2), 1));
  await pair(`one model's rows of [${K}, ${M}, 384]`, 'slice', () => tf.slice(xs, [2, 0, 0], [1, M, 384]), 'a whole copy (clone) of it', () => tf.clone(xs));
  const table = [
    `Backend ${tf.getBackend()}, median of ${repeats} runs after 2 warm-up runs (ms):`,
    '',
    '| what | tfjs as is | ms | used instead | ms |',
    '|---|---|---:|---|---:|',
    ...rows.map(([what, a, ta, b, tb]) => `| ${what} | ${a} | ${ta.toFixed(2)} | ${b} | ${tb.toFixed(2)} |`),
  ].join('\n');
  console.log(table);
  process.exit(0);
}, 'bench:ops');
