import { execFileSync } from 'node:child_process';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { installWasmKernels, withTfjsWasmKernels } from '../wasmKernels';
import { BMM } from './batchMatMul';
import { instantiateOn } from './heap';

beforeAll(async () => {
  await tf.setBackend('wasm');
  installWasmKernels();
});

/**
 * The float32 bits of a result: equal bits, not merely equal numbers (-0 is not 0). Every NaN
 * reads as one pattern: which of two NaNs an add returns (their sign) depends on the order V8
 * gives its operands, which differs even between the loop versions inside tfjs's own kernel,
 * and no op or result file can tell NaNs apart (JSON writes null).
 */
function bits(t: tf.Tensor): number[] {
  return Array.from(new Uint32Array((t.dataSync() as Float32Array).slice().buffer), (u) =>
    (u & 0x7f800000) === 0x7f800000 && (u & 0x7fffff) !== 0 ? 0x7fc00000 : u,
  );
}

/** ours and tfjs-backend-wasm's own kernel on the same inputs: shapes and bits. */
function both(f: () => tf.Tensor) {
  const read = () => {
    const y = f();
    const out = { shape: y.shape, bits: bits(y) };
    y.dispose();
    return out;
  };
  return { ours: read(), theirs: withTfjsWasmKernels(read) };
}

function random(rng: Rng, shape: number[], spread = 1): tf.Tensor {
  const count = shape.reduce((p, d) => p * d, 1);
  return tf.tensor(Float32Array.from({ length: count }, () => (rng.next() * 2 - 1) * spread), shape);
}

describe('our wasm BatchMatMul', () => {
  it('multiplies (hand-checked, both transposes)', () => {
    const a = tf.tensor3d([[[1, 2], [3, 4]], [[0, 1], [1, 0]]]);
    const b = tf.tensor3d([[[5, 6, 7], [8, 9, 10]], [[1, 2, 3], [4, 5, 6]]]);
    const y = tf.matMul(a, b);
    expect(Array.from(y.dataSync())).toEqual([21, 24, 27, 47, 54, 61, 4, 5, 6, 1, 2, 3]);
    const yt = tf.matMul(tf.transpose(a, [0, 2, 1]), tf.transpose(b, [0, 2, 1]), true, true);
    expect(Array.from(yt.dataSync())).toEqual(Array.from(y.dataSync()));
    tf.dispose([a, b, y, yt]);
  });

  it("equals tfjs-backend-wasm's kernel bit for bit at the attention's shapes, forward and backward", () => {
    const rng = new Rng(32);
    // [K*N*H, T, hd] with T 14, hd 8 (peers-teach), and a decoding step's single query.
    for (const [bh, tq, tk, hd] of [[96, 14, 14, 8], [96, 1, 9, 8], [40, 7, 7, 16]]) {
      const q = random(rng, [bh, tq, hd]);
      const k = random(rng, [bh, tk, hd]);
      const v = random(rng, [bh, tk, hd]);
      const att = random(rng, [bh, tq, tk]);
      const dy = random(rng, [bh, tq, hd]);
      const cases: [string, () => tf.Tensor][] = [
        ['q k^T', () => tf.matMul(q, k, false, true)],
        ['att v', () => tf.matMul(att, v)],
        ['dy v^T', () => tf.matMul(dy, v, false, true)],
        ['att^T dy', () => tf.matMul(att, dy, true, false)],
        ['both', () => tf.matMul(k, att, true, true)],
      ];
      for (const [what, f] of cases) {
        const { ours, theirs } = both(f);
        expect(ours, `${what} at ${[bh, tq, tk, hd]}`).toEqual(theirs);
      }
      tf.dispose([q, k, v, att, dy]);
    }
  });

  it('equals it on 200 random shapes: ranks 3-4, K up to 130 (blocks of 48), a broadcast B, special values', () => {
    const rng = new Rng(7);
    const pick = (hi: number) => 1 + Math.floor(rng.next() * hi);
    for (let c = 0; c < 200; c++) {
      const [m, kk, n] = [pick(17), c % 10 === 0 ? pick(130) : pick(20), pick(19)];
      const outer = c % 4 === 3 ? [pick(3), pick(3)] : [pick(5)];
      const tA = rng.next() < 0.5;
      const tB = rng.next() < 0.5;
      const broadcastB = c % 7 === 0;
      const aShape = [...outer, ...(tA ? [kk, m] : [m, kk])];
      const bShape = [...(broadcastB ? outer.map(() => 1) : outer), ...(tB ? [n, kk] : [kk, n])];
      const a = random(rng, aShape, 1 + c);
      const b = random(rng, bShape, 3);
      if (c % 5 === 0) {
        // zeros of both signs, infinities and a NaN reach the sums
        const av = a.dataSync() as Float32Array;
        const special = [0, -0, Infinity, -Infinity, NaN, 1e30, -1e-30];
        const edited = Float32Array.from(av, (x, i) => (i % 11 === 0 ? special[(i / 11) % special.length] : x));
        a.dispose();
        const a2 = tf.tensor(edited, aShape);
        const { ours, theirs } = both(() => tf.matMul(a2, b, tA, tB));
        expect(ours, `case ${c}: ${aShape} x ${bShape} ${tA} ${tB}`).toEqual(theirs);
        tf.dispose([a2, b]);
        continue;
      }
      const { ours, theirs } = both(() => tf.matMul(a, b, tA, tB));
      expect(ours, `case ${c}: ${aShape} x ${bShape} ${tA} ${tB}`).toEqual(theirs);
      tf.dispose([a, b]);
    }
  });

  it('keeps no memory: tensors and heap bytes unchanged after 50 products', () => {
    const rng = new Rng(1);
    const a = random(rng, [12, 14, 8]);
    const b = random(rng, [12, 14, 8]);
    tf.matMul(a, b, false, true).dispose(); // first call instantiates the module
    const before = tf.memory();
    for (let i = 0; i < 50; i++) tf.matMul(a, b, false, true).dispose();
    const after = tf.memory();
    expect(after.numTensors).toBe(before.numTensors);
    expect(after.numBytes).toBe(before.numBytes);
    tf.dispose([a, b]);
  });

  it('the committed binaries equal a fresh build of the .wat files (batchMatMul, copyRows)', () => {
    const out = execFileSync(process.execPath, ['scripts/build-wasm-kernels.mjs', '--check'], { encoding: 'utf8' });
    expect(out).toContain('equals a fresh build');
  });
});

