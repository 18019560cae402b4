import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS, member } from '../core/experiment/presets';
import { type ExperimentSpec, parseSpec } from '../core/experiment/spec';
import type { JsonObject } from './mergePatch';
import { type DecodeResult, type Migration, MAX_QUERY_CHARS, MIGRATIONS, decodeShare, encodeShare, fromBase64Url, shareSearch, specFingerprint, toBase64Url } from './url';

const quick = PRESETS.quick.spec;
const link = (patch: unknown, preset = 'quick', v = '1') => `?v=${v}&preset=${preset}&s=${toBase64Url(JSON.stringify(patch))}`;

function expectOk(r: DecodeResult): Extract<DecodeResult, { kind: 'ok' }> {
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r;
}
function errorOf(r: DecodeResult): string {
  if (r.kind !== 'error') throw new Error(`expected an error, got ${r.kind}`);
  return r.message;
}

describe('encodeShare', () => {
  it('writes v, preset and the fingerprint only for an unedited preset', () => {
    expect(encodeShare('quick', quick).toString()).toBe(`v=1&preset=quick&h=${specFingerprint(quick)}`);
  });

  it('writes the changes as a base64url merge patch, in the schema order', () => {
    const spec = { ...quick, steps: 2, seed: 7 };
    const params = encodeShare('quick', spec);
    expect(params.get('s')).toBe('eyJzZWVkIjo3LCJzdGVwcyI6Mn0');
    expect(fromBase64Url(params.get('s')!)).toBe('{"seed":7,"steps":2}');
    // Same spec, other key order: same link.
    const shuffled = Object.fromEntries(Object.entries(spec).reverse()) as ExperimentSpec;
    expect(encodeShare('quick', shuffled).toString()).toBe(params.toString());
  });

  it('keeps every other param, after its own', () => {
    const search = shareSearch('?backend=wasm&s=old&v=0&foo=a%20b', 'quick', { ...quick, seed: 9 });
    const params = new URLSearchParams(search);
    expect([...params.keys()]).toEqual(['v', 'preset', 's', 'h', 'backend', 'foo']);
    expect(params.get('backend')).toBe('wasm');
    expect(params.get('foo')).toBe('a b');
  });

  it('refuses a spec with a NaN or an infinity: no such link is ever written', () => {
    // (1e999, as JSON.parse reads it from a link, is Infinity.)
    for (const bad of [Number.NaN, Infinity, -Infinity, Number.parseFloat('1e999')]) {
      expect(() => encodeShare('quick', { ...quick, grpo: { ...quick.grpo, learningRate: bad } })).toThrow(/invalid spec: grpo\.learningRate/);
      expect(() => encodeShare('quick', { ...quick, grpo: { ...quick.grpo, maxGradNorm: bad } })).toThrow(/invalid spec: grpo\.maxGradNorm/);
      expect(() => encodeShare('quick', { ...quick, grpo: { ...quick.grpo, beta: bad } })).toThrow(/invalid spec: grpo\.beta/);
    }
  });

  it('refuses an unknown preset or an invalid spec', () => {
    expect(() => encodeShare('nope', quick)).toThrow(/no preset/);
    expect(() => encodeShare('quick', { ...quick, steps: 0 })).toThrow(/steps/);
  });

  it('keeps the largest spec the schema allows well under the size limit', () => {
    const members = ['A', 'B', 'C', 'D', 'E', 'F'].map((id) => member({ id, family: 'transformer', initSeed: 2 ** 31 - 1, dataSeed: 2 ** 31 - 2, sampleSeed: 2 ** 31 - 3 }));
    const arms = Array.from({ length: 10 }, (_, i) => ({ id: `arm-number-${i}`, scheme: 'cohort' as const, members: members.map((m) => m.id), tau: 0.123456789 }));
    const spec = parseSpec({ ...quick, members, arms });
    expect(spec.ok).toBe(true);
    if (!spec.ok) return;
    const search = shareSearch('?backend=webgpu', 'quick', spec.spec);
    expect(search.length).toBeLessThan(MAX_QUERY_CHARS / 2);
    expect(expectOk(decodeShare(search)).spec).toEqual(spec.spec);
  });
});

