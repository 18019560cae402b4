import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionConfidence, tokenCertainty, tokenEntropy, tokenLogProbs } from './logprobs';
import { type GrpoBatch, type GrpoLossOptions, type LossNormalisation, grpoLoss, grpoTerms } from './loss';
import { BigramPolicy, logSoftmax } from '../testing/bigram-policy';

// V = 4 tokens. Two sequences of T = 4 (BOS = 0):
//   seq 0: 0 1 | 2 3        next tokens 1,2,3; completion = "2 3"  -> mask [0, 1, 1]
//   seq 1: 0 2 | 3 . (pad)  next tokens 2,3,1; completion = "3"    -> mask [0, 1, 0]
const V = 4;
const W = [0.5, -1, 2, 0, 1, 0.3, -0.2, 0.7, -0.4, 1.1, 0, 0.9, 0.2, 0.2, -1.3, 0.6];
const W_REF = W.map((x, i) => x + (i % 3 === 0 ? 0.4 : -0.25));
const TOKENS = [
  [0, 1, 2, 3],
  [0, 2, 3, 1],
];
const MASK = [
  [0, 1, 1],
  [0, 1, 0],
];
const ADV = [1.5, -0.5];
const L_MAX = 4;

/** log pi(next | cur) at temperature, by hand from a bigram matrix. */
function handLogProbs(w: number[], temperature = 1): number[][] {
  return TOKENS.map((seq) =>
    seq.slice(0, -1).map((cur, t) => logSoftmax(w.slice(cur * V, cur * V + V).map((z) => z / temperature))[seq[t + 1]]),
  );
}

/** The whole loss in float64, straight from the formula in loss.ts's header. */
function handLoss(o: { old?: number[][]; beta: number; eps: number; norm: LossNormalisation; temperature?: number }) {
  const lp = handLogProbs(W, o.temperature ?? 1);
  const ref = handLogProbs(W_REF, o.temperature ?? 1);
  const old = o.old ?? lp;
  const perTok = lp.map((row, n) =>
    row.map((l, t) => {
      const rho = Math.exp(l - old[n][t]);
      const A = ADV[n];
      const surrogate = Math.min(rho * A, Math.min(Math.max(rho, 1 - o.eps), 1 + o.eps) * A);
      const d = ref[n][t] - l;
      return -surrogate + o.beta * (Math.exp(d) - d - 1);
    }),
  );
  const rowSum = (n: number) => perTok[n].reduce((s, x, t) => s + x * MASK[n][t], 0);
  const len = (n: number) => MASK[n].reduce((s, x) => s + x, 0);
  const N = TOKENS.length;
  if (o.norm === 'grpo') return (rowSum(0) / len(0) + rowSum(1) / len(1)) / N;
  if (o.norm === 'bnpo') return (rowSum(0) + rowSum(1)) / (len(0) + len(1));
  return (rowSum(0) + rowSum(1)) / (N * L_MAX);
}

const opts = (o: Partial<GrpoLossOptions> = {}): GrpoLossOptions => ({
  temperature: 1,
  clipEps: 0.2,
  beta: 0,
  normalisation: 'grpo',
  maxCompletionLength: L_MAX,
  ...o,
});

let policy: BigramPolicy;
let refPolicy: BigramPolicy;
let batch: GrpoBatch;

beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
  policy = new BigramPolicy(V, W);
  refPolicy = new BigramPolicy(V, W_REF);
  batch = {
    tokens: tf.tensor2d(TOKENS, [2, 4], 'int32'),
    completionMask: tf.tensor2d(MASK),
    advantages: tf.tensor1d(ADV),
  };
});

afterAll(() => {
  tf.dispose([batch.tokens, batch.completionMask, batch.advantages]);
  policy.dispose();
  refPolicy.dispose();
});

async function value(t: tf.Tensor): Promise<number> {
  const v = (await t.data())[0];
  t.dispose();
  return v;
}