describe("our BatchMatMul's build for a shared memory (tfjs's threaded build, in a cross-origin isolated page)", () => {
  it('computes on a shared memory what the plain build computes on a plain one', () => {
    const rng = new Rng(11);
    const [batch, m, k, n] = [5, 14, 8, 14];
    const a = Float32Array.from({ length: batch * m * k }, () => rng.next() * 2 - 1);
    const b = Float32Array.from({ length: batch * n * k }, () => rng.next() * 2 - 1);
    const run = (memory: WebAssembly.Memory) => {
      const bmm = instantiateOn(memory, BMM);
      const f32 = new Float32Array(memory.buffer);
      const [pa, pb, pout, ppack] = [1024, 8192, 16384, 32768]; // byte addresses inside the first page
      f32.set(a, pa / 4);
      f32.set(b, pb / 4);
      // q k^T: B transposed, so packed
      bmm(pa, pb, pout, ppack, batch, m, k, n, m * k * 4, k * 4, 4, n * k * 4, 4, k * 4);
      return Array.from(new Uint32Array(memory.buffer, pout, batch * m * n));
    };
    const shared = new WebAssembly.Memory({ initial: 1, maximum: 16, shared: true });
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer);
    const plain = run(new WebAssembly.Memory({ initial: 1 }));
    expect(run(shared)).toEqual(plain);
    // and the plain build's numbers are tfjs's: q k^T through tf.matMul on the wasm heap
    const ta = tf.tensor3d(a, [batch, m, k]);
    const tb = tf.tensor3d(b, [batch, n, k]);
    const y = withTfjsWasmKernels(() => tf.matMul(ta, tb, false, true));
    expect(bits(y)).toEqual(plain);
    tf.dispose([ta, tb, y]);
  });
});
