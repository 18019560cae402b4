/**
 * A stack of MLPs trained by the fused WebGPU kernels (mlpKernels.ts) on tfjs's own GPUDevice:
 * the stack's weights, gradients and Adam moments live in persistent packed GPUBuffers, and an
 * RL step is a handful of dispatches in one command encoder, one submit and one readback
 * (docs/ARCHITECTURE.md, "The fused WebGPU step").
 *
 *   const fused = await FusedMlpStack.create(device, stack, adam);   // copies weights and Adam state in
 *   const batches = await fused.sample(prompts, task, difficulty, rolloutOpts);   // = rollout.ts sampleStack
 *   const stats = await fused.update(batches, advantages, updateOpts);           // = grpo/update.ts, Adam included
 *   // or both in one submit and one readback: the update of this step, then the next step's rollouts
 *   const { stats, batches } = await fused.updateThenSample(batches, advantages, updateOpts, next...);
 *   await fused.writeTo(stack, adam);                                             // tfjs holds the weights again
 *
 * It is the core's method (src/core/rollout.ts, grpo/loss.ts, grpo/update.ts, adam.ts) computed
 * another way, and checked against it: mlpStack.test.ts runs both on one device.
 * What it does not compute (more than one update a batch, a KL term) it refuses (`fusedSupports`).
 */
import type { Adam } from '../../core/adam';
import type { ModelStack } from '../../core/models/stack';
import { DEFAULT_WINDOW } from '../../core/models/mlp';
import { assembleBatch, type RolloutBatch, type StackRolloutOptions } from '../../core/rollout';
import type { GrpoUpdateOptions, GrpoUpdateStats } from '../../core/grpo/update';
import type { Task } from '../../core/tasks/types';
import { completionMask } from '../../core/experiment/arm';
import { pipeline, runAndRead, storage, upload, type Dispatch } from './gpu';
import {
  adamKernel,
  foldGradKernel,
  foldKernel,
  layoutOf,
  normKernel,
  paramGradKernel,
  paramGradThreads,
  rowGradKernel,
  rowStride,
  sampleKernel,
  statsKernel,
  type Layout,
  type MlpShape,
  type TrainShape,
} from './mlpKernels';

const WG = 64;
const groups = (threads: number) => Math.ceil(threads / WG);
const STAT_COLUMNS = 7;

/** Why the fused path cannot run this update, or null when it can. */
export function fusedSupports(opts: Pick<GrpoUpdateOptions, 'beta' | 'updatesPerBatch'>, family: string, layers: number): string | null {
  if (family !== 'mlp') return `the fused step has kernels for the MLP family only, not ${family}`;
  if (layers < 1) return 'the fused MLP step needs at least one hidden layer';
  if (opts.beta > 0) return 'the fused step has no KL term (beta > 0)';
  if (opts.updatesPerBatch !== 1) return 'the fused step makes one update a batch (updatesPerBatch = 1)';
  return null;
}

/** A sampling request: the prompts (BOS + prompt, one length) and each model's stream. */
export interface SampleRequest {
  prompts: number[][];
  task: Task;
  difficulty: number;
  opts: StackRolloutOptions;
}

export class FusedMlpStack {
  readonly shape: MlpShape;
  readonly layout: Layout;
  /** Adam's step count (its bias correction), as adam.ts keeps it. */
  step: number;
  private readonly theta: GPUBuffer;
  private readonly grads: GPUBuffer;
  private readonly m1: GPUBuffer;
  private readonly m2: GPUBuffer;
  private readonly wf: GPUBuffer;
  private readonly dwf: GPUBuffer;
  /** [K] gradient norms, then Adam's step size. */
  private readonly small: GPUBuffer;
  private readonly stats: GPUBuffer;
  /** Wf is stale after every Adam step until the next fold. */
  private foldStale = true;
  private readonly scratch = new Map<string, { buffers: GPUBuffer[]; dispatches: Dispatch[] }>();
  private disposed = false;

  private constructor(
    private readonly device: GPUDevice,
    shape: MlpShape,
    names: { name: string; shape: number[] }[],
    private readonly adam: { learningRate: number; beta1: number; beta2: number; epsilon: number },
    step: number,
  ) {
    this.shape = shape;
    this.layout = layoutOf(shape.models, names);
    this.step = step;
    const { total } = this.layout;
    const folded = shape.models * shape.window * shape.vocab * shape.dModel;
    this.theta = storage(device, total, 'fused theta');
    this.grads = storage(device, total, 'fused grads');
    this.m1 = storage(device, total, 'fused adam m');
    this.m2 = storage(device, total, 'fused adam v');
    this.wf = storage(device, folded, 'fused Wf');
    this.dwf = storage(device, folded, 'fused dWf');
    this.small = storage(device, shape.models + 1, 'fused norms');
    this.stats = storage(device, shape.models * STAT_COLUMNS, 'fused stats');
  }