describe('decodeShare: good links', () => {
  it('reads nothing from a URL without share params', () => {
    expect(decodeShare('')).toEqual({ kind: 'none' });
    expect(decodeShare('?backend=wasm')).toEqual({ kind: 'none' });
  });

  it('loads a preset as it is, with or without a version', () => {
    for (const search of ['?preset=quick', '?v=1&preset=quick&backend=wasm']) {
      const r = expectOk(decodeShare(search));
      expect(r).toMatchObject({ presetId: 'quick', edited: false, warnings: [] });
      expect(r.spec).toEqual(quick);
    }
  });

  it('applies the changes onto the preset', () => {
    const r = expectOk(decodeShare(link({ seed: 7, steps: 2, grpo: { learningRate: 0.002 } })));
    expect(r.edited).toBe(true);
    expect(r.spec).toEqual({ ...quick, seed: 7, steps: 2, grpo: { ...quick.grpo, learningRate: 0.002 } });
  });

  it('warns, and still loads, when the preset has changed since the link was made', () => {
    const search = shareSearch('', 'quick', { ...quick, seed: 7 }).replace(/h=[0-9a-z]+/, 'h=stale');
    const r = expectOk(decodeShare(search));
    expect(r.spec.seed).toBe(7);
    expect(r.warnings[0]).toMatch(/preset "quick" has changed since this link was made/);
  });
});