describe('per-token helpers', () => {
  it('tokenLogProbs picks log softmax(logits / T) of the next token', async () => {
    for (const temperature of [1, 2]) {
      const lp = tokenLogProbs(policy, batch.tokens, temperature);
      expect(lp.shape).toEqual([2, 3]);
      const got = (await lp.array()) as number[][];
      lp.dispose();
      const want = handLogProbs(W, temperature);
      want.forEach((row, n) => row.forEach((x, t) => expect(got[n][t]).toBeCloseTo(x, 5)));
    }
  });

  it('tokenEntropy and tokenCertainty: uniform gives log V and 0; a peaked row matches by hand', async () => {
    const z = [0, 0, 0, 0, 3, 1, 0, -2];
    const logits = tf.tensor3d(z, [1, 2, 4]);
    const [h, c] = [tokenEntropy(logits), tokenCertainty(logits)];
    const [hv, cv] = [await h.data(), await c.data()];
    tf.dispose([logits, h, c]);
    const lp = logSoftmax([3, 1, 0, -2]);
    expect(hv[0]).toBeCloseTo(Math.log(4), 5);
    expect(cv[0]).toBeCloseTo(0, 5);
    expect(hv[1]).toBeCloseTo(-lp.reduce((s, l) => s + Math.exp(l) * l, 0), 5);
    expect(cv[1]).toBeCloseTo(-Math.log(4) - lp.reduce((s, l) => s + l, 0) / 4, 5);
  });

  it('completionConfidence averages over completion tokens only', async () => {
    const { entropy, certainty } = completionConfidence(policy, batch.tokens, batch.completionMask);
    const [h, c] = [await entropy.data(), await certainty.data()];
    tf.dispose([entropy, certainty]);
    const rowH = (cur: number) => {
      const lp = logSoftmax(W.slice(cur * V, cur * V + V));
      return -lp.reduce((s, l) => s + Math.exp(l) * l, 0);
    };
    const rowC = (cur: number) => -Math.log(V) - logSoftmax(W.slice(cur * V, cur * V + V)).reduce((s, l) => s + l, 0) / V;
    // seq 0 predicts from tokens 1 and 2; seq 1 from token 2 only.
    expect(h[0]).toBeCloseTo((rowH(1) + rowH(2)) / 2, 5);
    expect(h[1]).toBeCloseTo(rowH(2), 5);
    expect(c[0]).toBeCloseTo((rowC(1) + rowC(2)) / 2, 5);
    expect(c[1]).toBeCloseTo(rowC(2), 5);
  });
});

