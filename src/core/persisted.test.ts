import { describe, expect, it } from 'vitest';
import { z } from './zod';
import { migrate, upgrade, versionProblem, zodIssues, type Migrations } from './persisted';

const words = { what: 'test format' };

describe('persisted formats: versions and migrations', () => {
  it('reads the current version, refuses a newer one and a version that is not a whole number', () => {
    expect(versionProblem(2, 2, words)).toBeNull();
    expect(versionProblem(3, 2, words)).toEqual({
      kind: 'newer-version',
      why: 'it was made by a newer Cohort Lab (test format v3; this page reads up to v2). Reload the page to get the latest version',
    });
    expect(versionProblem(3, 2, { ...words, reader: 'this version', newer: 'Update Cohort Lab' })?.why).toBe(
      'it was made by a newer Cohort Lab (test format v3; this version reads up to v2). Update Cohort Lab',
    );
    for (const v of ['2', 1.5, -1, null, undefined]) expect(versionProblem(v, 2, words)?.kind).toBe('invalid');
  });

  it('brings an old document up through every migration in turn', () => {
    const chain: Migrations<Record<string, unknown>> = {
      0: (d) => ({ ...d, version: 1, a: 'from 0' }),
      1: (d) => ({ ...d, version: 2, b: `${String(d.a)}, from 1` }),
    };
    expect(upgrade({ version: 0 }, 2, chain, words)).toEqual({ ok: true, doc: { version: 2, a: 'from 0', b: 'from 0, from 1' } });
    expect(upgrade({ version: 2, c: 1 }, 2, chain, words)).toEqual({ ok: true, doc: { version: 2, c: 1 } });
  });

  it('says which version an unreadable document has and which this code reads', () => {
    expect(upgrade({ version: 0 }, 2, { 1: (d) => ({ ...d, version: 2 }) }, words)).toEqual({
      ok: false,
      kind: 'old-version',
      why: 'test format v0 is no longer supported (this page reads v2)',
    });
    expect(upgrade({ version: 3 }, 2, {}, words)).toMatchObject({ ok: false, kind: 'newer-version' });
  });

  it('a migration that throws, or does not raise the version, is a refusal, not an exception or a loop', () => {
    const throws = { 0: () => { throw new Error('bug'); } };
    expect(upgrade({ version: 0 }, 1, throws, words)).toMatchObject({ ok: false, why: 'it could not be upgraded from test format v0' });
    expect(upgrade({ version: 0 }, 1, { 0: (d) => d }, words)).toMatchObject({ ok: false, kind: 'old-version' });
    expect(upgrade({ version: 0 }, 1, { 0: () => null as never }, words)).toMatchObject({ ok: false, kind: 'old-version' });
  });

  it('works on any key (share links keep theirs in v), and never reads an inherited migration', () => {
    expect(migrate({ v: 0 }, 'v', 1, { 0: () => ({ v: 1 }) }, words)).toEqual({ ok: true, doc: { v: 1 } });
    // "constructor" and "toString" are on every object's prototype: not migrations.
    expect(migrate({ v: 0 }, 'v', 1, Object.create({ 0: () => ({ v: 1 }) }) as Migrations<{ v: number }>, words).ok).toBe(false);
  });

  it('zod issues in words: the path, then the message, at most three', () => {
    const r = z.object({ a: z.number(), b: z.object({ c: z.string() }) }).safeParse({ a: 'x', b: { c: 1 } });
    expect(r.success).toBe(false);
    if (!r.success) expect(zodIssues(r.error)).toMatch(/^a: .+; b\.c: .+$/);
  });
});
