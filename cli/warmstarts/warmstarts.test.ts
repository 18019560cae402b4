import { targetBetweenSeeds } from '../../src/core/testing/retry-target';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS, getPreset, layered, member, type Preset } from '../../src/core/experiment/presets';
import { createRun, type RunOptions } from '../../src/core/experiment/runner';
import type { RunnerEvent } from '../../src/core/experiment/events';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import {
  WARM_START_INDEX_FILE,
  keyOfFields,
  parseWarmStartText,
  serializeWarmStartFile,
  warmStartInputs,
  warmStartKey,
  type WarmStartCache,
} from '../../src/core/experiment/warmStartCache';
import { useBackend } from '../../src/core/testing/fixed-policy';
import { ROOM_WARM_START_DIR, SHIPPED_WARM_START_DIR, nodeWarmStartCache, readWarmStartFile } from '../../src/engine/warmStartNode';
import { ROOM_SEEDS } from '../../src/core/experiment/roomSeeds';
import { levelOfPair, levelPair, peerLevels } from '../../src/room/levels';
import { buildWarmStarts, checkWarmStarts, nextRetry, roomWarmStartPlan, warmStartPlan, writeIndex } from './warmstarts-lib';

describe('the shipped warm starts (public/warmstarts)', () => {
  it('one file per distinct warm start, covering every preset member', () => {
    const plan = warmStartPlan();
    const users = plan.flatMap((e) => e.users).sort();
    const members = Object.entries(PRESETS).flatMap(([id, p]) => p.spec.members.map((m) => `${id}/${m.id}`)).sort();
    expect(users).toEqual(members);
    expect(new Set(plan.map((e) => e.key)).size).toBe(plan.length);
    // A member of one regime and seed is one file: diversity's A is its twin T and intrinsic's A
    // (all at seed 1); collapse's A (its link opens seed 105) is ensemble-control's, built on it.
    expect(plan.find((e) => e.users.includes('diversity/A'))!.users).toEqual(expect.arrayContaining(['diversity/T', 'intrinsic/A']));
    expect(plan.find((e) => e.users.includes('collapse/A'))!.users).toEqual(['collapse/A', 'ensemble-control/A']);
  });

  it('are all there and up to date (else: npm run warmstarts)', () => {
    const result = checkWarmStarts(SHIPPED_WARM_START_DIR);
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("the rooms' seeds' are all there and up to date, each reached its target, and none repeats a preset's file (else: npm run warmstarts -- --room)", () => {
    const shipped = warmStartPlan();
    const plan = roomWarmStartPlan(shipped);
    expect(checkWarmStarts(ROOM_WARM_START_DIR, plan).problems).toEqual([]);
    // Every member of every listed seed (a list shipped per partner level: the two of the level its
    // position serves, as a paired room hands levels out): one entry each, or the presets' own file.
    const users = [...shipped, ...plan].flatMap((e) => e.users);
    for (const [id, list] of Object.entries(ROOM_SEEDS)) {
      const spec = getPreset(id)!.spec;
      for (const [p, seed] of list.seeds.entries()) {
        const pair = list.levels ? levelPair(spec, levelOfPair(peerLevels(spec), p)!)! : null;
        for (const m of spec.members.filter((x) => !pair || [pair.anchor, pair.partner].includes(x.id))) {
          const mine = `${id}/${m.id} seed ${seed}`;
          expect(users.includes(mine) || (seed === getPreset(id)!.spec.seed && users.includes(`${id}/${m.id}`)), mine).toBe(true);
        }
      }
    }
    const shippedKeys = new Set(shipped.map((e) => e.key));
    expect(plan.filter((e) => shippedKeys.has(e.key))).toEqual([]);
    for (const entry of plan) {
      const file = readWarmStartFile(join(ROOM_WARM_START_DIR, `${entry.key}.json`));
      expect(file, entry.users[0]).toMatchObject({ reachedTarget: true });
    }
  });

  it('each reached its warm-start target, and says so, or its retry did (docs/WARMSTARTS.md, "The guard")', () => {
    for (let entry of warmStartPlan()) {
      let file = readWarmStartFile(join(SHIPPED_WARM_START_DIR, `${entry.key}.json`));
      if (entry.member.warmStartTarget === 0) {
        // A fixed warm-start budget (the length preset): nothing to reach, every step taken.
        expect(file.warmStartSteps, entry.users[0]).toBe(entry.member.warmStartSteps);
        continue;
      }
      while (file.reachedTarget === false) {
        const next = nextRetry(entry);
        expect(next, `${entry.users[0]} missed its target and its preset does not retry`).not.toBeNull();
        entry = next!;
        file = readWarmStartFile(join(SHIPPED_WARM_START_DIR, `${entry.key}.json`));
      }
      expect(file, entry.users[0]).toMatchObject({ reachedTarget: true });
      expect(file.bestValidation, entry.users[0]).toBeGreaterThanOrEqual(entry.member.warmStartTarget);
    }
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

    it('refuses a file that missed its warm-start target', () => {
      fresh();
      const file = parseWarmStartText(readFileSync(join(dir, names[0]), 'utf8'));
      writeFileSync(join(dir, names[0]), serializeWarmStartFile({ ...file, reachedTarget: false, bestValidation: 0.25 }));
      // (The index also notes the file's new size.)
      expect(checkWarmStarts(dir, plan).problems).toContain(`${names[0]}: it missed its warm-start target 0.4 (best 0.25) (quick/A)`);
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

describe('npm run warmstarts and the warm-start guard, on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  /** A preset of one tiny MLP (a few steps of warm start). */
  const preset = (initSeed: number, warmStartTarget: number, warmStart: Partial<ExperimentSpec['warmStart']> = {}): Preset => ({
    id: 't',
    title: 't',
    explanation: 't',
    runtime: '',
    spec: layered({
      seed: 5,
      task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
      data: { labeledPool: 160, rlPool: 100, heldOut: 16 },
      warmStart: { batchSize: 32, learningRate: 1e-2, ...warmStart },
      members: [member({ id: 'A', family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 3, warmStartTarget, warmStartExamples: 120, initSeed })],
      arms: [{ id: 'self', scheme: 'self', members: ['A'] }],
      grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
      steps: 1,
      evalEvery: 1,
    }),
  });

  it("ships a miss that its preset retries, and the retry; refuses one that it does not", async () => {
    // A target the first init seed misses and the next one reaches (their best values differ).
    const { first, target } = await targetBetweenSeeds((initSeed, t) => preset(initSeed, t).spec);
    expect(target, 'two seeds in 1..8 whose best values differ').not.toBeNaN();

    const dir = mkdtempSync(join(tmpdir(), 'warmstarts-'));
    try {
      const retrying = { t: preset(first, target, { onMiss: 'retry', retries: 2 }) };
      const plan = warmStartPlan(retrying);
      const lines: string[] = [];
      const made = await buildWarmStarts(dir, plan, { log: (l) => lines.push(l) });
      expect(made.made).toHaveLength(2);
      expect(lines[0]).toMatch(/missed its target: retried with the next init seed$/);
      expect(checkWarmStarts(dir, plan)).toEqual({ ok: true, problems: [] });
      const index = JSON.parse(readFileSync(join(dir, WARM_START_INDEX_FILE), 'utf8'));
      expect(index.files.map((f: { members: string[] }) => f.members).sort()).toEqual([['t/A'], ['t/A (retry 1)']]);
      // A run of the preset loads both shipped files and trains nothing.
      const run = createRun(retrying.t.spec, { backend: 'wasm', warmStartCache: nodeWarmStartCache({ dirs: [dir] }) } as RunOptions);
      const events: RunnerEvent[] = [];
      for await (const e of run.events()) events.push(e);
      run.dispose();
      expect(events.filter((e) => e.type === 'warmstart' && e.step > 0)).toEqual([]);
      const base = events.find((e) => e.type === 'base') as Extract<RunnerEvent, { type: 'base' }>;
      expect(base.members[0]).toMatchObject({ warmStartSource: 'shipped', warmStartReached: true, warmStartInitSeed: first + 1, warmStartRetries: 1 });

      const stopping = { t: preset(first, target) };
      await expect(buildWarmStarts(dir, warmStartPlan(stopping))).rejects.toThrow(
        /^t\/A: member A did not reach its warm-start target .* in 3 steps \(best [^)]+\): give it more warm-start steps/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
