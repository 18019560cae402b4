import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { countParams, createPolicy, DEFAULT_SIZES, describePolicy } from './index';
import type { Family, Policy, PolicyConfig } from './index';

// Tiny configs: big enough to exercise every code path (2 layers, 2 heads, window > 1).
const V = 12;
const MAXLEN = 12;
const CONFIGS: Record<Family, PolicyConfig> = {
  transformer: { family: 'transformer', vocabSize: V, maxLen: MAXLEN, dModel: 16, layers: 2, heads: 2 },
  gru: { family: 'gru', vocabSize: V, maxLen: MAXLEN, dModel: 16, layers: 2 },
  mlp: { family: 'mlp', vocabSize: V, maxLen: MAXLEN, dModel: 16, layers: 2, window: 3 },
};
const FAMILIES = Object.keys(CONFIGS) as Family[];
const BACKENDS = ['cpu', 'wasm'];

// Ops without a gradient on some backend (docs/TFJS-AND-BROWSER.md): a forward+backward must never run them.
const FORBIDDEN_KERNELS = ['GatherV2', 'GatherNd', 'StridedSlice', 'TopK', 'Conv2D', 'Conv2DBackpropFilter', 'UnsortedSegmentSum'];

/** 8 random sequences of length 8 from a seeded stream. */
function batch(seed: number, n = 8, t = 8): number[][] {
  const rng = new Rng(seed, 'batch');
  return Array.from({ length: n }, () => Array.from({ length: t }, () => rng.int(V)));
}
const tok = (rows: number[][]) => tf.tensor2d(rows, [rows.length, rows[0].length], 'int32');

/** Mean next-token cross-entropy: logits at t predict token t+1. */
function nextTokenLoss(policy: Policy, tokens: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => {
    const [n, t] = tokens.shape;
    const logp = tf.logSoftmax(tf.slice(policy.logits(tokens), [0, 0, 0], [n, t - 1, V])); // [N, T-1, V]
    const target = tf.cast(tf.oneHot(tf.slice(tokens, [0, 1], [n, t - 1]), V), 'float32'); // [N, T-1, V]
    return tf.neg(tf.mean(tf.sum(tf.mul(logp, target), -1))) as tf.Scalar;
  });
}