  /**
   * The stack's weights and its optimiser's state copied into the fused buffers (a readback of
   * each variable and moment: once, when the path starts, never a step).
   */
  static async create(device: GPUDevice, stack: ModelStack, adam: Adam): Promise<FusedMlpStack> {
    const c = stack.config;
    if (c.family !== 'mlp') throw new Error(`FusedMlpStack: a ${c.family} stack`);
    const shape: MlpShape = { models: stack.size, vocab: c.vocabSize, dModel: c.dModel, window: c.window ?? DEFAULT_WINDOW, layers: c.layers };
    const names = stack.names.map((name, i) => ({ name, shape: stack.variables[i].shape.slice(1) }));
    const fused = new FusedMlpStack(device, shape, names, adam, adam.step);
    const pack = (parts: Float32Array[]) => {
      const out = new Float32Array(fused.layout.total);
      parts.forEach((p, i) => out.set(p, fused.layout.regions[i].offset));
      return out;
    };
    const weights = await Promise.all(stack.variables.map(async (v) => (await v.data()) as Float32Array));
    const state = await adam.exportState();
    upload(device, fused.theta, pack(weights));
    upload(device, fused.m1, pack(state.m));
    upload(device, fused.m2, pack(state.v));
    return fused;
  }

  /** Every model's rollout of the prompts (rollout.ts sampleStack's batches): one submit, one readback. */
  async sample(prompts: number[][], task: Task, difficulty: number, opts: StackRolloutOptions): Promise<RolloutBatch[]> {
    const req = { prompts, task, difficulty, opts };
    const s = this.prepareSample(req);
    const out = await runAndRead(this.device, [...this.foldIfStale(), ...s.dispatches], [{ buffer: s.out, floats: s.floats }]);
    return this.batches(req, out);
  }

  /** One GRPO update of every model on its rollouts and advantages (grpo/update.ts): one submit, one readback. */
  async update(rollouts: RolloutBatch[], advantages: Float32Array[], opts: GrpoUpdateOptions): Promise<GrpoUpdateStats[]> {
    const u = this.prepareUpdate(rollouts, advantages, opts);
    const out = await runAndRead(this.device, [...this.foldIfStale(), ...u.dispatches, ...this.afterAdam()], [{ buffer: this.stats, floats: this.shape.models * STAT_COLUMNS }]);
    return readStats(out, this.shape.models);
  }

  /**
   * This step's update and the next step's rollouts in ONE submit and ONE readback: the stats of
   * the update and the rollouts sampled with the weights it left.
   */
  async updateThenSample(
    rollouts: RolloutBatch[],
    advantages: Float32Array[],
    opts: GrpoUpdateOptions,
    next: SampleRequest,
  ): Promise<{ stats: GrpoUpdateStats[]; batches: RolloutBatch[] }> {
    const u = this.prepareUpdate(rollouts, advantages, opts);
    const s = this.prepareSample(next);
    const K = this.shape.models;
    const out = await runAndRead(this.device, [...this.foldIfStale(), ...u.dispatches, ...this.afterAdam(), ...this.foldIfStale(), ...s.dispatches], [
      { buffer: this.stats, floats: K * STAT_COLUMNS },
      { buffer: s.out, floats: s.floats },
    ]);
    return { stats: readStats(out.subarray(0, K * STAT_COLUMNS), K), batches: this.batches(next, out.subarray(K * STAT_COLUMNS)) };
  }

  /** The packed weights (tests, and writing back to tfjs): one readback. */
  async readWeights(): Promise<Float32Array[]> {
    const all = await runAndRead(this.device, [], [{ buffer: this.theta, floats: this.layout.total }]);
    return this.layout.regions.map((r) => all.slice(r.offset, r.offset + this.shape.models * r.size));
  }