describe('grpoLoss', () => {
  it('with rho = 1 and beta = 0 equals -normalised(A) for each normalisation', async () => {
    // grpo: -(1.5 + (-0.5)) / 2; bnpo: -(1.5 * 2 - 0.5 * 1) / 3; dr_grpo: -(3 - 0.5) / (2 * 4)
    expect(await value(grpoLoss(policy, batch, opts({ normalisation: 'grpo' })))).toBeCloseTo(-0.5, 6);
    expect(await value(grpoLoss(policy, batch, opts({ normalisation: 'bnpo' })))).toBeCloseTo(-2.5 / 3, 6);
    expect(await value(grpoLoss(policy, batch, opts({ normalisation: 'dr_grpo' })))).toBeCloseTo(-2.5 / 8, 6);
  });

  it('matches the hand-computed loss with old log-probs, clipping and KL, for each normalisation', async () => {
    const lp = handLogProbs(W);
    // rho = e^0.5 = 1.65 (clipped for A > 0), e^-0.5 = 0.61 (clipped for A < 0), e^0.1 = 1.105 (inside).
    const shift = [
      [0, 0.5, -0.5],
      [0, -0.5, 0.1],
    ];
    const old = lp.map((row, n) => row.map((l, t) => l - shift[n][t]));
    const b = { ...batch, oldLogProbs: tf.tensor2d(old) };
    for (const normalisation of ['grpo', 'bnpo', 'dr_grpo'] as const) {
      for (const beta of [0, 0.1]) {
        const got = await value(grpoLoss(policy, b, opts({ normalisation, beta }), refPolicy));
        expect(got).toBeCloseTo(handLoss({ old, beta, eps: 0.2, norm: normalisation }), 5);
      }
    }
    // Clip fraction: masked tokens are (0,1) rho 1.65 A>0 -> clipped; (0,2) rho 0.61 A>0 -> not;
    // (1,1) rho 0.61 A<0 -> clipped. 2 of 3.
    const t = grpoTerms(policy, b, opts());
    expect(await value(t.clipFraction)).toBeCloseTo(2 / 3, 6);
    tf.dispose([t.loss, t.policyLoss, t.entropy, b.oldLogProbs]);
    expect(t.kl).toBeNull();
  });

  it('applies the temperature to the log-probs', async () => {
    const got = await value(grpoLoss(policy, batch, opts({ beta: 0.2, temperature: 2 }), refPolicy));
    expect(got).toBeCloseTo(handLoss({ beta: 0.2, eps: 0.2, norm: 'grpo', temperature: 2 }), 5);
  });

  it('clipping stops the gradient: rho = 2 with A > 0 everywhere gives loss -1.2 normalised(A) and zero grads', async () => {
    const lp = tokenLogProbs(policy, batch.tokens);
    const b = { ...batch, advantages: tf.tensor1d([1, 2]), oldLogProbs: tf.sub(lp, Math.log(2)) as tf.Tensor2D };
    const { value: loss, grads } = tf.variableGrads(() => grpoLoss(policy, b, opts()), policy.variables);
    expect(await value(loss)).toBeCloseTo(-1.2 * (1 + 2) / 2, 5);
    const g = await grads[policy.W.name].data();
    expect(Math.max(...Array.from(g, Math.abs))).toBe(0);
    tf.dispose([lp, b.advantages, b.oldLogProbs, grads[policy.W.name]]);
  });

  it('rho = 1 (no oldLogProbs) has the REINFORCE gradient -normalised(A grad log pi)', async () => {
    const f1 = () => grpoLoss(policy, batch, opts({ normalisation: 'bnpo' }));
    const f2 = () =>
      tf.tidy(() => {
        const lp = tokenLogProbs(policy, batch.tokens);
        const s = tf.sum(tf.mul(tf.mul(lp, tf.expandDims(batch.advantages, 1)), batch.completionMask));
        return tf.div(tf.neg(s), tf.sum(batch.completionMask)) as tf.Scalar;
      });
    const g1 = tf.variableGrads(f1, policy.variables);
    const g2 = tf.variableGrads(f2, policy.variables);
    const [a, b] = [await g1.grads[policy.W.name].data(), await g2.grads[policy.W.name].data()];
    expect(Math.max(...Array.from(a, Math.abs))).toBeGreaterThan(0.01);
    a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 6));
    tf.dispose([g1.value, g2.value, ...Object.values(g1.grads), ...Object.values(g2.grads)]);
  });

  it('k3 KL is 0 against an identical reference and positive against a different one', async () => {
    const same = policy.clone();
    const t0 = grpoTerms(policy, batch, opts({ beta: 0.5 }), same);
    expect(await value(t0.kl!)).toBeCloseTo(0, 6);
    expect(await value(t0.loss)).toBeCloseTo(await value(t0.policyLoss), 6);
    tf.dispose([t0.clipFraction, t0.entropy]);
    same.dispose();

    const t1 = grpoTerms(policy, batch, opts({ beta: 0.5 }), refPolicy);
    const [kl, loss, pl] = [await value(t1.kl!), await value(t1.loss), await value(t1.policyLoss)];
    tf.dispose([t1.clipFraction, t1.entropy]);
    expect(kl).toBeGreaterThan(0);
    expect(loss).toBeGreaterThan(pl);
    // Precomputed reference log-probs give the same loss as the reference policy.
    const refLogProbs = tokenLogProbs(refPolicy, batch.tokens);
    expect(await value(grpoLoss(policy, { ...batch, refLogProbs }, opts({ beta: 0.5 })))).toBeCloseTo(loss, 6);
    refLogProbs.dispose();
  });

  it('reports the mean completion-token entropy', async () => {
    const t = grpoTerms(policy, batch, opts());
    const h = (cur: number) => -logSoftmax(W.slice(cur * V, cur * V + V)).reduce((s, l) => s + Math.exp(l) * l, 0);
    // masked positions: seq 0 t=1 (cur 1), t=2 (cur 2); seq 1 t=1 (cur 2)
    expect(await value(t.entropy)).toBeCloseTo((h(1) + 2 * h(2)) / 3, 5);
    tf.dispose([t.loss, t.policyLoss, t.clipFraction]);
  });

  it('rejects bad inputs and leaks nothing', () => {
    const before = tf.memory().numTensors;
    expect(() => grpoLoss(policy, batch, opts({ beta: 0.1 }))).toThrow(/refPolicy/);
    expect(() => grpoLoss(policy, batch, opts({ normalisation: 'dr_grpo', maxCompletionLength: 0 }))).toThrow(RangeError);
    const bad = { ...batch, advantages: tf.tensor1d([1, 2, 3]) };
    expect(() => grpoLoss(policy, bad, opts())).toThrow(RangeError);
    bad.advantages.dispose();
    tf.dispose(grpoLoss(policy, batch, opts({ beta: 0.1 }), refPolicy));
    expect(tf.memory().numTensors).toBe(before);
  });
});
