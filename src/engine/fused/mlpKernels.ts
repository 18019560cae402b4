/**
 * The WGSL kernels of the fused MLP step, one small generator each, beside the core function it
 * is checked against (src/engine/fused/mlpStack.test.ts runs both on one device and compares):
 *
 *   fold        Wf = the window's embeddings folded into the first layer      models/mlp.ts foldedFirstWeight
 *   sample      a whole rollout, one workgroup a row, token by token           rollout.ts sampleStack
 *   rowGrad     one predicted position: forward, GRPO loss term, backward      grpo/loss.ts grpoTermsStack + tfjs's tape
 *               down to every layer's pre-activation gradient
 *   paramGrad   dWf and every other weight's gradient, summed over rows        the tape's MatMul/Add gradients
 *   foldGrad    dWf back through the fold to wte and the first layer           the tape through foldedFirstWeight
 *   norm        each model's gradient norm                                     grpo/update.ts perModelNorm
 *   adam        clipping and Adam, elementwise                                 grpo/update.ts clipping + adam.ts
 *   stats       each model's loss, entropy, clip fraction, norm, weight sum    grpo/update.ts's stats row
 *
 * Shapes are constants of the shader text (each shape compiles once). The stack's K models are
 * one batch dimension; model k reads only its own weights. Weights, gradients and the two Adam
 * moments are each ONE packed buffer, variable after variable in the ModelStack's order, each
 * variable [K, ...] as tfjs holds it (`Layout`).
 */
import { PAD_ID, EOS_ID } from '../../core/tasks/tokenizer';
import { GROUP_INDEX } from './gpu';

/** The shapes a stack's kernels are generated for. */
export interface MlpShape {
  /** K: models in the stack. */
  models: number;
  vocab: number;
  dModel: number;
  window: number;
  /** Hidden layers (>= 1). */
  layers: number;
}

/** One variable's place in the packed buffers: elements [offset, offset + K * size). */
export interface Region {
  name: string;
  shape: number[];
  /** Elements per model. */
  size: number;
  offset: number;
}

export interface Layout {
  regions: Region[];
  /** Elements of all K models. */
  total: number;
}

/** The packed layout of a stack's variables (the ModelStack's names and per-model shapes, in order). */
export function layoutOf(models: number, vars: { name: string; shape: number[] }[]): Layout {
  let offset = 0;
  const regions = vars.map(({ name, shape }) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const r = { name, shape, size, offset };
    offset += models * size;
    return r;
  });
  return { regions, total: offset };
}

const WG = 64; // threads a workgroup

const u = (n: number) => `${n}u`;
const f = (x: number) => {
  const s = Math.fround(x).toString();
  return /[.e]/.test(s) ? s : `${s}.0`;
};

/** Constants every kernel shares: shapes, token ids, each variable's offset and size. */
function prelude(s: MlpShape, layout: Layout): string {
  const lines = [
    `const K = ${u(s.models)}; const V = ${u(s.vocab)}; const D = ${u(s.dModel)}; const W = ${u(s.window)}; const LH = ${u(s.layers)};`,
    `const WG = ${u(WG)}; const PAD = ${PAD_ID}; const EOS = ${EOS_ID};`,
  ];
  for (const r of layout.regions) {
    const id = r.name.replace(/\W/g, '_').toUpperCase();
    lines.push(`const OFF_${id} = ${u(r.offset)}; const SIZE_${id} = ${u(r.size)};`);
  }
  return lines.join('\n');
}

/**
 * layers.ts's gelu (tanh form) in the order tfjs evaluates it: x * sigmoid((x + x^3 c1) c2), and
 * its gradient in the order of tfjs's tape (the same steps as src/engine/kernels/gelu.ts's geluGradJs).
 */
