import { describe, expect, it } from 'vitest';
import { FLOAT32_BELOW_ONE, Rng } from './random';

describe('Rng.uniforms (Gumbel noise)', () => {
  it('never rounds to 1 in float32, so Gumbel noise -log(-log(u)) stays finite', () => {
    const rng = new Rng(1);
    // State whose next 32-bit draw is 2^32 - 1: (2^32 - 0.5) / 2^32 rounds to 1.0 as a float32.
    rng.setState([0xffffffff, 0, 0, 0]);
    const [u] = rng.uniforms(1);
    expect(u).toBeLessThan(1);
    expect(u).toBe(Math.fround(FLOAT32_BELOW_ONE));
    expect(Number.isFinite(-Math.log(-Math.log(u)))).toBe(true);
  });

  it('leaves ordinary draws as they were (the clamp touches only the top 2^-25)', () => {
    const a = new Rng(7).uniforms(1000);
    const b = new Rng(7);
    for (let i = 0; i < a.length; i++) expect(a[i]).toBe(Math.fround(b.nextOpen()));
    for (const u of a) expect(u > 0 && u < 1).toBe(true);
  });
});
