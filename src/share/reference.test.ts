/**
 * Reference files (reference.ts): the shipped quick reference reads back as written; every kind of
 * bad file is refused with a message in words; random and mutated files never throw (fast-check);
 * the helpers round and average as documented.
 */
import { jsonPaths, setAt } from './testing/jsonPaths';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import {
  MAX_REFERENCE_CHARS,
  type ParseReferenceResult,
  type ReferenceFile,
  type ReferenceMigration,
  meanSd,
  parseReference,
  parseReferenceIndex,
  referenceFingerprint,
  referenceLabel,
  roundValue,
  seedsText,
  serializeReference,
  serializeReferenceIndex,
} from './reference';

const shipped = readFileSync(join(process.cwd(), 'public', 'references', 'quick.json'), 'utf8');
const doc = () => JSON.parse(shipped);
const text = (v: unknown) => JSON.stringify(v);

function ok(r: ParseReferenceResult): ReferenceFile {
  if (!r.ok) throw new Error(`expected a reference, got: ${r.error}`);
  return r.reference;
}
function error(r: ParseReferenceResult): string {
  if (r.ok) throw new Error('expected an error, got a reference');
  expect(r.error).toMatch(/^This reference run could not be loaded: /);
  return r.error;
}

describe('parseReference', () => {
  it('reads the shipped quick reference: its preset, seeds, steps and columns', () => {
    const ref = ok(parseReference(shipped));
    expect(ref).toMatchObject({ format: 'cohort-lab-reference', version: 1, preset: 'quick', seeds: [1, 2, 3, 4, 5, 6, 7, 8], band: 'sd', decimals: 3 });
    expect(ref.fingerprint).toBe(referenceFingerprint(PRESETS.quick.spec));
    expect(ref.steps).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ref.evalSteps).toEqual([3, 6]);
    for (const arm of ref.arms) for (const m of arm.members) {
      expect(m.reward.mean).toHaveLength(6);
      expect(m.evalPassAt1.mean).toHaveLength(2);
      // Rounded to 3 decimals.
      for (const v of [...m.reward.mean, ...m.entropy.sd]) if (v != null) expect(Math.round(v * 1000) / 1000).toBe(v);
    }
  });

  it('serializeReference -> parseReference is the identity', () => {
    const ref = ok(parseReference(shipped));
    expect(ok(parseReference(serializeReference(ref)))).toEqual(ref);
  });

  it('refuses what is not a reference: too large, not JSON, another format, __proto__', () => {
    expect(error(parseReference(' '.repeat(MAX_REFERENCE_CHARS + 1)))).toContain(`the limit is ${MAX_REFERENCE_CHARS}`);
    expect(error(parseReference('{"format":'))).toContain('not valid JSON');
    expect(error(parseReference(text({ format: 'cohort-lab-run', version: 1 })))).toContain('its format is "cohort-lab-run"');
    expect(error(parseReference('[]'))).toContain('it has no "format" field');
    expect(error(parseReference(shipped.replace('"backend":', '"__proto__":{"x":1},"backend":')))).toContain('"__proto__"');
    expect(parseReference(undefined as unknown as string).ok).toBe(false);
  });

  it('a newer format asks for a reload; an old one is migrated or refused', () => {
    const d = doc();
    d.version = 2;
    expect(error(parseReference(text(d)))).toContain('made by a newer Cohort Lab (reference format v2; this page reads up to v1). Reload the page');
    d.version = 0;
    expect(error(parseReference(text(d)))).toContain('reference format v0 is no longer supported');
    // An example migration: v0 called the steps "x".
    const v0 = doc();
    v0.version = 0;
    v0.x = v0.steps;
    delete v0.steps;
    const migrations: Record<number, ReferenceMigration> = { 0: ({ x, ...rest }) => ({ ...rest, version: 1, steps: x }) };
    expect(ok(parseReference(text(v0), migrations)).steps).toEqual([1, 2, 3, 4, 5, 6]);
    expect(error(parseReference(text(v0), { 0: () => { throw new Error('bug'); } }))).toContain('could not be upgraded from reference format v0');
    d.version = 1.5;
    expect(error(parseReference(text(d)))).toContain('is not a whole number');
  });

  it('refuses invalid values and files inconsistent with their own spec, naming the place', () => {
    const cases: [(d: any) => void, string][] = [
      [(d) => (d.arms[0].members[0].reward.mean[0] = 'high'), 'arms.0.members.0.reward.mean.0'],
      [(d) => (d.arms[0].members[0].reward.mean[0] = 1e12), 'arms.0.members.0.reward.mean.0'],
      [(d) => (d.band = 'minmax'), 'band'],
      [(d) => (d.spec.steps = -1), 'spec.steps'],
      [(d) => (d.steps = [1, 3, 2, 4, 5, 6]), 'its steps are not strictly increasing'],
      [(d) => (d.evalSteps = [3, 7]), 'an evaluation step is not one of its steps'],
      [(d) => (d.fingerprint = 'abc'), 'its fingerprint "abc" is not its spec\'s'],
      [(d) => d.arms[0].members[0].reward.mean.pop(), 'arms.0.members.A.reward: 6 values expected (one per step)'],
      [(d) => d.arms[0].members[0].evalMajAtG.sd.push(0.1), 'arms.0.members.A.evalMajAtG: 2 values expected (one per evaluation step)'],
      [(d) => d.arms[1].pairs[0].agreement.mean.pop(), 'arms.1.pairs.A-B.agreement: 6 values expected'],
      [(d) => (d.arms[0].id = 'ring'), 'arms.0: arm "ring" is not in the experiment'],
      [(d) => (d.arms[0].scheme = 'self'), 'arms.0: arm oracle has scheme self, the experiment oracle'],
      [(d) => (d.arms[0].members[0].id = 'Z'), 'arms.0: arm oracle has no member "Z"'],
      [(d) => d.arms.push(d.arms[0]), 'arms.3: arm oracle is listed twice'],
      [(d) => (d.base.members[0].id = 'Q'), 'base.members.0: member "Q" is not in the experiment'],
      [(d) => (d.seeds = [1, 1]), 'a seed is listed twice'],
      [(d) => (d.steps = [1, 2, 3, 4, 5, 60]), "its steps go beyond the experiment's 6"],
      [(d) => delete d.arms[0].members[0].entropy, 'arms.0.members.0.entropy'],
    ];
    for (const [mutate, says] of cases) {
      const d = doc();
      mutate(d);
      const r = parseReference(text(d));
      expect(!r.ok && r.kind, says).toBe('invalid');
      expect(error(r), says).toContain(says);
    }
  });
});