const GELU = `
const C1 = ${f(0.044715)}; const C2 = ${f(2 * Math.sqrt(2 / Math.PI))};
fn sigmoid(a: f32) -> f32 { return 1.0 / (1.0 + exp(-a)); }
fn gelu(x: f32) -> f32 { return x * sigmoid((x + ((x * x) * x) * C1) * C2); }
fn gelu_grad(dy: f32, x: f32) -> f32 {
  let g = sigmoid((x + ((x * x) * x) * C1) * C2);
  var acc = dy * g;
  let dinner = ((dy * x) * (g * (1.0 - g))) * C2;
  acc = acc + dinner;
  let dcube = dinner * C1;
  acc = acc + dcube * (x * x);
  let t = (dcube * x) * x;
  acc = acc + t;
  return acc + t;
}`;

/** WGSL names of a variable's offset and size: hidden.1.w -> OFF_HIDDEN_1_W. */
const off = (name: string) => `OFF_${name.replace(/\W/g, '_').toUpperCase()}`;
const size = (name: string) => `SIZE_${name.replace(/\W/g, '_').toUpperCase()}`;
/** theta index of element j of model k's variable `name`. */
const at = (name: string, k: string, j: string) => `${off(name)} + ${k} * ${size(name)} + ${j}`;

/**
 * fold: Wf[k, w*V + v, o] = sum_d wte[k, v, d] * W1[k, w*D + d, o] (mlp.ts foldedFirstWeight: the
 * first layer applied to each window slot's embedding, so a window's first layer is W rows of Wf).
 */
export function foldKernel(s: MlpShape, layout: Layout): string {
  return `${prelude(s, layout)}
@group(0) @binding(0) var<storage, read> theta: array<f32>;
@group(0) @binding(1) var<storage, read_write> wf: array<f32>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let i = group * WG + lid;
  if (i >= K * W * V * D) { return; }
  let k = i / (W * V * D); let r = i % (W * V * D);
  let w = r / (V * D); let v = (r / D) % V; let o = r % D;
  var acc = 0.0;
  for (var d = 0u; d < D; d++) {
    acc += theta[${at('wte', 'k', 'v * D + d')}] * theta[${at('hidden.0.w', 'k', '(w * D + d) * D + o')}];
  }
  wf[i] = acc;
}`;
}

/**
 * The forward pass of one position of model k, its window in `win`, into workgroup memory:
 * act[l*D + o] = gelu(pre_l[o]) for each hidden layer, and z[v] = the logits scaled by the
 * temperature (mlp.ts mlpHead: linearK is x @ w + b). The first layer adds W rows of Wf.
 */
function forwardRow(s: MlpShape, scale: string): string {
  const hidden: string[] = [];
  for (let l = 1; l < s.layers; l++) {
    hidden.push(`
  for (var o = lid; o < D; o += WG) {
    var acc = 0.0;
    for (var i = 0u; i < D; i++) { acc += act[${u((l - 1) * s.dModel)} + i] * theta[${at(`hidden.${l}.w`, 'k', 'i * D + o')}]; }
    pre[${u(l * s.dModel)} + o] = acc + theta[${at(`hidden.${l}.b`, 'k', 'o')}];
    act[${u(l * s.dModel)} + o] = gelu(pre[${u(l * s.dModel)} + o]);
  }
  workgroupBarrier();`);
  }
  const last = u((s.layers - 1) * s.dModel);
  return `
  for (var o = lid; o < D; o += WG) {
    var acc = 0.0;
    for (var w = 0u; w < W; w++) { acc += wf[(k * W * V + w * V + u32(win[w])) * D + o]; }
    pre[o] = acc + theta[${at('hidden.0.b', 'k', 'o')}];
    act[o] = gelu(pre[o]);
  }
  workgroupBarrier();${hidden.join('')}
  for (var v = lid; v < V; v += WG) {
    var acc = 0.0;
    for (var i = 0u; i < D; i++) { acc += act[${last} + i] * theta[${at('head.w', 'k', 'i * V + v')}]; }
    z[v] = (acc + theta[${at('head.b', 'k', 'v')}]) ${scale};
  }
  workgroupBarrier();`;
}

/** log-softmax of z in place (tfjs's LogSoftmax: (z - max) - log(sum exp(z - max))); one thread. */
const LOG_SOFTMAX = `
fn log_softmax_in_place() {
  var mx = z[0];
  for (var v = 1u; v < V; v++) { mx = max(mx, z[v]); }
  var sum = 0.0;
  for (var v = 0u; v < V; v++) { sum += exp(z[v] - mx); }
  let lse = log(sum);
  for (var v = 0u; v < V; v++) { z[v] = (z[v] - mx) - lse; }
}`;