async function logitsOf(policy: Policy, rows: number[][]): Promise<Float32Array> {
  const t = tok(rows);
  const out = policy.logits(t);
  const values = (await out.data()) as Float32Array;
  tf.dispose([t, out]);
  return values;
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

function adamSteps(policy: Policy, tokens: tf.Tensor2D, steps: number, lr = 1e-2): void {
  const opt = tf.train.adam(lr);
  for (let i = 0; i < steps; i++) {
    opt.minimize(() => nextTokenLoss(policy, tokens), false, policy.variables); // returns null
  }
  opt.dispose();
}

for (const backend of BACKENDS) {
  describe(`policies on ${backend}`, () => {
    beforeAll(async () => {
      expect(await tf.setBackend(backend)).toBe(true);
    });

    for (const family of FAMILIES) {
      const config = CONFIGS[family];

      describe(family, () => {
        it('maps int32 [N, T] to logits [N, T, V], for any T <= maxLen', () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          for (const [n, t] of [[3, 5], [1, 1], [2, MAXLEN]]) {
            const x = tf.zeros([n, t], 'int32') as tf.Tensor2D;
            const y = p.logits(x);
            expect(y.shape).toEqual([n, t, V]);
            expect(y.dtype).toBe('float32');
            tf.dispose([x, y]);
          }
          expect(() => p.logits(tf.zeros([1, MAXLEN + 1], 'int32') as tf.Tensor2D)).toThrow(/maxLen/);
          expect(() => p.logits(tf.zeros([1, 3]) as tf.Tensor2D)).toThrow(/int32/);
          p.dispose();
        });

        it('is causal: changing tokens after t leaves logits at positions <= t unchanged', async () => {
          const p = createPolicy(config, new Rng(2, 'init'));
          const T = 8;
          const base = batch(3, 2, T);
          const ref = await logitsOf(p, base);
          for (let t = 0; t < T - 1; t++) {
            // Replace every token after t by a different one.
            const changed = base.map((row) => row.map((v, j) => (j > t ? (v + 1 + j) % V : v)));
            const out = await logitsOf(p, changed);
            for (let n = 0; n < 2; n++) {
              const at = (arr: Float32Array, j: number) => arr.subarray((n * T + j) * V, (n * T + j + 1) * V);
              for (let j = 0; j <= t; j++) expect(maxAbsDiff(at(out, j), at(ref, j))).toBeLessThan(1e-6);
              // ...and the test can see a change: position t+1 reads the changed token.
              expect(maxAbsDiff(at(out, t + 1), at(ref, t + 1))).toBeGreaterThan(1e-5);
            }
          }
          p.dispose();
        });

        it('initialises deterministically from the seed stream', async () => {
          const a = await createPolicy(config, new Rng(5, 'init/A')).exportWeights();
          const b = await createPolicy(config, new Rng(5, 'init/A')).exportWeights();
          const c = await createPolicy(config, new Rng(6, 'init/A')).exportWeights();
          const d = await createPolicy(config, new Rng(5, 'init/B')).exportWeights();
          expect(b).toEqual(a); // bit-identical
          const random = a.filter((w) => new Set(w.values).size > 1); // skip zeros/ones inits
          expect(random.length).toBeGreaterThan(0);
          for (const other of [c, d]) {
            for (const w of random) {
              const o = other.find((x) => x.name === w.name)!;
              expect(maxAbsDiff(o.values, w.values)).toBeGreaterThan(0);
            }
          }
        });

        it('paramCount is the sum of the variable sizes and of the exported values', async () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          const sum = p.variables.reduce((s, v) => s + v.shape.reduce((x, y) => x * y, 1), 0);
          expect(p.paramCount()).toBe(sum);
          expect(countParams(config)).toBe(sum);
          const exported = await p.exportWeights();
          expect(exported.reduce((s, w) => s + w.values.length, 0)).toBe(sum);
          expect(new Set(exported.map((w) => w.name)).size).toBe(exported.length);
          p.dispose();
        });

        it('export then import into another instance gives identical logits', async () => {
          const rows = batch(4);
          const a = createPolicy(config, new Rng(1, 'init'));
          const b = createPolicy(config, new Rng(2, 'init'));
          const weights = await a.exportWeights();
          expect(maxAbsDiff(await logitsOf(a, rows), await logitsOf(b, rows))).toBeGreaterThan(0);
          b.importWeights(weights);
          expect(await logitsOf(b, rows)).toEqual(await logitsOf(a, rows));
          // The exported arrays are copies: scribbling on them changes neither policy.
          const before = await logitsOf(a, rows);
          weights.forEach((w) => w.values.fill(3));
          expect(await logitsOf(a, rows)).toEqual(before);
          expect(await logitsOf(b, rows)).toEqual(before);
          a.dispose();
          b.dispose();
        });

        it('rejects a bad import with a clear error and keeps its weights', async () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          const good = await p.exportWeights();
          const rows = batch(4);
          const before = await logitsOf(p, rows);
          const [first, ...rest] = good;
          const bad = (w: typeof good) => () => p.importWeights(w);
          expect(bad(rest)).toThrow(`missing weight "${first.name}"`);
          expect(bad([...good, { ...first, name: 'nope' }])).toThrow(/unknown weight\(s\) nope/);
          expect(bad([...good, first])).toThrow(/appears twice/);
          expect(bad([{ ...first, shape: [first.values.length, 1] }, ...rest])).toThrow(/has shape/);
          expect(bad([{ ...first, values: first.values.slice(1) }, ...rest])).toThrow(/values, expected/);
          const nan = Float32Array.from(first.values);
          nan[0] = NaN;
          // The bad weight comes last, so a non-atomic import would already have written the others.
          expect(bad([...rest.map((w) => ({ ...w, values: w.values.map((v) => v + 1) })), { ...first, values: nan }])).toThrow(/non-finite/);
          expect(await logitsOf(p, rows)).toEqual(before);
          p.dispose();
        });

        it('clone has the same weights and trains independently', async () => {
          const rows = batch(5);
          const x = tok(rows);
          const p = createPolicy(config, new Rng(1, 'init'));
          const before = await p.exportWeights();
          const c = p.clone();
          expect(await c.exportWeights()).toEqual(before);
          expect(c.variables.map((v) => v.name)).not.toEqual(p.variables.map((v) => v.name));
          adamSteps(c, x, 3);
          expect(await p.exportWeights()).toEqual(before);
          expect(maxAbsDiff(await logitsOf(c, rows), await logitsOf(p, rows))).toBeGreaterThan(0);
          // Disposing the original leaves the clone usable, and vice versa.
          const cLogits = await logitsOf(c, rows);
          p.dispose();
          expect(await logitsOf(c, rows)).toEqual(cLogits);
          expect(() => p.logits(x)).toThrow(/after dispose/);
          c.dispose();
          x.dispose();
        });

        it('gives a finite, non-zero gradient for every variable, with no forbidden kernel', async () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          const x = tok(batch(6));
          let grads: Record<string, tf.Tensor> = {};
          const profile = await tf.profile(() => {
            grads = tf.variableGrads(() => nextTokenLoss(p, x), p.variables).grads;
          });
          const kernels = new Set(profile.kernels.map((k) => k.name));
          for (const k of FORBIDDEN_KERNELS) expect(kernels.has(k), k).toBe(false);
          expect(Object.keys(grads).sort()).toEqual(p.variables.map((v) => v.name).sort());
          for (const v of p.variables) {
            const g = await grads[v.name].data();
            expect(g.every(Number.isFinite), v.name).toBe(true);
            expect(maxAbsDiff(g, new Float32Array(g.length)), v.name).toBeGreaterThan(0);
          }
          tf.dispose(Object.values(grads));
          x.dispose();
          p.dispose();
        });

        it('overfits a fixed batch: 60 Adam steps cut the next-token loss below a quarter', async () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          const x = tok(batch(7));
          const lossNow = async () => {
            const l = nextTokenLoss(p, x);
            const v = (await l.data())[0];
            l.dispose();
            return v;
          };
          const start = await lossNow();
          expect(start).toBeGreaterThan(0.8 * Math.log(V)); // near uniform at init
          adamSteps(p, x, 60);
          const end = await lossNow();
          expect(end).toBeLessThan(0.25 * start); // measured: 3-8% of start on both backends
          x.dispose();
          p.dispose();
        });

        it('does not leak tensors: forward + backward 5 or 20 times leaves the count flat', () => {
          const p = createPolicy(config, new Rng(1, 'init'));
          const x = tok(batch(8));
          const run = (n: number) => {
            for (let i = 0; i < n; i++) {
              tf.tidy(() => {
                tf.variableGrads(() => nextTokenLoss(p, x), p.variables);
              });
            }
          };
          run(1); // warm-up: builds the cached causal mask
          const n0 = tf.memory().numTensors;
          run(5);
          const n5 = tf.memory().numTensors;
          run(20);
          expect(n5).toBe(n0);
          expect(tf.memory().numTensors).toBe(n0);
          // Cloning and disposing are tensor-neutral too.
          p.clone().dispose();
          expect(tf.memory().numTensors).toBe(n0);
          x.dispose();
          p.dispose();
          expect(tf.memory().numTensors).toBe(n0 - 1 - p.variables.length);
        });
      });
    }
  });
}