describe('decodeShare: bad links are errors in words, never throws', () => {
  it('malformed base64', () => {
    expect(errorOf(decodeShare('?v=1&preset=quick&s=!!!notbase64'))).toBe('This shared link could not be loaded: the changes (s=) are not valid base64url text.');
    expect(errorOf(decodeShare('?v=1&preset=quick&s=abcde'))).toMatch(/not valid base64url/); // 5 chars: impossible length
    expect(errorOf(decodeShare(`?v=1&preset=quick&s=${Buffer.from([0xff, 0xfe]).toString('base64url')}`))).toMatch(/not valid base64url text/); // not UTF-8
  });

  it('invalid JSON, or JSON that is not an object', () => {
    expect(errorOf(decodeShare(`?v=1&preset=quick&s=${toBase64Url('{"seed":')}`))).toMatch(/not valid JSON/);
    expect(errorOf(decodeShare(link([1, 2])))).toMatch(/must be a JSON object/);
    expect(errorOf(decodeShare(link(null)))).toMatch(/must be a JSON object/);
  });

  it('prototype keys', () => {
    expect(errorOf(decodeShare(`?v=1&preset=quick&s=${toBase64Url('{"__proto__":{"polluted":true}}')}`))).toMatch(/"__proto__" is not allowed/);
    expect(errorOf(decodeShare(link({ grpo: { constructor: { prototype: { polluted: true } } } })))).toMatch(/"grpo.constructor" is not allowed/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('huge input is refused before it is read', () => {
    const huge = `?v=1&preset=quick&s=${'A'.repeat(MAX_QUERY_CHARS)}`;
    expect(errorOf(decodeShare(huge))).toMatch(new RegExp(`the limit is ${MAX_QUERY_CHARS}`));
  });

  it('invalid values: the message names the field', () => {
    expect(errorOf(decodeShare(link({ grpo: { learningRate: -0.001 } })))).toMatch(/grpo\.learningRate: Too small/);
    expect(errorOf(decodeShare(link({ steps: 0 })))).toMatch(/not valid: steps:/);
    expect(errorOf(decodeShare(link({ seed: 'seven' })))).toMatch(/seed:/);
    expect(errorOf(decodeShare(link({ members: [{ ...quick.members[0], id: '<img src=x onerror=alert(1)>' }] })))).toMatch(/members\.0\.id: ids are 1-24 letters/);
    expect(errorOf(decodeShare(link({ version: 2 })))).toMatch(/version:/);
    // Cross-field rules too: a peer arm needs two members.
    expect(errorOf(decodeShare(link({ arms: [{ id: 'p', scheme: 'peer', members: ['A'] }] })))).toMatch(/arms\.0\.members: arm p: peer reward needs exactly 2 members/);
  });

  it('no NaN or infinity: 1e999 (Infinity to JSON.parse), -1e999, NaN and 1e-999 (0) are refused, naming the field', () => {
    const raw = (json: string) => `?v=1&preset=quick&s=${toBase64Url(json)}`;
    expect(errorOf(decodeShare(raw('{"grpo":{"learningRate":1e999}}')))).toMatch(/grpo\.learningRate: /);
    expect(errorOf(decodeShare(raw('{"grpo":{"learningRate":-1e999}}')))).toMatch(/grpo\.learningRate: /);
    expect(errorOf(decodeShare(raw('{"grpo":{"learningRate":1e-999}}')))).toMatch(/grpo\.learningRate: Too small/);
    expect(errorOf(decodeShare(raw('{"grpo":{"maxGradNorm":1e999,"beta":1e999}}')))).toMatch(/grpo\.beta: .*grpo\.maxGradNorm: |grpo\.maxGradNorm: .*grpo\.beta: /);
    expect(errorOf(decodeShare(raw('{"steps":1e999}')))).toMatch(/steps: /);
    expect(errorOf(decodeShare(raw('{"grpo":{"learningRate":NaN}}')))).toMatch(/not valid JSON/);
    expect(errorOf(decodeShare(raw('{"grpo":{"learningRate":Infinity}}')))).toMatch(/not valid JSON/);
    // JSON.stringify writes NaN and Infinity as null: a link made from one is refused too.
    expect(errorOf(decodeShare(link({ grpo: { learningRate: Number.NaN } })))).toMatch(/grpo\.learningRate: /);
  });

  it('unknown preset, quoted as text and cut short', () => {
    expect(errorOf(decodeShare('?v=1&preset=nope'))).toBe('This shared link could not be loaded: there is no preset "nope" (known: quick, collapse, peers-learn, diversity, ensemble-control, ring, intrinsic, peers-teach, families, length, overlap).');
    const msg = errorOf(decodeShare(`?v=1&preset=${encodeURIComponent('<img src=x onerror=alert(1)>'.repeat(5))}`));
    expect(msg).toContain('there is no preset "<img src=x onerror=alert(1)><img src=x o…"');
  });

  it('future, malformed or missing version', () => {
    expect(errorOf(decodeShare('?v=3&preset=quick'))).toMatch(/newer Cohort Lab \(link format v3; this page reads up to v2\)/);
    expect(errorOf(decodeShare('?v=one&preset=quick'))).toMatch(/v="one" is not a number/);
    expect(errorOf(decodeShare(`?preset=quick&s=${toBase64Url('{"seed":2}')}`))).toMatch(/no format version/);
    expect(errorOf(decodeShare('?v=1'))).toMatch(/names no preset/);
  });

  it('any query string: an answer, never a throw (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        expect(['none', 'ok', 'error']).toContain(decodeShare(s).kind);
        expect(['ok', 'error']).toContain(decodeShare(`?v=1&preset=quick&s=${encodeURIComponent(s)}`).kind);
      }),
      { numRuns: 300 },
    );
  });

  it('any JSON as the changes: a valid spec or an error (fuzz)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (patch) => {
        const r = decodeShare(link(patch));
        if (r.kind === 'ok') expect(parseSpec(r.spec).ok).toBe(true);
        else expect(r.kind).toBe('error');
      }),
      { numRuns: 300 },
    );
  });
});