/** Workgroup memory of one row's forward pass. */
function rowMemory(s: MlpShape): string {
  return `
var<workgroup> win: array<i32, ${s.window}>;
var<workgroup> pre: array<f32, ${s.layers * s.dModel}>;
var<workgroup> act: array<f32, ${s.layers * s.dModel}>;
var<workgroup> z: array<f32, ${s.vocab}>;`;
}

export interface SampleShape {
  /** N = B * n_vote rows a model. */
  rows: number;
  /** P: prompt length (BOS included). */
  promptLength: number;
  /** L: new tokens at most. */
  maxNewTokens: number;
  /** 0 = greedy. */
  temperature: number;
}

/**
 * sample: a whole rollout in one launch, one workgroup per (model, row), token by token (rollout.ts
 * sampleStack with mlp.ts's incremental decoding: the state is the window of the last W tokens).
 * Gumbel-max: argmax(z + g), g = -log(-log(u)) with u the experiment's seeded uniforms [K, L, N, V]
 * (model k's own stream, [L, N, V] as rollout.ts draws it). Rows that emitted EOS write PAD and
 * zeros. Output [4, K, N, L]: tokens, log-probs, entropies, self-certainties (rollout.ts's packed readback).
 */
export function sampleKernel(s: MlpShape, layout: Layout, r: SampleShape): string {
  const greedy = r.temperature <= 0;
  const invTemp = greedy ? 1 : 1 / r.temperature;
  return `${prelude(s, layout)}
const N = ${u(r.rows)}; const P = ${u(r.promptLength)}; const L = ${u(r.maxNewTokens)};
${GELU}
@group(0) @binding(0) var<storage, read> theta: array<f32>;
@group(0) @binding(1) var<storage, read> wf: array<f32>;
@group(0) @binding(2) var<storage, read> prompts: array<i32>;
@group(0) @binding(3) var<storage, read> uniforms: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
${rowMemory(s)}
var<workgroup> done: u32;
${LOG_SOFTMAX}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  if (group >= K * N) { return; }
  let k = group / N; let n = group % N;
  if (lid == 0u) {
    // mlp.ts mlpPrefill: the last W tokens of the PAD-padded prompt.
    for (var w = 0u; w < W; w++) {
      let pos = i32(P) - i32(W) + i32(w);
      win[w] = select(PAD, prompts[n * P + u32(max(pos, 0))], pos >= 0);
    }
    done = 0u;
  }
  workgroupBarrier();
  for (var t = 0u; t < L; t++) {
    ${forwardRow(s, `* ${f(invTemp)}`)}
    if (lid == 0u) {
      // Gumbel-max on the scaled logits, before they become log-probs.
      var drawn = 0u;
      var best = -3.0e38;
      for (var v = 0u; v < V; v++) {
        ${greedy ? 'let noisy = z[v];' : 'let noisy = z[v] + -log(-log(uniforms[((k * L + t) * N + n) * V + v]));'}
        if (noisy > best) { best = noisy; drawn = v; }
      }
      log_softmax_in_place();
      var entropy = 0.0;
      var meanLogp = 0.0;
      for (var v = 0u; v < V; v++) { entropy += exp(z[v]) * z[v]; meanLogp += z[v]; }
      let live = select(1.0, 0.0, done != 0u);
      let token = select(i32(drawn), PAD, done != 0u);
      let o = (k * N + n) * L + t;
      out[o] = f32(token);
      out[K * N * L + o] = z[drawn] * live;
      out[2u * K * N * L + o] = -entropy * live;
      out[3u * K * N * L + o] = (-(meanLogp / f32(V)) - ${f(Math.log(s.vocab))}) * live;
      for (var w = 0u; w + 1u < W; w++) { win[w] = win[w + 1u]; }
      win[W - 1u] = token;
      if (token == EOS) { done = 1u; }
    }
    workgroupBarrier();
  }
}`;
}