describe('cpu and wasm agree', () => {
  for (const family of FAMILIES) {
    it(`${family}: logits within 1e-4`, async () => {
      const rows = batch(9);
      const out: Float32Array[] = [];
      for (const backend of BACKENDS) {
        expect(await tf.setBackend(backend)).toBe(true);
        const p = createPolicy(CONFIGS[family], new Rng(11, 'init'));
        out.push(await logitsOf(p, rows));
        p.dispose();
      }
      expect(maxAbsDiff(out[0], out[1])).toBeLessThan(1e-4);
    });
  }
});

describe('config and labels', () => {
  it('rejects bad configs with the field named', () => {
    const rng = new Rng(1);
    const t = CONFIGS.transformer;
    expect(() => createPolicy({ ...t, heads: 3 }, rng)).toThrow(/dModel 16 is not divisible by heads 3/);
    expect(() => createPolicy({ ...t, layers: 0 }, rng)).toThrow(/layers must be an integer >= 1/);
    expect(() => createPolicy({ ...t, dModel: 8.5 }, rng)).toThrow(/dModel/);
    expect(() => createPolicy({ ...CONFIGS.mlp, window: 0 }, rng)).toThrow(/window/);
    expect(() => createPolicy({ ...t, family: 'lstm' as Family }, rng)).toThrow(/unknown model family "lstm"/);
  });

  it('describes a policy in one short line', () => {
    const task = { vocabSize: 18, maxLen: 20 };
    expect(describePolicy({ ...DEFAULT_SIZES.transformer.small, ...task })).toBe('transformer d32 L2 (27K params)');
    expect(describePolicy({ ...DEFAULT_SIZES.gru.small, ...task })).toBe('gru d48 L1 (16K params)');
    expect(describePolicy({ ...DEFAULT_SIZES.mlp.small, ...task })).toBe('mlp d64 L2 w6 (31K params)');
    expect(describePolicy({ ...CONFIGS.gru, dModel: 4, layers: 1 })).toBe('gru d4 L1 (228 params)');
  });

  it('default sizes have the documented parameter counts', () => {
    const task = { vocabSize: 18, maxLen: 20 };
    const counts = Object.fromEntries(
      FAMILIES.flatMap((f) => (['small', 'medium'] as const).map((s) => [`${f}.${s}`, countParams({ ...DEFAULT_SIZES[f][s], ...task })])),
    );
    expect(counts).toEqual({
      'transformer.small': 27282,
      'transformer.medium': 103698,
      'gru.small': 15858,
      'gru.medium': 52242,
      'mlp.small': 31122,
      'mlp.medium': 86610,
    });
  });
});
