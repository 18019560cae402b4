/**
 * The lab's WebAssembly modules (gelu.wat, layerNorm.wat, sumAxis.wat) in their builds for a
 * shared memory (tfjs's threaded build, used when the page is cross-origin isolated): they
 * instantiate on a shared WebAssembly.Memory and compute what the JavaScript twins compute.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { GELU_ATTRS } from '../../core/models/fusedGelu';
import { GELU_GRAD_WASM, GELU_PRE_WASM, geluGradJs, geluPreJs } from './gelu';
import { instantiateOn } from './heap';
import { LN_APPLY, LN_STATS, applyNorm, rowStats } from './layerNorm';
import { SUM_MIDDLE } from './sum';

const bitsOf = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe('the shared-memory builds', () => {
  const memory = new WebAssembly.Memory({ initial: 4, maximum: 16, shared: true });
  const f32 = new Float32Array(memory.buffer);
  const rng = new Rng(17);
  const put = (at: number, values: Float32Array) => f32.set(values, at / 4);
  const read = (at: number, n: number) => bitsOf(new Float32Array(memory.buffer, at, n));

  it('instantiate on a shared memory', () => {
    expect(memory.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('the GELU kernels equal their JavaScript twins', () => {
    const n = 1031;
    const x = Float32Array.from({ length: n }, () => rng.normal() * 3);
    const dy = Float32Array.from({ length: n }, () => rng.normal());
    const s = Float32Array.from({ length: n }, () => rng.next());
    const [px, pdy, ps, pout] = [0, 8192, 16384, 24576];
    put(px, x);
    put(pdy, dy);
    put(ps, s);
    instantiateOn(memory, GELU_PRE_WASM)(px, pout, n, GELU_ATTRS.c1, GELU_ATTRS.c2);
    const pre = new Float32Array(n);
    geluPreJs(x, pre, GELU_ATTRS.c1, GELU_ATTRS.c2);
    expect(read(pout, n)).toEqual(bitsOf(pre));
    instantiateOn(memory, GELU_GRAD_WASM)(pdy, px, ps, pout, n, GELU_ATTRS.c1, GELU_ATTRS.c2);
    const grad = new Float32Array(n);
    geluGradJs(dy, x, s, grad, GELU_ATTRS.c1, GELU_ATTRS.c2);
    expect(read(pout, n)).toEqual(bitsOf(grad));
  });

  it("LabLayerNorm's loops equal their JavaScript twins (rs given: tfjs's Rsqrt is not in them)", () => {
    const [K, rows, d] = [3, 12, 7];
    const x = Float32Array.from({ length: rows * d }, () => 4 + rng.normal());
    const gain = Float32Array.from({ length: K * d }, () => 1 + rng.normal() * 0.2);
    const bias = Float32Array.from({ length: K * d }, () => rng.normal());
    const rs = Float32Array.from({ length: rows }, () => 0.5 + rng.next());
    const [px, pm, pv, prs, pg, pb, py] = [0, 4096, 8192, 12288, 16384, 20480, 24576];
    for (const [at, v] of [[px, x], [prs, rs], [pg, gain], [pb, bias]] as const) put(at, v);
    instantiateOn(memory, LN_STATS)(px, pm, pv, rows, d, 1e-5);
    const [mean, varEps] = [new Float32Array(rows), new Float32Array(rows)];
    rowStats(x, d, mean, varEps, 1e-5);
    expect([read(pm, rows), read(pv, rows)]).toEqual([bitsOf(mean), bitsOf(varEps)]);
    instantiateOn(memory, LN_APPLY)(px, pm, prs, pg, pb, py, rows, d, rows / K);
    const y = new Float32Array(rows * d);
    applyNorm(x, d, mean, rs, gain, bias, y);
    expect(read(py, rows * d)).toEqual(bitsOf(y));
  });

  it('sumMiddle sums each output in order', () => {
    const [outer, r, inner] = [3, 50, 7];
    const x = Float32Array.from({ length: outer * r * inner }, () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 8 - 4));
    put(0, x);
    const pout = 8192;
    instantiateOn(memory, SUM_MIDDLE)(0, pout, outer, r, inner);
    const want = new Float32Array(outer * inner);
    for (let o = 0; o < outer; o++)
      for (let j = 0; j < inner; j++) {
        let s = 0;
        for (let k = 0; k < r; k++) s = Math.fround(s + x[(o * r + k) * inner + j]);
        want[o * inner + j] = s;
      }
    expect(read(pout, outer * inner)).toEqual(bitsOf(want));
  });
});