export interface TrainShape {
  /** N = B * G rows a model. */
  rows: number;
  /** T = P + L tokens a row. */
  length: number;
  /** The first predicted position (P - 1): Lp = T - 1 - from positions a row. */
  from: number;
  temperature: number;
  clipEps: number;
}

/** Floats a training row keeps for paramGrad: act and dpre of every layer, the logits' gradient, 4 stats. */
export const rowStride = (s: MlpShape) => 2 * s.layers * s.dModel + s.vocab + 4;

/**
 * rowGrad: one predicted position (k, n, p) of the GRPO batch, forward and backward.
 *
 * The loss term is grpo/loss.ts's with pi_old = pi_theta (one update a batch: rho = 1 in value):
 * l = -min(rho A, clip(rho, 1-eps, 1+eps) A). Its gradient with respect to log pi is taken as tfjs's
 * tape takes it (Minimum passes dy to its first input where a <= b, ClipByValue where inside the
 * range), times `weight`, the token's share of its model's normalised loss (mask / (N max(|o|, 1))
 * for 'grpo', computed on the CPU from the rollout lengths). Through logSoftmax and the one-hot
 * pick: dz_v = g (onehot_v - p_v), then / T. Then back through the head and the hidden layers
 * (gelu_grad), keeping per row what the weight gradients need: each layer's input activation and
 * pre-activation gradient, the logits' gradient, and the row's stats (weight * l, mask * entropy,
 * mask, mask * clipped).
 *
 * Inputs per row [K*N*Lp, 3]: advantage, weight, mask.
 */
export function rowGradKernel(s: MlpShape, layout: Layout, t: TrainShape): string {
  const Lp = t.length - 1 - t.from;
  const back: string[] = [];
  for (let l = s.layers - 1; l >= 1; l--) {
    back.push(`
  for (var i = lid; i < D; i += WG) {
    var acc = 0.0;
    for (var o = 0u; o < D; o++) { acc += dpre[${u(l * s.dModel)} + o] * theta[${at(`hidden.${l}.w`, 'k', 'i * D + o')}]; }
    dpre[${u((l - 1) * s.dModel)} + i] = gelu_grad(acc, pre[${u((l - 1) * s.dModel)} + i]);
  }
  workgroupBarrier();`);
  }
  const last = u((s.layers - 1) * s.dModel);
  return `${prelude(s, layout)}
const N = ${u(t.rows)}; const T = ${u(t.length)}; const FROM = ${u(t.from)}; const LP = ${u(Lp)};
const STRIDE = ${u(rowStride(s))}; const EPS = ${f(t.clipEps)}; const TEMP = ${f(t.temperature)};
${GELU}
@group(0) @binding(0) var<storage, read> theta: array<f32>;
@group(0) @binding(1) var<storage, read> wf: array<f32>;
@group(0) @binding(2) var<storage, read> tokens: array<i32>;
@group(0) @binding(3) var<storage, read> rowIn: array<f32>;
@group(0) @binding(4) var<storage, read_write> rows: array<f32>;
${rowMemory(s)}
var<workgroup> dpre: array<f32, ${s.layers * s.dModel}>;
var<workgroup> gLogp: f32;
${LOG_SOFTMAX}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  if (group >= K * N * LP) { return; }
  let m = group;
  let k = m / (N * LP); let n = (m / LP) % N; let pos = FROM + m % LP;
  let seq = (k * N + n) * T;
  if (lid == 0u) {
    // mlp.ts mlpForward: slot w holds token pos - (W - 1) + w, PAD before the start.
    for (var w = 0u; w < W; w++) {
      let q = i32(pos) - i32(W) + 1 + i32(w);
      win[w] = select(PAD, tokens[seq + u32(max(q, 0))], q >= 0);
    }
  }
  workgroupBarrier();
  ${forwardRow(s, '/ TEMP')}
  let base = m * STRIDE;
  if (lid == 0u) {
    log_softmax_in_place();
    let next = u32(tokens[seq + pos + 1u]);
    let logp = z[next];
    let A = rowIn[m * 3u]; let weight = rowIn[m * 3u + 1u]; let mask = rowIn[m * 3u + 2u];
    let rho = exp(logp - logp);
    let a = rho * A;
    let inside = rho >= 1.0 - EPS && rho <= 1.0 + EPS;
    let b = clamp(rho, 1.0 - EPS, 1.0 + EPS) * A;
    let dRho = select(select(0.0, -A, inside), -A, a <= b);
    gLogp = weight * dRho * rho;
    var entropy = 0.0;
    for (var v = 0u; v < V; v++) { entropy += exp(z[v]) * z[v]; }
    let clipped = (rho < 1.0 - EPS && A < 0.0) || (rho > 1.0 + EPS && A > 0.0);
    let st = base + 2u * LH * D + V;
    rows[st] = weight * -min(a, b);
    rows[st + 1u] = mask * -entropy;
    rows[st + 2u] = mask;
    rows[st + 3u] = mask * select(0.0, 1.0, clipped);
  }
  workgroupBarrier();
  let next = u32(tokens[seq + pos + 1u]);
  for (var v = lid; v < V; v += WG) {
    let dz = select(0.0, gLogp, v == next) - exp(z[v]) * gLogp;
    rows[base + 2u * LH * D + v] = dz / TEMP;
  }
  workgroupBarrier();
  for (var i = lid; i < D; i += WG) {
    var acc = 0.0;
    for (var v = 0u; v < V; v++) { acc += rows[base + 2u * LH * D + v] * theta[${at('head.w', 'k', 'i * V + v')}]; }
    dpre[${last} + i] = gelu_grad(acc, pre[${last} + i]);
  }
  workgroupBarrier();${back.join('')}
  for (var i = lid; i < LH * D; i += WG) {
    rows[base + i] = act[i];
    rows[base + LH * D + i] = dpre[i];
  }
}`;
}