describe('parseReference never throws (fast-check)', () => {
  const base = doc();
  const allPaths = jsonPaths(base).filter((p) => p.length > 0);
  const expectTyped = (r: ParseReferenceResult) => {
    if (r.ok) expect(r.reference.format).toBe('cohort-lab-reference');
    else {
      expect(['too-large', 'not-json', 'wrong-format', 'newer-version', 'old-version', 'invalid']).toContain(r.kind);
      // A specific message, not the last-resort catch: no check threw on the way.
      expect(r.error).not.toBe('This reference run could not be loaded: it could not be read.');
    }
  };

  it('on a valid file with one value changed, removed or retyped', () => {
    const weird = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 0, 1e308, -0, 5001, '', '__proto__', [], {}, true, 'constructor'));
    fc.assert(
      fc.property(fc.constantFrom(...allPaths), weird, fc.boolean(), (path, value, remove) => {
        expectTyped(parseReference(text(setAt(base, path, value, remove))));
      }),
      { numRuns: 800 },
    );
  });

  it('on truncated, spliced and random text', () => {
    fc.assert(
      fc.property(fc.nat(shipped.length), fc.nat(shipped.length), fc.string({ maxLength: 8 }), (a, b, insert) => {
        expectTyped(parseReference(shipped.slice(0, a)));
        expectTyped(parseReference(shipped.slice(0, Math.min(a, b)) + insert + shipped.slice(Math.max(a, b))));
      }),
      { numRuns: 500 },
    );
    fc.assert(fc.property(fc.jsonValue(), (v) => expectTyped(parseReference(text(v)))), { numRuns: 300 });
  });
});

describe('the index of shipped references', () => {
  const index = { format: 'cohort-lab-references', version: 1, references: [{ preset: 'quick', file: 'quick.json', fingerprint: 'abc', seeds: [1, 2], bytes: 100 }] } as const;

  it('round-trips and refuses bad entries in words', () => {
    const r = parseReferenceIndex(serializeReferenceIndex(structuredClone(index) as never));
    expect(r.ok && r.index).toEqual(index);
    const bad = (v: unknown) => {
      const x = parseReferenceIndex(text(v));
      if (x.ok) throw new Error('expected an error');
      expect(x.error).toMatch(/^The index of reference runs could not be/);
      return x.error;
    };
    expect(bad({ ...index, references: [{ ...index.references[0], file: '../secret.json' }] })).toContain('references.0.file');
    expect(bad({ ...index, references: [index.references[0], index.references[0]] })).toContain('names a preset twice');
    expect(bad({ ...index, format: 'x' })).toContain('its format is "x"');
    expect(parseReferenceIndex('{').ok).toBe(false);
  });
});

describe('helpers', () => {
  it('roundValue: 3 decimals, -0 as 0, non-finite as null', () => {
    expect(roundValue(0.12345)).toBe(0.123);
    expect(roundValue(0.1235)).toBe(0.124);
    expect(roundValue(-0.0001)).toBe(0);
    expect(Object.is(roundValue(-0.0001), -0)).toBe(false);
    expect(roundValue(Number.NaN)).toBeNull();
    expect(roundValue(null)).toBeNull();
    expect(roundValue(Infinity)).toBeNull();
  });

  it('meanSd: mean and sample sd (n - 1) of the defined values', () => {
    expect(meanSd([1, 2, 3, 4])).toEqual({ mean: 2.5, sd: 1.291 });
    expect(meanSd([1, null, 3, Number.NaN, undefined])).toEqual({ mean: 2, sd: 1.414 });
    expect(meanSd([0.5])).toEqual({ mean: 0.5, sd: null });
    expect(meanSd([null, undefined])).toEqual({ mean: null, sd: null });
  });

  it('referenceFingerprint ignores the seed only', () => {
    const spec = PRESETS.collapse.spec;
    expect(referenceFingerprint({ ...spec, seed: 42 })).toBe(referenceFingerprint(spec));
    expect(referenceFingerprint({ ...spec, steps: 81 })).not.toBe(referenceFingerprint(spec));
  });

  it('labels say what the layer is', () => {
    expect(referenceLabel({ seeds: [1, 2, 3, 4, 5, 6, 7, 8] })).toBe('reference: 8 seeds, mean');
    expect(referenceLabel({ seeds: [3] })).toBe('reference: 1 seed, mean');
    expect(seedsText([3, 1, 2, 4])).toBe('seeds 1-4');
    expect(seedsText([1, 3])).toBe('seeds 1, 3');
    expect(seedsText([7])).toBe('seed 7');
  });
});