describe('migrations', () => {
  // A made-up v0 that kept the RL learning rate at the top level as `lr`.
  const fromV0: Migration = (p) => {
    const { lr, ...rest } = p.patch;
    const patch: JsonObject = lr === undefined ? rest : { ...rest, grpo: { ...(rest.grpo as JsonObject), learningRate: lr } };
    return { ...p, v: 1, patch };
  };

  it('upgrades an old link through the table', () => {
    const r = expectOk(decodeShare(link({ lr: 0.002, seed: 4 }, 'quick', '0'), { ...MIGRATIONS, 0: fromV0 }));
    expect(r.spec.grpo.learningRate).toBe(0.002);
    expect(r.spec.seed).toBe(4);
  });

  it('refuses a version with no migration, or a migration that fails', () => {
    expect(errorOf(decodeShare(link({ seed: 4 }, 'quick', '0')))).toMatch(/link format v0 is no longer supported/);
    const broken: Migration = () => {
      throw new Error('boom');
    };
    expect(errorOf(decodeShare(link({ seed: 4 }, 'quick', '0'), { 0: broken }))).toMatch(/could not be upgraded from link format v0/);
    expect(errorOf(decodeShare(link({ seed: 4 }, 'quick', '0'), { 0: (p) => p }))).toMatch(/could not be upgraded/);
  });
});

describe('round trip: decode(encode(spec)) equals spec', () => {
  const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const memberEdit = fc.record(
    {
      index: fc.nat(5),
      initSeed: seed,
      dataSeed: seed,
      sampleSeed: seed,
      dModel: fc.integer({ min: 4, max: 128 }).map((h) => 2 * h),
      warmStartSteps: fc.integer({ min: 0, max: 20000 }),
      family: fc.constantFrom('transformer', 'gru', 'mlp' as const),
    },
    { requiredKeys: ['index'] },
  );
  const edits = fc.record({
    presetId: fc.constantFrom(...Object.keys(PRESETS)),
    seed: opt(seed),
    steps: opt(fc.integer({ min: 1, max: 5000 })),
    learningRate: opt(fc.double({ min: 1e-6, max: 0.1, noNaN: true })),
    temperature: opt(fc.double({ min: 0.1, max: 2, noNaN: true })),
    tau: opt(fc.double({ min: 0, max: 1, noNaN: true })),
    members: fc.array(memberEdit, { maxLength: 3 }),
    addMember: opt(fc.constantFrom('transformer', 'gru', 'mlp' as const)),
    teacherArm: fc.boolean(),
  });

  type Edits = typeof edits extends fc.Arbitrary<infer T> ? T : never;

  function edited(e: Edits): unknown {
    const base = structuredClone(PRESETS[e.presetId].spec);
    let members = base.members.slice();
    for (const m of e.members) {
      const i = m.index % members.length;
      const { index: _index, ...patch } = m;
      members[i] = { ...members[i], ...patch };
    }
    const arms = base.arms.map((a, i) => (i === 0 && e.tau !== undefined ? { ...a, tau: e.tau } : a));
    if (e.addMember) members = [...members, member({ id: 'Z', family: e.addMember })];
    if (e.teacherArm) arms.push({ id: 'teach', scheme: 'teacher', members: [members[0].id], teacher: members[members.length - 1].id, tau: 0 });
    return {
      ...base,
      seed: e.seed ?? base.seed,
      steps: e.steps ?? base.steps,
      grpo: { ...base.grpo, learningRate: e.learningRate ?? base.grpo.learningRate, temperature: e.temperature ?? base.grpo.temperature },
      members,
      arms,
    };
  }

  it('for every preset and random valid edits', () => {
    fc.assert(
      fc.property(edits, (e) => {
        const parsed = parseSpec(edited(e));
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        const search = shareSearch('?backend=wasm', e.presetId, parsed.spec);
        const r = expectOk(decodeShare(search));
        expect(r.presetId).toBe(e.presetId);
        expect(r.spec).toEqual(parsed.spec);
        expect(r.warnings).toEqual([]);
        // Deterministic: the decoded spec links to the same URL.
        expect(shareSearch('?backend=wasm', r.presetId, r.spec)).toBe(search);
      }),
      { numRuns: 300 },
    );
  });
});