/**
 * paramGrad: every weight gradient that is a sum over rows, one thread an element (each loops over
 * its model's N*Lp rows): dWf[w*V + v, o] = sum of dpre_0[o] over rows whose window slot w holds v
 * (the one-hot's MatMul gradient), and for every other layer dW = act_in^T dpre, db = sum dpre; the
 * head's from the logits' gradient. dWf goes to `dwf`, the rest to `grads` at their packed places.
 */
export function paramGradKernel(s: MlpShape, layout: Layout, t: TrainShape): string {
  const Lp = t.length - 1 - t.from;
  const D = s.dModel;
  const V = s.vocab;
  const K = s.models;
  // The sums this kernel computes, each over K models: [name, elements a model, WGSL of one row's term].
  const parts: [string, number, string, string][] = [];
  parts.push(['dwf', s.window * V * D, 'let w = j / (V * D); let v = (j / D) % V; let o = j % D;', 'if (slot(seq, pos, w) == i32(v)) { acc += rows[b + LH * D + o]; }']);
  parts.push(['hidden.0.b', D, 'let o = j;', 'acc += rows[b + LH * D + o];']);
  for (let l = 1; l < s.layers; l++) {
    parts.push([`hidden.${l}.w`, D * D, 'let i = j / D; let o = j % D;', `acc += rows[b + ${u((l - 1) * D)} + i] * rows[b + LH * D + ${u(l * D)} + o];`]);
    parts.push([`hidden.${l}.b`, D, 'let o = j;', `acc += rows[b + LH * D + ${u(l * D)} + o];`]);
  }
  parts.push(['head.w', D * V, 'let i = j / V; let v = j % V;', `acc += rows[b + ${u((s.layers - 1) * D)} + i] * rows[b + 2u * LH * D + v];`]);
  parts.push(['head.b', V, 'let v = j;', 'acc += rows[b + 2u * LH * D + v];']);
  let start = 0;
  const branches = parts.map(([name, n, setup, term]) => {
    const from = start;
    start += K * n;
    const dest = name === 'dwf' ? 'dwf[idx]' : `grads[${off(name)} + idx]`;
    return `if (e >= ${u(from)} && e < ${u(start)}) {
    let idx = e - ${u(from)}; let k = idx / ${u(n)}; let j = idx % ${u(n)};
    ${setup}
    var acc = 0.0;
    for (var r = 0u; r < N * LP; r++) {
      let m = k * N * LP + r; let b = m * STRIDE;
      let n = r / LP; let seq = (k * N + n) * T; let pos = FROM + r % LP;
      ${term}
    }
    ${dest} = acc;
    return;
  }`;
  });
  return `${prelude(s, layout)}
const N = ${u(t.rows)}; const T = ${u(t.length)}; const FROM = ${u(t.from)}; const LP = ${u(Lp)}; const STRIDE = ${u(rowStride(s))};
@group(0) @binding(0) var<storage, read> tokens: array<i32>;
@group(0) @binding(1) var<storage, read> rows: array<f32>;
@group(0) @binding(2) var<storage, read_write> dwf: array<f32>;
@group(0) @binding(3) var<storage, read_write> grads: array<f32>;
fn slot(seq: u32, pos: u32, w: u32) -> i32 {
  let q = i32(pos) - i32(W) + 1 + i32(w);
  return select(PAD, tokens[seq + u32(max(q, 0))], q >= 0);
}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let e = group * WG + lid;
  ${branches.join(' else ')}
}`;
}

