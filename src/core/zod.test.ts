import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from './zod';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

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

  it('every schema takes z from src/core/zod.ts, so the setting precedes it', () => {
    const direct = sources(SRC)
      .filter((p) => relative(SRC, p) !== join('core', 'zod.ts'))
      .filter((p) => /(from\s+|import\s*\(\s*)['"]zod(\/[^'"]*)?['"]/.test(readFileSync(p, 'utf8')))
      .map((p) => relative(SRC, p));
    expect(direct).toEqual([]);
  });
});
