/**
 * npm run bench:ops [-- --backend wasm|cpu] [--repeats 15] [--rounds 9]
 * npm run bench:ops -- --profile-kernels [--case peers-teach] [--steps 4] [--warmup 1] [--alternate all|NAME,...]
 *
 * The tfjs kernel costs behind the CPU path's choices (src/core/models/layers.ts, stack.ts): for
 * shapes of the default cohort's GRPO update (B 16 x G 8 rows, 7 completion positions, an MLP of
 * width 64 over a window of 6), the median time of an op against the formulation used instead.
 * On wasm, the ops run on the kernels the lab registers (src/engine/wasmKernels.ts).
 *
 * Then, on wasm, our own kernels against tfjs-backend-wasm's at the `peers-teach` attention's
 * and KV cache's shapes: in each of --rounds rounds, a batch of calls on ours and the same on tfjs's,
 * in alternating order, in the same process; the table gives each one's median CPU time per call
 * and the median ratio with its range over the rounds (a shared machine's noise shows there).
 * --profile-kernels instead: where an RL step's CPU time goes on wasm with the lab's kernels
 * (kernelProfile.ts): per kernel and per kernel-and-shapes, and the time outside every kernel.
 * --alternate: the steps alternate tfjs's own kernels and ours (all of ours, or those named, e.g.
 * Cast,LabGeluPre,LabGeluGrad), in one run, with a column for each: a before/after table.
 * A measurement, not a test; docs/BENCHMARKS.md keeps the figures.
 */
import * as tf from '@tensorflow/tfjs';
import { parseArgs, intFlag, runMain, UsageError } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { ourWasmKernelNames, useOurWasmKernels, withTfjsWasmKernels } from '../../src/engine/wasmKernels';
import { profileKernels } from './kernelProfile';
import { benchCase, parseCases } from '../../src/core/benchmark/index';
import { gelu } from '../../src/core/models/fusedGelu';
import { layerNormK } from '../../src/core/models/fusedLayerNorm';

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

/**
 * Process CPU ms per call of `f` over `calls` calls (wasm kernels run synchronously: no readback
 * needed). CPU time, not wall time: on a machine shared with other work it moves far less.
 */
