/**
 * One seeded generator tree. Every random draw in an experiment (problem generation, weight
 * initialisation, warm-start data order, Gumbel noise for sampling, tie-breaking) comes from a
 * named sub-stream of the experiment seed, so the same seed gives the same run.
 *
 * Streams are derived by hashing (seed, path), not by consuming a parent's state, so adding a new
 * stream never shifts the draws of another one. The generator is sfc32 (Chris Doty-Humphrey's
 * Small Fast Counting generator, 128-bit state), seeded through splitmix32.
 */

/** Serialisable state of one stream: four uint32 words. */
export type RngState = [number, number, number, number];

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a hash of a string mixed with a 32-bit seed. */
function hashPath(seed: number, path: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return splitmix32(h)();
}

/** The largest float32 below 1 (1 - 2^-24). */
export const FLOAT32_BELOW_ONE = 1 - 2 ** -24;

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream for `seed` under the stream path `path` (e.g. "init/A"). */
  constructor(readonly seed: number, readonly path = '') {
    const mix = splitmix32(hashPath(seed >>> 0, path));
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.nextUint32(); // warm up the counter
  }

  /** An independent child stream, named; the same name always gives the same stream. */
  child(name: string): Rng {
    return new Rng(this.seed, this.path ? `${this.path}/${name}` : name);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in the open interval (0, 1): safe for log(-log(u)) in Gumbel-max sampling. */
  nextOpen(): number {
    return (this.nextUint32() + 0.5) / 4294967296;
  }

  /** Integer uniform in [0, n). */
  int(n: number): number {
    if (!(n >= 1)) throw new RangeError(`Rng.int needs n >= 1, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = this.nextOpen();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Fisher-Yates shuffle in place; returns the array. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
    return xs;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  /**
   * n uniforms in (0, 1) as a Float32Array (for Gumbel noise uploaded in one go). A double above
   * 1 - 2^-25 rounds to exactly 1 in float32, where -log(-log(u)) is +infinity and would force its
   * token; such draws are clamped to the largest float32 below 1 (about 1 in 2^25 draws).
   */
  uniforms(n: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.min(this.nextOpen(), FLOAT32_BELOW_ONE);
    return out;
  }

  /** n standard normals scaled by `std` (for weight initialisation). */
  normals(n: number, std = 1): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.normal() * std;
    return out;
  }

  getState(): RngState {
    return [this.a, this.b, this.c, this.d];
  }

  setState(s: RngState): void {
    [this.a, this.b, this.c, this.d] = s.map((x) => x >>> 0) as RngState;
  }
}
