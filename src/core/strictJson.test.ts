import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strictJson';

describe('parseStrictJson', () => {
  it('parses JSON, and says which problem it met', () => {
    expect(parseStrictJson('{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseStrictJson('{"a":')).toEqual({ ok: false, problem: 'not-json' });
    expect(parseStrictJson('{"x":{"__proto__":{"polluted":1}}}')).toEqual({ ok: false, problem: 'proto-key' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
