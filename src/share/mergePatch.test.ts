import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonValue, applyMergePatch, checkPatch, mergePatchDiff } from './mergePatch';

describe('mergePatchDiff / applyMergePatch (RFC 7386)', () => {
  it('writes only what changed, nested objects key by key', () => {
    const base = { seed: 1, grpo: { learningRate: 3e-4, groupSize: 8 }, steps: 100 };
    const target = { seed: 7, grpo: { learningRate: 1e-3, groupSize: 8 }, steps: 100 };
    expect(mergePatchDiff(base, target)).toEqual({ seed: 7, grpo: { learningRate: 1e-3 } });
    expect(applyMergePatch(base, { seed: 7, grpo: { learningRate: 1e-3 } })).toEqual(target);
  });

  it('replaces a changed array whole, and says nothing for an equal one', () => {
    const base = { members: [{ id: 'A' }, { id: 'B' }] };
    expect(mergePatchDiff(base, { members: [{ id: 'A' }, { id: 'C' }] })).toEqual({ members: [{ id: 'A' }, { id: 'C' }] });
    expect(mergePatchDiff(base, { members: [{ id: 'A' }, { id: 'B' }] })).toBeUndefined();
  });

  it('deletes an optional key with null; undefined counts as absent', () => {
    const base = { arm: { id: 't', teacher: 'A' } };
    const patch = mergePatchDiff(base, { arm: { id: 't', teacher: undefined } });
    expect(patch).toEqual({ arm: { teacher: null } });
    expect(applyMergePatch(base, patch as JsonValue)).toEqual({ arm: { id: 't' } });
    expect(mergePatchDiff({ a: 1 }, { a: 1, b: undefined })).toBeUndefined();
  });

  it('follows the target key order (deterministic output)', () => {
    expect(JSON.stringify(mergePatchDiff({ a: 1, b: 1 }, { b: 2, a: 2 }))).toBe('{"b":2,"a":2}');
  });

  it('does not modify its inputs', () => {
    const base = { grpo: { learningRate: 1 } };
    applyMergePatch(base, { grpo: { learningRate: 2 } });
    expect(base.grpo.learningRate).toBe(1);
  });

  it('round-trips any two JSON objects without nulls', () => {
    // Values as they arrive through JSON: jsonValue() may yield -0, which JSON text cannot hold.
    const noNulls = fc
      .jsonValue()
      .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
      .filter((v) => !JSON.stringify(v).includes('null'));
    const obj = fc.dictionary(fc.string({ maxLength: 4 }), noNulls, { maxKeys: 5 });
    fc.assert(
      fc.property(obj, obj, (a, b) => {
        fc.pre(checkPatch(a) === null && checkPatch(b) === null);
        const patch = mergePatchDiff(a, b);
        expect(patch === undefined ? a : applyMergePatch(a, patch)).toEqual(b);
      }),
      { numRuns: 200 },
    );
  });
});

describe('checkPatch (untrusted patches)', () => {
  it('accepts a plain object of JSON values', () => {
    expect(checkPatch({ seed: 3, members: [{ id: 'A' }] })).toBeNull();
  });

  it('refuses anything but an object at the top', () => {
    for (const v of [null, 3, 'x', [1], true]) expect(checkPatch(v)).toMatch(/must be a JSON object/);
  });

  it('refuses keys that reach a prototype, at any depth', () => {
    expect(checkPatch(JSON.parse('{"__proto__":{"polluted":1}}'))).toMatch(/"__proto__" is not allowed/);
    expect(checkPatch(JSON.parse('{"grpo":{"constructor":{"prototype":{}}}}'))).toMatch(/"grpo.constructor" is not allowed/);
    expect(checkPatch(JSON.parse('{"members":[{"prototype":1}]}'))).toMatch(/"members.0.prototype"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses deep nesting (no deep recursion on hostile input)', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(2000)}${']'.repeat(2000)}}`);
    expect(checkPatch(deep)).toMatch(/nested more than 8 levels/);
  });
});
