/**
 * Hostile input, 10,000 cases: random and mutated share links, spec files and run files each give
 * a valid spec or a typed error, never an uncaught exception (docs/RELIABILITY.md). The mutations
 * start from valid documents (every preset; a real run file) and replace one value anywhere in
 * them with something hostile, so they reach deep into the schemas instead of failing at the top.
 */
import { jsonPaths, setAt } from './testing/jsonPaths';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import { parseSpec } from '../core/experiment/spec';
import { armMetrics, stepEvent } from '../app/store/fixtures';
import { decodeShare, encodeShare, toBase64Url } from './url';
import { parseBundle, serializeBundle } from './bundle';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** What an attacker or a broken file puts in a field. */
const hostile: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(1e308, -1e308, 2 ** 53 + 1, -0, 0.1 + 0.2, '', '__proto__', 'constructor', '<script>alert(1)</script>', '1e999', [], {}, null, true),
  fc.constantFrom<Json>({ __proto__: { polluted: true } } as unknown as Json, JSON.parse('{"__proto__":{"polluted":1}}')),
  fc.string({ maxLength: 5000 }),
  fc.array(fc.integer(), { maxLength: 2000 }) as fc.Arbitrary<Json>,
);

function mutation(docs: Json[]): fc.Arbitrary<Json> {
  return fc.tuple(fc.nat(docs.length - 1), fc.nat(), hostile).map(([d, p, value]) => {
    const all = jsonPaths(docs[d]);
    return setAt(docs[d], all[p % all.length], value);
  });
}

const presetSpecs = Object.values(PRESETS).map((p) => JSON.parse(JSON.stringify(p.spec)) as Json);

function aRunFile(): string {
  const spec = PRESETS.quick.spec;
  const arms = spec.arms.map((a) => armMetrics(a.id, a.scheme, Object.fromEntries(a.members.map((m) => [m, {}]))));
  const events = [{ type: 'base' as const, members: [], base: [], baseKappa: [] }, stepEvent(1, arms, { steps: spec.steps }), stepEvent(2, arms, { steps: spec.steps })];
  return serializeBundle({ spec, backend: 'wasm', events }, 'a run');
}

describe('hostile input: 10,000 share links, spec files and run files', () => {
  it('share links: 4,000 random and mutated links decode to a valid spec, nothing, or a message', () => {
    const validLinks = Object.keys(PRESETS).map((id) => '?' + encodeShare(id, PRESETS[id].spec).toString());
    const patches = presetSpecs.map((s) => ({ seed: 3, grpo: (s as { grpo: Json }).grpo }) as Json);
    const link = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.tuple(fc.constantFrom(...validLinks), fc.nat(), fc.string({ maxLength: 20 })).map(([l, i, s]) => l.slice(0, i % (l.length + 1)) + s + l.slice(i % (l.length + 1))),
      mutation(patches).map((p) => `?v=1&preset=${Object.keys(PRESETS)[0]}&s=${toBase64Url(JSON.stringify(p))}`),
      fc.string({ maxLength: 200 }).map((s) => `?v=1&preset=quick&s=${toBase64Url(s)}`),
    );
    fc.assert(
      fc.property(link, (search) => {
        const r = decodeShare(search);
        if (r.kind === 'ok') expect(parseSpec(r.spec).ok).toBe(true);
        else if (r.kind === 'error') expect(typeof r.message).toBe('string');
        else expect(r.kind).toBe('none');
      }),
      { numRuns: 4000 },
    );
  });

  it('spec files: 4,000 mutated presets and random JSON give a valid spec or a list of errors', () => {
    const file = fc.oneof(mutation(presetSpecs), fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>);
    fc.assert(
      fc.property(file, (doc) => {
        const r = parseSpec(JSON.parse(JSON.stringify(doc)));
        if (r.ok) expect(parseSpec(r.spec).ok).toBe(true);
        else expect(r.errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 4000 },
    );
  });

  it('run files: 2,000 mutated and truncated run files open or are refused with a typed error', () => {
    const text = aRunFile();
    const doc = JSON.parse(text) as Json;
    const file = fc.oneof(
      mutation([doc]).map((d) => JSON.stringify(d)),
      fc.nat(text.length).map((n) => text.slice(0, n)),
    );
    fc.assert(
      fc.property(file, (t) => {
        const r = parseBundle(t);
        if (r.ok) expect(parseSpec(r.bundle.record.spec).ok).toBe(true);
        else expect(['too-large', 'not-json', 'wrong-format', 'newer-version', 'old-version', 'invalid']).toContain(r.kind);
      }),
      { numRuns: 2000 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