/** Threads paramGrad runs (one an element of its sums). */
export function paramGradThreads(s: MlpShape): number {
  const { models: K, dModel: D, vocab: V } = s;
  return K * (s.window * V * D + D + (s.layers - 1) * (D * D + D) + D * V + V);
}

/**
 * foldGrad: dWf back through the fold (the tape's gradient of foldedFirstWeight's MatMul):
 * dW1[w*D + d, o] = sum_v wte[v, d] dWf[w*V + v, o] and dwte[v, d] = sum_{w, o} dWf[w*V + v, o] W1[w*D + d, o].
 */
export function foldGradKernel(s: MlpShape, layout: Layout): string {
  return `${prelude(s, layout)}
@group(0) @binding(0) var<storage, read> theta: array<f32>;
@group(0) @binding(1) var<storage, read> dwf: array<f32>;
@group(0) @binding(2) var<storage, read_write> grads: array<f32>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let e = group * WG + lid;
  if (e < K * W * D * D) {
    let k = e / (W * D * D); let j = e % (W * D * D);
    let w = j / (D * D); let d = (j / D) % D; let o = j % D;
    var acc = 0.0;
    for (var v = 0u; v < V; v++) { acc += theta[${at('wte', 'k', 'v * D + d')}] * dwf[(k * W * V + w * V + v) * D + o]; }
    grads[${off('hidden.0.w')} + e] = acc;
  } else if (e < K * W * D * D + K * V * D) {
    let idx = e - K * W * D * D;
    let k = idx / (V * D); let v = (idx / D) % V; let d = idx % D;
    var acc = 0.0;
    for (var w = 0u; w < W; w++) {
      for (var o = 0u; o < D; o++) { acc += dwf[(k * W * V + w * V + v) * D + o] * theta[${at('hidden.0.w', 'k', '(w * D + d) * D + o')}]; }
    }
    grads[${off('wte')} + idx] = acc;
  }
}`;
}

/** Each model's elements, variable by variable: a WGSL loop body over element index `e` of model k. */
function eachElementOfModel(layout: Layout, body: string): string {
  return layout.regions
    .map((r) => `for (var j = lid; j < ${u(r.size)}; j += WG) { let e = ${u(r.offset)} + k * ${u(r.size)} + j; ${body} }`)
    .join('\n  ');
}

/** A workgroup sum of `acc` (WG threads) into red[0]. */
const REDUCE = `
  red[lid] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }`;

/** norm: each model's gradient L2 norm, one workgroup a model (grpo/update.ts perModelNorm). Writes small[k]. */
export function normKernel(s: MlpShape, layout: Layout): string {
  return `${prelude(s, layout)}
@group(0) @binding(0) var<storage, read> grads: array<f32>;
@group(0) @binding(1) var<storage, read_write> small: array<f32>;
var<workgroup> red: array<f32, ${WG}>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let k = group;
  var acc = 0.0;
  ${eachElementOfModel(layout, 'acc += grads[e] * grads[e];')}
  ${REDUCE}
  if (lid == 0u) { small[k] = sqrt(red[0]); }
}`;
}