  /** The packed gradients of the last update, variable by variable (tests). */
  async readGradients(): Promise<Float32Array[]> {
    const all = await runAndRead(this.device, [], [{ buffer: this.grads, floats: this.layout.total }]);
    return this.layout.regions.map((r) => all.slice(r.offset, r.offset + this.shape.models * r.size));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of [this.theta, this.grads, this.m1, this.m2, this.wf, this.dwf, this.small, this.stats]) b.destroy();
    for (const s of this.scratch.values()) s.buffers.forEach((b) => b.destroy());
    this.scratch.clear();
  }

  // ---- recording ------------------------------------------------------------------------------

  private foldIfStale(): Dispatch[] {
    if (!this.foldStale) return [];
    this.foldStale = false;
    const s = this.shape;
    return [{ pipeline: pipeline(this.device, foldKernel(s, this.layout), 'fold'), buffers: [this.theta, this.wf], workgroups: groups(s.models * s.window * s.vocab * s.dModel) }];
  }

  /** After Adam the folded weight no longer matches: the next forward pass folds again. */
  private afterAdam(): Dispatch[] {
    this.foldStale = true;
    return [];
  }

  /** Buffers and dispatches for one shape of work, made once and kept. */
  private cached(key: string, make: () => { buffers: GPUBuffer[]; dispatches: Dispatch[] }) {
    let c = this.scratch.get(key);
    if (!c) this.scratch.set(key, (c = make()));
    return c;
  }

  private prepareSample({ prompts, opts }: SampleRequest) {
    if (this.disposed) throw new Error('FusedMlpStack: used after dispose()');
    const K = this.shape.models;
    if (opts.rngs.length !== K) throw new Error(`sample: ${opts.rngs.length} streams for ${K} models`);
    const B = prompts.length;
    const P = prompts[0]?.length ?? 0;
    if (B === 0 || prompts.some((p) => p.length !== P)) throw new Error('sample: needs prompts of one length');
    const N = B * opts.groupSize;
    const L = opts.maxNewTokens;
    const V = this.shape.vocab;
    const greedy = opts.temperature <= 0;
    const key = `sample ${N} ${P} ${L} ${opts.temperature}`;
    const c = this.cached(key, () => {
      const promptBuf = storage(this.device, N * P, 'fused prompts');
      const uniforms = storage(this.device, greedy ? 1 : K * L * N * V, 'fused uniforms');
      const out = storage(this.device, 4 * K * N * L, 'fused rollouts');
      const code = sampleKernel(this.shape, this.layout, { rows: N, promptLength: P, maxNewTokens: L, temperature: opts.temperature });
      return {
        buffers: [promptBuf, uniforms, out],
        dispatches: [{ pipeline: pipeline(this.device, code, 'sample'), buffers: [this.theta, this.wf, promptBuf, uniforms, out], workgroups: K * N }],
      };
    });
    const [promptBuf, uniforms, out] = c.buffers;
    const rows = new Int32Array(N * P);
    for (let b = 0; b < B; b++) for (let g = 0; g < opts.groupSize; g++) rows.set(prompts[b], (b * opts.groupSize + g) * P);
    upload(this.device, promptBuf, rows);
    // Model k's uniforms exactly as rollout.ts draws them from its stream: [L, N, V].
    if (!greedy) {
      const u = new Float32Array(K * L * N * V);
      opts.rngs.forEach((rng, k) => u.set(rng.uniforms(L * N * V), k * L * N * V));
      upload(this.device, uniforms, u);
    }
    return { dispatches: c.dispatches, out, floats: 4 * K * N * L };
  }

  private batches({ prompts, task, difficulty, opts }: SampleRequest, flat: Float32Array): RolloutBatch[] {
    const K = this.shape.models;
    const B = prompts.length;
    const G = opts.groupSize;
    const P = prompts[0].length;
    const L = opts.maxNewTokens;
    const N = B * G;
    const rows = new Int32Array(N * P);
    for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) rows.set(prompts[b], (b * G + g) * P);
    const KNL = K * N * L;
    return Array.from({ length: K }, (_, k) => {
      const part = (j: number) => flat.slice(j * KNL + k * N * L, j * KNL + (k + 1) * N * L);
      return assembleBatch(B, G, P, L, rows, Int32Array.from(part(0), Math.round), part(1), part(2), part(3), task, difficulty);
    });
  }

  private prepareUpdate(rollouts: RolloutBatch[], advantages: Float32Array[], opts: GrpoUpdateOptions) {
    if (this.disposed) throw new Error('FusedMlpStack: used after dispose()');
    const why = fusedSupports(opts, 'mlp', this.shape.layers);
    if (why) throw new Error(why);
    const K = this.shape.models;
    if (rollouts.length !== K || advantages.length !== K) throw new Error(`update: ${rollouts.length} batches for ${K} models`);
    const r0 = rollouts[0];
    const N = r0.numPrompts * r0.groupSize;
    const T = r0.promptLength + r0.maxNewTokens;
    const from = r0.promptLength - 1;
    const Lp = T - 1 - from;
    const M = K * N * Lp;
    const t: TrainShape = { rows: N, length: T, from, temperature: opts.temperature, clipEps: opts.clipEps };
    const key = `update ${N} ${T} ${from} ${opts.temperature} ${opts.clipEps} ${opts.maxGradNorm}`;
    const s = this.shape;
    const c = this.cached(key, () => {
      const tokens = storage(this.device, K * N * T, 'fused tokens');
      const rowIn = storage(this.device, M * 3, 'fused row inputs');
      const rows = storage(this.device, M * rowStride(s), 'fused rows');
      const adam = { ...this.adam, maxGradNorm: opts.maxGradNorm };
      const L = this.layout;
      const d = (code: string, label: string, buffers: GPUBuffer[], threads: number, perGroup = false): Dispatch => ({
        pipeline: pipeline(this.device, code, label),
        buffers,
        workgroups: perGroup ? threads : groups(threads),
      });
      return {
        buffers: [tokens, rowIn, rows],
        dispatches: [
          d(rowGradKernel(s, L, t), 'rowGrad', [this.theta, this.wf, tokens, rowIn, rows], M, true),
          d(paramGradKernel(s, L, t), 'paramGrad', [tokens, rows, this.dwf, this.grads], paramGradThreads(s)),
          d(foldGradKernel(s, L), 'foldGrad', [this.theta, this.dwf, this.grads], K * (s.window * s.dModel * s.dModel + s.vocab * s.dModel)),
          d(normKernel(s, L), 'norm', [this.grads, this.small], K, true),
          d(adamKernel(s, L, adam), 'adam', [this.theta, this.grads, this.m1, this.m2, this.small], L.total),
          d(statsKernel(s, L, t), 'stats', [this.theta, rows, this.small, this.stats], K, true),
        ],
      };
    });
    const [tokens, rowIn] = c.buffers;
    const seq = new Int32Array(K * N * T);
    rollouts.forEach((r, k) => seq.set(r.sequences, k * N * T));
    upload(this.device, tokens, seq);
    upload(this.device, rowIn, rowInputs(rollouts, advantages, opts, from));
    // adam.ts: the step count is a JS integer and the bias correction is computed in double.
    this.step += 1;
    const { learningRate, beta1, beta2 } = this.adam;
    upload(this.device, this.small, Float32Array.of((learningRate * Math.sqrt(1 - beta2 ** this.step)) / (1 - beta1 ** this.step)), K);
    return { dispatches: c.dispatches };
  }
}

