import { describe, expect, it } from 'vitest';
import { trainedSubset, type RolloutBatch } from './rollout';

/**
 * A hand-made batch of B = 2 prompts x n_vote = 3 samples, P = 2, L = 2, where every value names
 * its row: row r (= b*3 + g) holds 100*r + column in the token arrays, r + 0.5 in the float ones.
 */
function batch(): RolloutBatch {
  const B = 2;
  const n = 3;
  const P = 2;
  const L = 2;
  const N = B * n;
  const grid = <A extends Int32Array | Float32Array>(width: number, make: (k: number) => A, at: (r: number, c: number) => number) => {
    const out = make(N * width);
    for (let r = 0; r < N; r++) for (let c = 0; c < width; c++) out[r * width + c] = at(r, c);
    return out;
  };
  return {
    numPrompts: B,
    groupSize: n,
    promptLength: P,
    maxNewTokens: L,
    sequences: grid(P + L, (k) => new Int32Array(k), (r, c) => 100 * r + c),
    completionTokens: grid(L, (k) => new Int32Array(k), (r, c) => 100 * r + c),
    lengths: Int32Array.from({ length: N }, (_, r) => r),
    finished: Uint8Array.from({ length: N }, (_, r) => r % 2),
    logProbs: grid(L, (k) => new Float32Array(k), (r, c) => -(r + 0.5) - c),
    entropies: grid(L, (k) => new Float32Array(k), (r, c) => r + 0.5 + c),
    certainties: grid(L, (k) => new Float32Array(k), (r, c) => 2 * r + c),
    completions: Array.from({ length: N }, (_, r) => (r === 4 ? null : `c${r}`)),
    answers: Array.from({ length: N }, (_, r) => (r === 1 ? null : `a${r}`)),
  };
}

describe('trainedSubset: the first G of each prompt, prompt-major', () => {
  it('slices every per-rollout array to rows 0, 1 (prompt 0) and 3, 4 (prompt 1)', () => {
    const full = batch();
    const t = trainedSubset(full, 2);
    const rows = [0, 1, 3, 4];
    const pick = (xs: ArrayLike<number>, width: number) => rows.flatMap((r) => Array.from({ length: width }, (_, c) => xs[r * width + c]));
    expect([t.numPrompts, t.groupSize, t.promptLength, t.maxNewTokens]).toEqual([2, 2, 2, 2]);
    expect(Array.from(t.sequences)).toEqual(pick(full.sequences, 4));
    expect(Array.from(t.completionTokens)).toEqual(pick(full.completionTokens, 2));
    expect(Array.from(t.lengths)).toEqual([0, 1, 3, 4]);
    expect(Array.from(t.finished)).toEqual([0, 1, 1, 0]);
    expect(Array.from(t.logProbs)).toEqual(pick(full.logProbs, 2));
    expect(Array.from(t.entropies)).toEqual(pick(full.entropies, 2));
    expect(Array.from(t.certainties)).toEqual(pick(full.certainties, 2));
    expect(t.completions).toEqual(['c0', 'c1', 'c3', null]);
    expect(t.answers).toEqual(['a0', null, 'a3', 'a4']);
    // The typed arrays keep their types, and the input is left as it was.
    expect(t.sequences).toBeInstanceOf(Int32Array);
    expect(t.finished).toBeInstanceOf(Uint8Array);
    expect(t.entropies).toBeInstanceOf(Float32Array);
    expect(full).toEqual(batch());
  });

  it('G = 1 keeps the first sample of every prompt', () => {
    const t = trainedSubset(batch(), 1);
    expect(t.answers).toEqual(['a0', 'a3']);
    expect(Array.from(t.sequences)).toEqual([0, 1, 2, 3, 300, 301, 302, 303]);
  });

  it('returns a batch that already has G per prompt as it is, and refuses G out of range', () => {
    const full = batch();
    expect(trainedSubset(full, 3)).toBe(full);
    expect(() => trainedSubset(full, 4)).toThrow(RangeError);
    expect(() => trainedSubset(full, 0)).toThrow(RangeError);
    expect(() => trainedSubset(full, 1.5)).toThrow(RangeError);
  });
});
