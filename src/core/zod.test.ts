import { afterEach, describe, expect, it } from 'vitest';
import { z } from './zod';

/** (That every schema takes z from src/core/zod.ts is checked in scripts/zod-imports.test.ts.) */
describe('zod without eval (the page forbids it: src/pwa/csp.ts)', () => {
  const realFunction = globalThis.Function;
  afterEach(() => {
    globalThis.Function = realFunction;
  });

  it('building and parsing object schemas never constructs a Function (no eval probe, no compiled parser)', () => {
    let constructed = 0;
    globalThis.Function = new Proxy(realFunction, {
      construct(target, args) {
        constructed++;
        return Reflect.construct(target, args);
      },
    });
    const schema = z.object({ a: z.number(), b: z.object({ c: z.string() }) });
    for (let i = 0; i < 3; i++) expect(schema.parse({ a: i, b: { c: 'x' } })).toEqual({ a: i, b: { c: 'x' } });
    expect(schema.safeParse({ a: 'no' }).success).toBe(false);
    expect(constructed).toBe(0);
  });
});