/**
 * Per predicted position (k, n, p): the advantage, the token's share of its model's normalised
 * loss (grpo/loss.ts normaliseTokenSumK: d loss_k / d l_{n,t}) and the completion mask.
 */
export function rowInputs(rollouts: RolloutBatch[], advantages: Float32Array[], opts: Pick<GrpoUpdateOptions, 'normalisation' | 'maxCompletionLength'>, from: number): Float32Array {
  const r0 = rollouts[0];
  const N = r0.numPrompts * r0.groupSize;
  const T = r0.promptLength + r0.maxNewTokens;
  const Lp = T - 1 - from;
  const out = new Float32Array(rollouts.length * N * Lp * 3);
  rollouts.forEach((r, k) => {
    const mask = completionMask(r);
    let total = 0;
    for (let i = from; i < mask.length; i++) if (i % (T - 1) >= from) total += mask[i];
    for (let n = 0; n < N; n++) {
      let count = 0;
      for (let p = 0; p < Lp; p++) count += mask[n * (T - 1) + from + p];
      const scale =
        opts.normalisation === 'grpo' ? 1 / (N * Math.max(count, 1)) : opts.normalisation === 'bnpo' ? 1 / Math.max(total, 1) : 1 / (N * opts.maxCompletionLength);
      for (let p = 0; p < Lp; p++) {
        const m = mask[n * (T - 1) + from + p];
        const at = ((k * N + n) * Lp + p) * 3;
        out[at] = advantages[k][n];
        out[at + 1] = m * scale;
        out[at + 2] = m;
      }
    }
  });
  return out;
}

/** The stats rows [K, 7] as grpo/update.ts readStackUpdateStats returns them (one update, no KL). */
function readStats(v: Float32Array, K: number): GrpoUpdateStats[] {
  return Array.from({ length: K }, (_, k) => {
    const at = (j: number) => v[k * STAT_COLUMNS + j];
    return {
      losses: [at(0)],
      loss: at(0),
      policyLoss: at(1),
      kl: null,
      clipFraction: at(3),
      entropy: at(4),
      gradNorm: at(5),
      gradNorms: [at(5)],
      weightSums: [at(6)],
    };
  });
}