export interface AdamShape {
  beta1: number;
  beta2: number;
  epsilon: number;
  /** 0 = no clipping. */
  maxGradNorm: number;
}

/**
 * adam: clip each model's gradient by max_norm / (norm + 1e-6) when below 1 (torch's
 * clip_grad_norm_, grpo/update.ts), then adam.ts's update, elementwise, in its order:
 * m = m b1 + g (1 - b1); v = v b2 + g^2 (1 - b2); x = x - m / (sqrt(v) + eps) * stepSize, with
 * stepSize = lr sqrt(1 - b2^t) / (1 - b1^t) computed in double on the CPU (small[K]).
 */
export function adamKernel(s: MlpShape, layout: Layout, a: AdamShape): string {
  const regionOf = layout.regions
    .map((r) => `if (e < ${u(r.offset + s.models * r.size)}) { return (e - ${u(r.offset)}) / ${u(r.size)}; }`)
    .join('\n  ');
  return `${prelude(s, layout)}
const TOTAL = ${u(layout.total)};
@group(0) @binding(0) var<storage, read_write> theta: array<f32>;
@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read_write> m1: array<f32>;
@group(0) @binding(3) var<storage, read_write> m2: array<f32>;
@group(0) @binding(4) var<storage, read> small: array<f32>;
fn model_of(e: u32) -> u32 {
  ${regionOf}
  return 0u;
}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let e = group * WG + lid;
  if (e >= TOTAL) { return; }
  ${a.maxGradNorm > 0 ? `let coef = min(${f(a.maxGradNorm)} / (small[model_of(e)] + ${f(1e-6)}), 1.0);\n  let g = grads[e] * coef;` : 'let g = grads[e];'}
  let m = m1[e] * ${f(a.beta1)} + g * ${f(1 - a.beta1)};
  let v = m2[e] * ${f(a.beta2)} + (g * g) * ${f(1 - a.beta2)};
  m1[e] = m;
  m2[e] = v;
  theta[e] = theta[e] - (m / (sqrt(v) + ${f(a.epsilon)})) * small[K];
}`;
}

/**
 * stats: each model's row of grpo/update.ts's stats [loss, policyLoss, kl, clipFraction, entropy,
 * gradNorm, weightSum], one workgroup a model: the loss is the sum of weight * l over its rows
 * (its normalised loss), entropy and clip fraction masked means, kl 0 (beta = 0: not computed),
 * and the sum of its weights after the update (finite exactly when every weight is).
 */
export function statsKernel(s: MlpShape, layout: Layout, t: TrainShape): string {
  const Lp = t.length - 1 - t.from;
  return `${prelude(s, layout)}
const N = ${u(t.rows)}; const LP = ${u(Lp)}; const STRIDE = ${u(rowStride(s))};
@group(0) @binding(0) var<storage, read> theta: array<f32>;
@group(0) @binding(1) var<storage, read> rows: array<f32>;
@group(0) @binding(2) var<storage, read> small: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
var<workgroup> red: array<f32, ${WG}>;
var<workgroup> sums: array<f32, 5>;
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  ${GROUP_INDEX}
  let k = group;
  for (var c = 0u; c < 4u; c++) {
    var acc = 0.0;
    for (var r = lid; r < N * LP; r += WG) { acc += rows[(k * N * LP + r) * STRIDE + 2u * LH * D + V + c]; }
    ${REDUCE}
    if (lid == 0u) { sums[c] = red[0]; }
    workgroupBarrier();
  }
  var acc = 0.0;
  ${eachElementOfModel(layout, 'acc += theta[e];')}
  ${REDUCE}
  if (lid == 0u) {
    let tokens = max(sums[2], 1.0);
    let o = k * 7u;
    stats[o] = sums[0];
    stats[o + 1u] = sums[0];
    stats[o + 2u] = 0.0;
    stats[o + 3u] = sums[3] / tokens;
    stats[o + 4u] = sums[1] / tokens;
    stats[o + 5u] = small[k];
    stats[o + 6u] = red[0];
  }
}`;
}
