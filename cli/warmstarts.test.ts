import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS, getPreset } from '../src/core/experiment/presets';
import { createRun, type RunOptions } from '../src/core/experiment/runner';
import type { RunnerEvent } from '../src/core/experiment/events';
import type { ExperimentSpec } from '../src/core/experiment/spec';
import {
  WARM_START_INDEX_FILE,
  keyOfFields,
  parseWarmStartText,
  serializeWarmStartFile,
  warmStartInputs,
  warmStartKey,
  type WarmStartCache,
} from '../src/core/experiment/warmStartCache';
import { useBackend } from '../src/core/testing/fixed-policy';
import { SHIPPED_WARM_START_DIR, nodeWarmStartCache } from '../src/engine/warmStartNode';
import { checkWarmStarts, warmStartPlan, writeIndex } from './warmstarts-lib';

describe('the shipped warm starts (public/warmstarts)', () => {
  it('one file per distinct warm start, covering every preset member', () => {
    const plan = warmStartPlan();
    const users = plan.flatMap((e) => e.users).sort();
    const members = Object.entries(PRESETS).flatMap(([id, p]) => p.spec.members.map((m) => `${id}/${m.id}`)).sort();
    expect(users).toEqual(members);
    expect(new Set(plan.map((e) => e.key)).size).toBe(plan.length);
    // collapse's A is the A of the presets built on the same regime, and diversity's twin T.
    expect(plan.find((e) => e.users.includes('collapse/A'))!.users).toEqual(
      expect.arrayContaining(['diversity/A', 'diversity/T', 'ensemble-control/A', 'intrinsic/A']),
    );
  });

  it('are all there and up to date (else: npm run warmstarts)', () => {
    const result = checkWarmStarts(SHIPPED_WARM_START_DIR);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  describe('--check', () => {
    let dir: string;
    const plan = warmStartPlan({ quick: getPreset('quick')! });
    const names = plan.map((e) => `${e.key}.json`);
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'warmstarts-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const fresh = () => {
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'warmstarts-'));
      for (const n of names) copyFileSync(join(SHIPPED_WARM_START_DIR, n), join(dir, n));
      writeIndex(dir, plan);
    };

    it('passes a folder holding exactly what the presets need', () => {
      fresh();
      expect(checkWarmStarts(dir, plan)).toEqual({ ok: true, problems: [] });
    });

    it('lists missing, stale, unneeded and invalid files', () => {
      fresh();
      rmSync(join(dir, names[0]));
      writeFileSync(join(dir, 'deadbeefdeadbeef.json'), '{}');
      // The second file, made for another experiment seed but kept under its old name.
      const file = parseWarmStartText(readFileSync(join(dir, names[1]), 'utf8'));
      const fields = { ...file.keyFields, seed: 2 };
      writeFileSync(join(dir, names[1]), serializeWarmStartFile({ ...file, keyFields: fields, key: keyOfFields(fields) }));
      const { ok, problems } = checkWarmStarts(dir, plan);
      expect(ok).toBe(false);
      expect(problems).toEqual([
        `${names[0]}: missing (quick/A)`,
        `${names[1]}: it is stale: it was made for other settings (seed differ) (quick/B)`,
        'deadbeefdeadbeef.json: stale, no preset needs it',
      ]);
      rmSync(join(dir, WARM_START_INDEX_FILE));
      expect(checkWarmStarts(dir, plan).problems).toContain(`${WARM_START_INDEX_FILE}: missing`);
    });

    it('refuses a truncated file and a cached (not shipped) one', () => {
      fresh();
      writeFileSync(join(dir, names[0]), readFileSync(join(dir, names[0]), 'utf8').slice(0, 500));
      const file = parseWarmStartText(readFileSync(join(dir, names[1]), 'utf8'));
      writeFileSync(join(dir, names[1]), serializeWarmStartFile({ ...file, origin: 'cached' }));
      const { problems } = checkWarmStarts(dir, plan);
      expect(problems[0]).toMatch(new RegExp(`^${names[0]}: invalid: .*${names[0]}: the warm-start file is not valid JSON \\(quick/A\\)$`));
      expect(problems[1]).toBe(`${names[1]}: it is a cached warm start, not a shipped one (quick/B)`);
    });
  });
});

/** The base event and the first RL steps of a run (wall-clock times zeroed). */
async function firstSteps(spec: ExperimentSpec, cache?: WarmStartCache) {
  const run = createRun(spec, { backend: 'wasm', warmStartCache: cache } as RunOptions);
  const out: RunnerEvent[] = [];
  const t0 = performance.now();
  let warmMs = 0;
  for await (const e of run.events()) {
    if (e.type === 'base') warmMs = performance.now() - t0;
    if (e.type === 'base' || e.type === 'step') out.push(e.type === 'step' ? { ...e, stepMs: 0 } : e);
  }
  run.dispose();
  return { events: out, warmMs };
}

describe('the quick preset on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('started from the shipped files equals the run that warm-starts itself', async () => {
    const spec = { ...structuredClone(getPreset('quick')!.spec), steps: 1 };
    const { maxLen } = warmStartInputs(spec);
    const keys = spec.members.map((m) => warmStartKey(spec, m, maxLen, 'wasm'));
    const shipped = await firstSteps(spec, nodeWarmStartCache());
    const plain = await firstSteps(spec);
    const base = shipped.events[0] as Extract<RunnerEvent, { type: 'base' }>;
    expect(base.members.map((m) => m.warmStartSource), `runner.ts passes RunOptions.warmStartCache to loadOrBuildMember (keys ${keys})`).toEqual(['shipped', 'shipped']);
    const strip = (events: RunnerEvent[]) =>
      events.map((e) => (e.type === 'base' ? { ...e, members: e.members.map(({ warmStartSource, warmStartBackend, ...m }) => m) } : e));
    expect(strip(shipped.events)).toEqual(strip(plain.events));
    console.log(`quick: warm start + base evaluation ${(plain.warmMs / 1000).toFixed(1)} s trained, ${(shipped.warmMs / 1000).toFixed(1)} s from the shipped files`);
  });
});
