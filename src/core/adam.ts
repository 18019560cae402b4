/**
 * Adam (Kingma & Ba, 2015) with explicit, serialisable state.
 *
 * tf.train.adam keeps beta^t as a running product on the device and rebuilds it with pow() when
 * its weights are restored, so a resumed run can drift from the uninterrupted one by an ulp. Here
 * the step count is a JS integer and the bias correction is computed in double precision from it,
 * so a checkpointed-and-resumed run repeats the uninterrupted run exactly.
 */
import * as tf from '@tensorflow/tfjs';

export interface AdamOptions {
  learningRate: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
}

export interface AdamState {
  step: number;
  /** First and second moments, one Float32Array per variable in the variables' order. */
  m: Float32Array[];
  v: Float32Array[];
}

export class Adam {
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  step = 0;
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];

  constructor(
    private readonly variables: tf.Variable[],
    opts: AdamOptions,
  ) {
    this.learningRate = opts.learningRate;
    this.beta1 = opts.beta1 ?? 0.9;
    this.beta2 = opts.beta2 ?? 0.999;
    this.epsilon = opts.epsilon ?? 1e-8;
    // Inside tidy: tf.variable(t) keeps t alive otherwise (one leaked tensor per variable).
    this.m = tf.tidy(() => variables.map((x) => tf.variable(tf.zerosLike(x), false)));
    this.v = tf.tidy(() => variables.map((x) => tf.variable(tf.zerosLike(x), false)));
  }

  /**
   * One update. `grads` is keyed by variable name (what tf.variableGrads returns) or given in the
   * variables' order. The caller keeps ownership of the gradient tensors.
   */
  applyGradients(grads: tf.NamedTensorMap | tf.Tensor[]): void {
    this.step += 1;
    const { beta1: b1, beta2: b2, epsilon } = this;
    const stepSize = (this.learningRate * Math.sqrt(1 - b2 ** this.step)) / (1 - b1 ** this.step);
    tf.tidy(() => {
      this.variables.forEach((x, i) => {
        const g = Array.isArray(grads) ? grads[i] : grads[x.name];
        if (!g) throw new Error(`Adam: no gradient for variable ${x.name}`);
        const m = tf.add(tf.mul(this.m[i], b1), tf.mul(g, 1 - b1));
        const v = tf.add(tf.mul(this.v[i], b2), tf.mul(tf.square(g), 1 - b2));
        this.m[i].assign(m);
        this.v[i].assign(v);
        x.assign(tf.sub(x, tf.mul(tf.div(m, tf.add(tf.sqrt(v), epsilon)), stepSize)));
      });
    });
  }

  async exportState(): Promise<AdamState> {
    const m = await Promise.all(this.m.map(async (t) => (await t.data()) as Float32Array));
    const v = await Promise.all(this.v.map(async (t) => (await t.data()) as Float32Array));
    return { step: this.step, m: m.map((a) => a.slice()), v: v.map((a) => a.slice()) };
  }

  importState(state: AdamState): void {
    if (state.m.length !== this.m.length || state.v.length !== this.v.length) {
      throw new Error(`Adam state has ${state.m.length} moments, expected ${this.m.length}`);
    }
    this.m.forEach((t, i) => {
      if (state.m[i].length !== t.size || state.v[i].length !== t.size) throw new Error(`Adam state: size mismatch at ${i}`);
      tf.tidy(() => {
        t.assign(tf.tensor(state.m[i], t.shape));
        this.v[i].assign(tf.tensor(state.v[i], t.shape));
      });
    });
    this.step = state.step;
  }

  /**
   * For variables stacked on a leading model axis of K models (models/stack.ts): each model's
   * own state, as if it had its own optimiser (Adam is elementwise, and all K step together).
   */
  async exportModelStates(K: number): Promise<AdamState[]> {
    const whole = await this.exportState();
    const part = (a: Float32Array, k: number) => a.slice((k * a.length) / K, ((k + 1) * a.length) / K);
    return Array.from({ length: K }, (_, k) => ({ step: whole.step, m: whole.m.map((a) => part(a, k)), v: whole.v.map((a) => part(a, k)) }));
  }

  /** The inverse of exportModelStates: model k's state from states[k]; all must share one step. */
  importModelStates(states: AdamState[]): void {
    if (states.some((s) => s.step !== states[0].step)) throw new Error('Adam state: the models of a stack must share one step count');
    const join = (pick: (s: AdamState) => Float32Array[], i: number) => {
      const parts = states.map((s) => pick(s)[i]);
      const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    };
    const n = states[0].m.length;
    if (states.some((s) => s.m.length !== n || s.v.length !== n)) throw new Error('Adam state: models disagree on the number of moments');
    this.importState({
      step: states[0].step,
      m: Array.from({ length: n }, (_, i) => join((s) => s.m, i)),
      v: Array.from({ length: n }, (_, i) => join((s) => s.v, i)),
    });
  }

  dispose(): void {
    tf.dispose([...this.m, ...this.v]);
  }
}