function perCall(calls: number, f: () => tf.Tensor): number {
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) tf.tidy(f).dispose(); // tidy: an op chain's intermediates too
  const { user, system } = process.cpuUsage(t0);
  return (user + system) / 1000 / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Our wasm kernels against tfjs-backend-wasm's, interleaved in one process, at the attention's
 * shapes of `peers-teach` (transformers d32 L2 h4, 16 x 8 completions of 7 tokens after a
 * 7-token prompt: [K*N*H, T, hd] = [3584, 14, 8]; a decoding step's one query against 10 keys).
 */
function oursAgainstTfjs(rounds: number): string {
  const BH = 7 * 16 * 8 * 4; // K*N = 896 (7 transformers x 16 x 8 rollouts, the profile's figure) x 4 heads
  const [T, HD, TK] = [14, 8, 10];
  const q = tf.randomNormal([BH, T, HD]);
  const k = tf.randomNormal([BH, T, HD]);
  const v = tf.randomNormal([BH, T, HD]);
  const att = tf.softmax(tf.randomNormal([BH, T, T]));
  const dy = tf.randomNormal([BH, T, HD]);
  const q1 = tf.randomNormal([BH, 1, HD]);
  const kc = tf.randomNormal([BH, TK, HD]);
  const kv = tf.randomNormal([BH / 4, 4, 7, HD]);
  const kv1 = tf.randomNormal([BH / 4, 4, 1, HD]);
  // The block's elementwise chains (fusedGelu.ts, fusedLayerNorm.ts): the MLP's hidden
  // [K, N, T, 4D] = [7, 128, 14, 128]; a decoding step's and the prefill's layer norm inputs.
  const hidden = tf.randomNormal([7, 128, 14, 128]);
  const dHidden = tf.randomNormal([7, 128, 14, 128]);
  const [ln1, ln7] = [tf.randomNormal([7, 128, 1, 32]), tf.randomNormal([7, 128, 7, 32])];
  const [gain, bias] = [tf.randomNormal([7, 32], 1, 0.2), tf.randomNormal([7, 32])];
  const perModel = [tf.randomNormal([1792, 32]), tf.randomNormal([1792, 32])];
  const cases: [string, () => tf.Tensor][] = [
    [`scores q k^T [${BH}, ${T}, ${HD}] (transposeB)`, () => tf.matMul(q, k, false, true)],
    [`att v [${BH}, ${T}, ${T}] @ [${BH}, ${T}, ${HD}]`, () => tf.matMul(att, v)],
    ['d att = dY v^T (transposeB)', () => tf.matMul(dy, v, false, true)],
    ['d v = att^T dY (transposeA)', () => tf.matMul(att, dy, true, false)],
    ['d q = d scores k', () => tf.matMul(att, k)],
    ['d k = d scores^T q (transposeA)', () => tf.matMul(att, q, true, false)],
    [`decoding: q k^T, 1 query, ${TK} keys`, () => tf.matMul(q1, kc, false, true)],
    // Concat: the KV cache gains a position per decoded token, [K*N, H, t, hd] + [K*N, H, 1, hd]
    [`KV cache concat [${BH / 4}, 4, 7, ${HD}] + [${BH / 4}, 4, 1, ${HD}], axis 2`, () => tf.concat([kv, kv1], 2)],
    ['GELU [7, 128, 14, 128] (7 kernels -> 3)', () => gelu(hidden)],
    ['GELU gradient [7, 128, 14, 128] (forward and backward)', () => tf.grad(gelu)(hidden, dHidden)],
    ['layer norm, decoding [7, 128, 1, 32] (14 kernels -> 1)', () => layerNormK(ln1, gain, bias)],
    ['layer norm, prefill [7, 128, 7, 32]', () => layerNormK(ln7, gain, bias)],
    ['stack 7 x [1792, 32] (Pack)', () => tf.stack([...perModel, ...perModel, ...perModel, perModel[0]])],
    ['cast [7, 128, 14, 128] float32 to float32', () => tf.cast(hidden, 'float32')],
    ['bias gradient: sum [7, 1792, 128] over axis 1', () => tf.sum(tf.reshape(hidden, [7, 1792, 128]), 1)],
  ];
  const lines = [
    `Our wasm kernels (src/engine/wasmKernels.ts) against tfjs-backend-wasm's, ${rounds} rounds in alternating order (process CPU ms per call: median of rounds; ratio tfjs / ours: median (min-max)):`,
    '',
    '| op | tfjs-wasm ms | ours ms | tfjs / ours |',
    '|---|---:|---:|---|',
  ];
  for (const [what, f] of cases) {
    // about 40 ms of tfjs's kernel per batch of calls, at least 3 calls
    const probe = withTfjsWasmKernels(() => perCall(2, f));
    const calls = Math.max(3, Math.round(40 / Math.max(probe, 0.01)));
    perCall(calls, f); // warm-up: our module is instantiated on the first call
    const theirs: number[] = [];
    const ours: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const runTheirs = () => theirs.push(withTfjsWasmKernels(() => perCall(calls, f)));
      const runOurs = () => ours.push(perCall(calls, f));
      if (r % 2 === 0) { runTheirs(); runOurs(); } else { runOurs(); runTheirs(); }
    }
    const ratios = theirs.map((t, i) => t / ours[i]);
    lines.push(`| ${what} | ${median(theirs).toFixed(3)} | ${median(ours).toFixed(3)} | ${median(ratios).toFixed(1)}x (${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}) |`);
  }
  tf.dispose([q, k, v, att, dy, q1, kc, kv, kv1, hidden, dHidden, ln1, ln7, gain, bias, ...perModel]);
  return lines.join('\n');
}

runMain(async () => {
  const args = parseArgs(process.argv.slice(2), {
    backend: 'string',
    repeats: 'string',
    rounds: 'string',
    'profile-kernels': 'boolean',
    case: 'string',
    steps: 'string',
    warmup: 'string',
    alternate: 'string',
  });
  const backend = String(args.flags.get('backend') ?? 'wasm');
  if (backend !== 'wasm' && backend !== 'cpu') throw new UsageError('--backend: wasm or cpu');
  const repeats = intFlag(args, 'repeats', 1, 200) ?? 15;
  await initNodeBackend(backend, { fallback: false });
  if (args.flags.has('profile-kernels')) {
    const [id] = parseCases(String(args.flags.get('case') ?? 'peers-teach'));
    const steps = intFlag(args, 'steps', 1, 50) ?? 4;
    const warmup = intFlag(args, 'warmup', 0, 20) ?? 1;
    const names = args.flags.get('alternate') as string | undefined;
    const known = ourWasmKernelNames();
    const chosen = names === 'all' ? known : names?.split(',');
    for (const n of chosen ?? []) if (!known.includes(n)) throw new UsageError(`--alternate: ${n} is not one of ours (${known.join(', ')})`);
    if (chosen && backend !== 'wasm') throw new UsageError('--alternate: wasm only');
    const alternate = chosen ? (ours: boolean) => useOurWasmKernels(ours, chosen) : undefined;
    console.log(await profileKernels(benchCase(id), steps, warmup, (line) => console.error(line), { alternate }));
    process.exit(0);
  }
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
  if (backend === 'wasm') console.log('\n' + oursAgainstTfjs(intFlag(args, 'rounds', 1, 100) ?? 9));
  process.exit(0);
}, 'bench:ops');
