/**
 * A task of one's own travels in the link: a generator as plain changes (s=, version 1), a data
 * task compressed (z=, version 2) when that fits the query limit, and a compressed part is as
 * untrusted as the rest (bombs, damage, the wrong version, both parts at once).
 */
import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import { specWithTask } from '../core/experiment/withTask';
import type { DataDefinition, GeneratorDefinition, TaskDefinition } from '../core/tasks/custom/index';
import { MAX_QUERY_CHARS, MAX_PATCH_CHARS, PACK_ABOVE, decodeShare, encodeShare } from './url';

const quick = PRESETS.quick.spec;

const lastDigit: GeneratorDefinition = { kind: 'generator', title: 'Last digit', template: '{a}=', vars: { a: { min: 100, max: 999 } }, answer: 'a%10' };

/** `n` rows of "a+b=" -> a+b, in a seeded order. */
function sums(n: number): DataDefinition {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const a = (i * 7919) % 1000;
    const b = (i * 104729) % 997;
    rows.push({ prompt: `${a}+${b}=`, answer: String(a + b) });
  }
  return { kind: 'data', title: 'Sums', rows };
}

function withTask(def: TaskDefinition) {
  const r = specWithTask(quick, def);
  if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
  return r.spec;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

describe('a task in the link', () => {
  it('a generator travels as plain changes in a version-1 link, and comes back equal', () => {
    const spec = withTask(lastDigit);
    const params = encodeShare('quick', spec);
    expect(params.get('v')).toBe('1');
    expect(params.get('z')).toBeNull();
    const back = decodeShare(`?${params}`);
    expect(back).toMatchObject({ kind: 'ok', presetId: 'quick', edited: true });
    expect(back.kind === 'ok' && back.spec).toEqual(spec);
  });

  it('a data task is compressed (version 2, z=) when that is shorter, and comes back equal', () => {
    const spec = withTask(sums(300));
    const params = encodeShare('quick', spec);
    expect(params.get('v')).toBe('2');
    expect(params.get('s')).toBeNull();
    const plainChars = Buffer.from(JSON.stringify(spec.task)).toString('base64url').length;
    expect(plainChars).toBeGreaterThan(PACK_ABOVE);
    expect(params.get('z')!.length).toBeLessThan(plainChars);
    const search = `?${params}`;
    expect(search.length).toBeLessThan(MAX_QUERY_CHARS);
    const back = decodeShare(search);
    expect(back.kind === 'ok' && back.spec).toEqual(spec);
  });

  it('a data task too big for a link makes a link longer than the limit, which is refused unread', () => {
    const spec = withTask(sums(3000));
    const search = `?${encodeShare('quick', spec)}`;
    expect(search.length).toBeGreaterThan(MAX_QUERY_CHARS);
    expect(decodeShare(search)).toMatchObject({ kind: 'error', message: expect.stringMatching(/characters long; the limit is 8192/) });
  });

  it('refuses a compressed part that is a bomb, damaged, not JSON, in a version-1 link, or next to s=', () => {
    const bomb = b64(deflateSync(new Uint8Array(MAX_PATCH_CHARS + 1).fill(0x20), { level: 9 }));
    expect(bomb.length).toBeLessThan(MAX_QUERY_CHARS);
    expect(decodeShare(`?v=2&preset=quick&z=${bomb}`)).toEqual({
      kind: 'error',
      message: `This shared link could not be loaded: the changes (z=) inflate to ${MAX_PATCH_CHARS + 1} bytes; the limit is ${MAX_PATCH_CHARS}.`,
    });
    const good = encodeShare('quick', withTask(sums(300))).get('z')!;
    const damaged = good.slice(0, 40) + (good[40] === 'A' ? 'B' : 'A') + good.slice(41, 200);
    expect(decodeShare(`?v=2&preset=quick&z=${damaged}`)).toMatchObject({ kind: 'error', message: expect.stringMatching(/the changes \(z=\) are not valid (compressed data|JSON)/) });
    expect(decodeShare(`?v=2&preset=quick&z=${b64(deflateSync(new TextEncoder().encode('{"seed":')))}`)).toMatchObject({ message: expect.stringMatching(/\(z=\) are not valid JSON/) });
    expect(decodeShare(`?v=2&preset=quick&z=${b64(deflateSync(new TextEncoder().encode('{"__proto__":{"x":1}}')))}`)).toMatchObject({ kind: 'error' });
    expect(decodeShare(`?v=1&preset=quick&z=${good}`)).toMatchObject({ message: expect.stringMatching(/compressed changes \(z=\) need format version 2/) });
    expect(decodeShare(`?v=2&preset=quick&s=e30&z=${good}`)).toMatchObject({ message: expect.stringMatching(/changes twice/) });
    expect(decodeShare(`?preset=quick&z=${good}`)).toMatchObject({ message: expect.stringMatching(/has changes \(z=\) but no format version/) });
  });

  it('a task in a link is as untrusted as a file: one that cannot run is refused in words, unrun', () => {
    const spec = withTask(lastDigit);
    const hostile: [string, Record<string, unknown>, RegExp][] = [
      ['a text built to be huge', { answer: 'pad(a, 1000000000)' }, /would have 1000000000 characters; the most is 64/],
      ['an enormous range', { vars: { a: { min: 0, max: 1e12 } } }, /definition/],
      ['a bidirectional override', { template: '{a}\u202e=' }, /U\+202E/],
      ['a problem space that cannot fill the split', { vars: { a: { min: 1, max: 9 } } }, /distinct problems/],
      ['a deep expression', { answer: '('.repeat(40) + 'a' + ')'.repeat(40) }, /deep|nest/],
    ];
    for (const [why, change, says] of hostile) {
      const patched = { ...spec, task: { ...spec.task, definition: { ...spec.task.definition!, ...change } } };
      const search = `?v=1&preset=quick&s=${Buffer.from(JSON.stringify({ task: patched.task })).toString('base64url')}`;
      const r = decodeShare(search);
      expect(r.kind, why).toBe('error');
      expect(r.kind === 'error' && r.message, why).toMatch(says);
    }
  });

  it('any bytes as z=: an answer, never a throw (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, deflated) => {
        const z = b64(deflated ? deflateSync(bytes) : bytes);
        expect(['ok', 'error']).toContain(decodeShare(`?v=2&preset=quick&z=${z}`).kind);
      }),
      { numRuns: 300 },
    );
  });
});
