/**
 * Run files (bundle.ts): a record survives serialize -> parse unchanged; every kind of bad file is
 * refused with a message in words; random and mutated files never throw (fast-check).
 */
import { jsonPaths, setAt } from './testing/jsonPaths';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RolloutSample, RunSummary } from '../core/experiment/events';
import { PRESETS } from '../core/experiment/presets';
import { armMetrics, stepEvent } from '../app/store/fixtures';
import { type RunRecord, replayRecord } from '../app/store/record';
import { BUNDLE_MIGRATIONS, BUNDLE_SAMPLE_STEPS, BUNDLE_VERSION, type BundleMigration, MAX_BUNDLE_CHARS, MAX_BUNDLE_SEEDS, MAX_NAME_CHARS, type ParseBundleResult, cleanName, parseBundle, serializeBundle, serializeSeedsBundle } from './bundle';

const spec = PRESETS.quick.spec;

function sample(step: number): RolloutSample {
  return {
    armId: 'self',
    prompt: `3+${step}+1=`,
    truth: String(4 + step),
    members: [{ memberId: 'A', completions: ['<8>', null], answers: ['8', null], plurality: '8', pseudoLabel: '8', rewards: [1, 0], oracleRewards: [0, 0] }],
  };
}

/** A record of the quick preset's shape: base, `steps` steps, and 'done' when `done`. */
function makeRecord(steps = 3, done = true): RunRecord {
  const record: RunRecord = {
    spec,
    backend: 'wasm',
    events: [
      {
        type: 'base',
        members: [
          { id: 'A', family: 'mlp', params: 3100, label: 'MLP 32x1', warmStartSteps: 66, warmStartSource: 'shipped', warmStartBackend: 'wasm', warmStartReached: true, warmStartBest: 0.41 },
          { id: 'B', family: 'mlp', params: 3100, label: 'MLP 32x1', warmStartNote: '<b>not</b> cached' },
        ],
        base: [{ memberId: 'A', passAt1: 0.41, majAtG: 0.55 }, { memberId: 'B', passAt1: 0.4, majAtG: 0.5 }],
        baseKappa: [{ a: 'A', b: 'B', kappa: null, bothWrongSame: 0.05, passCorrelation: 0.3, pooledMajAtG: 0.6 }],
      },
    ],
  };
  for (let s = 1; s <= steps; s++) {
    const r = 0.1 * s + 1 / 3;
    const arms = spec.arms.map((a) =>
      armMetrics(a.id, a.scheme, { A: { reward: r, evalPassAt1: s % 3 === 0 ? 0.45 : undefined }, B: { reward: r / 2, pseudoLabelAccuracy: null, kl: null } }, s % 3 === 0 ? { ensembleMajAtG: 0.61 } : {}),
    );
    record.events.push(stepEvent(s, arms, { steps: spec.steps, samples: [sample(s)], stepMs: 12.5, tokens: 900 }));
  }
  if (done) {
    const summary: RunSummary = {
      seed: spec.seed,
      arms: spec.arms.map((a) => ({ id: a.id, scheme: a.scheme, members: [{ id: 'A', family: 'mlp', params: 3100, history: [], collapseStep: null }], pairs: [], ensemble: [{ step: 3, majAtG: 0.61 }] })),
      base: [],
      baseKappa: [],
      medianStepMs: 12.5,
      backend: 'wasm',
    };
    record.events.push({ type: 'done', summary });
  }
  return record;
}

function ok(r: ParseBundleResult) {
  if (!r.ok) throw new Error(`expected a bundle, got: ${r.error}`);
  return r.bundle;
}
function error(r: ParseBundleResult): string {
  if (r.ok) throw new Error('expected an error, got a bundle');
  expect(r.error).toMatch(/^This run file could not be loaded: /);
  return r.error;
}
/** A valid file as a JSON value to tamper with. */
const doc = (record = makeRecord()) => JSON.parse(serializeBundle(record, 'quick, seed 1', { createdAt: new Date('2025-01-02T03:04:05Z'), preset: 'quick' }));
const text = (value: unknown) => JSON.stringify(value);

describe('serializeBundle -> parseBundle', () => {
  it('round-trips a record: same spec, backend, events and the same replayed charts', () => {
    const record = makeRecord();
    const bundle = ok(parseBundle(serializeBundle(record, 'my run', { createdAt: new Date('2025-01-02T03:04:05Z'), preset: 'quick' })));
    expect(bundle).toMatchObject({ format: 'cohort-lab-run', version: BUNDLE_VERSION, name: 'my run', createdAt: '2025-01-02T03:04:05.000Z', preset: 'quick' });
    expect(bundle.app?.name).toBe('cohort-lab');
    expect(bundle.record).toEqual(record);
    expect(replayRecord(bundle.record, 1)).toEqual(replayRecord(record, 1));
  });

  it('keeps an unfinished run unfinished', () => {
    const bundle = ok(parseBundle(serializeBundle(makeRecord(2, false), 'stopped')));
    expect(bundle.record.events.map((e) => e.type)).toEqual(['base', 'step', 'step']);
    expect(replayRecord(bundle.record, 1).phase).toBe('stopped');
  });

  it('refuses a NaN metric (written as null: JSON has no NaN), naming it: runs now stop before one', () => {
    const record = makeRecord(2, false);
    const step = record.events[1];
    if (step.type !== 'step') throw new Error('fixture');
    step.arms[0].members.A.loss = Number.NaN;
    expect(error(parseBundle(serializeBundle(record, 'diverged')))).toContain('record.events.1.arms.0.members.A.loss: a NaN written as null (a run that diverged): not a number');
  });

  it("reads a run that stopped on a NaN: its 'nonfinite' event comes back, and the replay shows the halt", () => {
    const record = makeRecord(2, false);
    const halt = { type: 'nonfinite', step: 3, armId: 'self', memberId: 'B', quantity: 'gradient', value: 'Infinity', explanation: 'The gradient norm of member B in arm self became Infinity at step 3.' } as const;
    record.events.push(halt);
    const bundle = ok(parseBundle(serializeBundle(record, 'stopped')));
    expect(bundle.record.events.at(-1)).toEqual(halt);
    const replayed = replayRecord(bundle.record, 1);
    expect(replayed.halt).toEqual(halt);
    expect(replayed.series.x).toEqual([1, 2]);
  });

  it("refuses a 'nonfinite' event that is not the step after the last, not last, or of a stranger", () => {
    const withHalt = (over: Record<string, unknown>, after: unknown[] = []) => {
      const d = doc();
      d.record.events.splice(4);
      d.record.events.push({ type: 'nonfinite', step: 4, armId: 'self', memberId: 'A', quantity: 'loss', value: 'NaN', explanation: 'x', ...over }, ...after);
      return error(parseBundle(text(d)));
    };
    expect(withHalt({ step: 9 })).toContain('record.events.4: the run stopped at step 9 but its last step was 3');
    expect(withHalt({ memberId: 'Z' })).toContain('record.events.4: arm "self" has no member "Z"');
    expect(withHalt({ value: 'nan' })).toContain('record.events.4.value');
    expect(withHalt({ quantity: 'kl' })).toContain('record.events.4.quantity');
    expect(withHalt({}, [doc().record.events[4]])).toContain('record.events.4: events after the end of the run');
  });

  it('keeps rollout samples for the last BUNDLE_SAMPLE_STEPS steps only', () => {
    const record = makeRecord(BUNDLE_SAMPLE_STEPS + 5, false);
    const big = { ...record, spec: { ...spec, steps: BUNDLE_SAMPLE_STEPS + 5 } };
    for (const e of big.events) if (e.type === 'step') e.steps = big.spec.steps;
    const events = ok(parseBundle(serializeBundle(big, 'long'))).record.events;
    const sampled = events.filter((e) => e.type === 'step' && e.samples.length > 0);
    expect(sampled).toHaveLength(BUNDLE_SAMPLE_STEPS);
    expect(sampled[0].type === 'step' && sampled[0].step).toBe(6);
  });

  it('drops an unknown preset id and cleans the name to one line', () => {
    const d = doc();
    d.preset = 'no-such-preset';
    expect(ok(parseBundle(text(d))).preset).toBeUndefined();
    expect(cleanName('  a\nb\tc  ')).toBe('a b c');
    expect(cleanName('   ')).toBe('Cohort Lab run');
    expect(cleanName('x'.repeat(500))).toHaveLength(MAX_NAME_CHARS);
  });

  it('keeps a 1,000-step run of the collapse shape, full-precision numbers, well under the size limit', () => {
    const collapse = { ...PRESETS.collapse.spec, steps: 1000 };
    const record: RunRecord = { spec: collapse, backend: 'wasm', events: [makeRecord(0, false).events[0]] };
    const history: RunSummary['arms'][number]['members'][number]['history'] = [];
    for (let s = 1; s <= 1000; s++) {
      const arms = collapse.arms.map((a) => armMetrics(a.id, a.scheme, Object.fromEntries(a.members.map((m) => [m, { reward: Math.random(), loss: Math.random() / 7, entropy: Math.PI * Math.random() }]))));
      record.events.push(stepEvent(s, arms, { steps: 1000, samples: [sample(s)] }));
      history.push({ step: s, ...arms[0].members.A });
    }
    // The runner's summary repeats every member's history: about doubles the file.
    const arms = collapse.arms.map((a) => ({ id: a.id, scheme: a.scheme, members: a.members.map((id) => ({ id, family: 'mlp', params: 1, history, collapseStep: null })), pairs: [], ensemble: [] }));
    record.events.push({ type: 'done', summary: { seed: 1, arms, base: [], baseKappa: [], medianStepMs: 1, backend: 'wasm' } });
    const json = serializeBundle(record, 'long');
    expect(json.length).toBeLessThan(MAX_BUNDLE_CHARS / 3);
    expect(ok(parseBundle(json)).record.events).toHaveLength(1002);
  });
});

describe('parseBundle: bad files', () => {
  it('refuses a file over the size limit unread', () => {
    expect(error(parseBundle(' '.repeat(MAX_BUNDLE_CHARS + 1)))).toContain('the limit is 25.0 MB');
  });

  it('refuses what is not JSON, or a truncated file', () => {
    const full = serializeBundle(makeRecord(), 'r');
    for (const t of ['', 'hello', full.slice(0, full.length / 2), '{"format":"cohort-lab-run",']) {
      expect(error(parseBundle(t))).toContain('it is not valid JSON');
    }
  });

  it('refuses another format in words', () => {
    expect(error(parseBundle('[1,2]'))).toContain('it has no "format" field');
    expect(error(parseBundle(text({ format: 'cohort-lab-metrics', version: 1 })))).toContain('its format is "cohort-lab-metrics"; expected "cohort-lab-run"');
    expect(error(parseBundle(text({ version: 1, spec }))).toString()).toContain('not a Cohort Lab run file');
  });

  it('asks for a reload for a newer format, and refuses an older one no migration reads', () => {
    const newer = parseBundle(text({ ...doc(), version: BUNDLE_VERSION + 1 }));
    expect(!newer.ok && newer.kind).toBe('newer-version');
    expect(error(newer)).toContain(`made by a newer Cohort Lab (run file format v${BUNDLE_VERSION + 1}; this page reads up to v${BUNDLE_VERSION}). Reload the page`);
    const older = parseBundle(text({ ...doc(), version: 0 }));
    expect(!older.ok && older.kind).toBe('old-version');
    expect(error(older)).toContain('run file format v0 is no longer supported');
    expect(error(parseBundle(text({ ...doc(), version: '1' })))).toContain('is not a whole number');
    const d = doc();
    d.record.spec.version = 2;
    expect(error(parseBundle(text(d)))).toContain('spec version 2');
  });

  it('upgrades an older file through a migration; a migration that fails is a message', () => {
    // A made-up v0: the record was called "run" and the name "title".
    const { record, name, ...rest } = doc();
    const v0 = text({ ...rest, version: 0, title: name, run: record });
    const migrations: Record<number, BundleMigration> = {
      ...BUNDLE_MIGRATIONS,
      0: ({ run, title, ...d }) => ({ ...d, version: 1, name: title, record: run }),
    };
    const bundle = ok(parseBundle(v0, migrations));
    expect(bundle.name).toBe('quick, seed 1');
    expect(bundle.record.events).toHaveLength(5);
    expect(error(parseBundle(v0, { 0: () => { throw new Error('boom'); } }))).toContain('could not be upgraded from run file format v0');
    expect(error(parseBundle(v0, { 0: (d) => ({ ...d, version: 0 }) }))).toContain('could not be upgraded');
  });

  it('names the field of an invalid value', () => {
    const cases: [(d: any) => void, string][] = [
      [(d) => (d.record.spec.steps = 1e9), 'record.spec.steps: Too big'],
      [(d) => (d.record.events[1].steps = 1e9), 'record.events.1.steps: Too big'],
      [(d) => (d.record.events[1].arms[0].members.A.reward = 'high'), 'record.events.1.arms.0.members.A.reward'],
      [(d) => (d.record.events[1].arms[0].members.A.pseudoLabelAccuracy = '0.5'), 'record.events.1.arms.0.members.A.pseudoLabelAccuracy'],
      [(d) => (d.record.events[1].stepMs = -1), 'record.events.1.stepMs'],
      [(d) => (d.record.events[1].samples[0].prompt = 'x'.repeat(10_000)), 'record.events.1.samples.0.prompt: Too big'],
      [(d) => (d.record.events[1].arms = Array(11).fill(d.record.events[1].arms[0])), 'record.events.1.arms: Too big'],
      [(d) => (d.name = 'n'.repeat(MAX_NAME_CHARS + 1)), 'name: at most 120 characters'],
      [(d) => (d.name = '  '), 'name: a run needs a name'],
      [(d) => (d.createdAt = 'yesterday'), 'createdAt'],
      [(d) => (d.record.events[0].type = 'warmstart'), 'record.events.0'],
      [(d) => delete d.record, 'record'],
    ];
    for (const [mutate, says] of cases) {
      const d = doc();
      mutate(d);
      const message = error(parseBundle(text(d)));
      expect(message).toContain('it holds invalid values: ');
      expect(message).toContain(says);
    }
  });

  it('refuses 1e999 (Infinity in JSON.parse) where a number is needed', () => {
    const t = serializeBundle(makeRecord(), 'r').replace('"stepMs":12.5', '"stepMs":1e999');
    expect(error(parseBundle(t))).toContain('record.events.1.stepMs');
  });

  it('refuses prototype keys as member ids without touching Object.prototype', () => {
    const t = serializeBundle(makeRecord(), 'r').replace('"members":{"A":', '"members":{"__proto__":');
    expect(error(parseBundle(t))).toContain('it contains a "__proto__" key');
    const ctor = serializeBundle(makeRecord(), 'r').replace('"members":{"A":', '"members":{"constructor":');
    expect(error(parseBundle(ctor))).toContain('arm oracle has no member "constructor"');
    expect(({} as Record<string, unknown>).reward).toBeUndefined();
  });

  it('refuses events that are not a run of its experiment', () => {
    const cases: [(d: any) => void, string][] = [
      [(d) => d.record.events.shift(), 'its events do not start with the base evaluation'],
      [(d) => ([d.record.events[1], d.record.events[2]] = [d.record.events[2], d.record.events[1]]), 'record.events.2: step 1 comes after step 2'],
      [(d) => (d.record.events[1].steps = 7), 'does not fit an experiment of 6 steps'],
      [(d) => (d.record.events[2].arms[1].armId = 'ghost'), 'record.events.2: arm "ghost" is not in the experiment'],
      [(d) => (d.record.events[1].arms[0].members.C = d.record.events[1].arms[0].members.A), 'arm oracle has no member "C"'],
      [(d) => (d.record.events[1].samples[0].armId = 'ghost'), 'a rollout sample names an arm or member not in the experiment'],
      [(d) => d.record.events.splice(1, 0, d.record.events[0]), 'record.events.1: a second base evaluation'],
      [(d) => d.record.events.push(d.record.events[1]), 'events after the end of the run'],
      [(d) => (d.record.events = [d.record.events[0]]), 'it holds no RL step'],
    ];
    for (const [mutate, says] of cases) {
      const d = doc();
      mutate(d);
      const r = parseBundle(text(d));
      expect(!r.ok && r.kind).toBe('invalid');
      expect(error(r)).toContain(says);
    }
  });

  it('keeps a script in a name as plain text (rendering is the page\'s job: as text)', () => {
    const d = doc();
    d.name = '<script>alert(1)</script>';
    expect(ok(parseBundle(text(d))).name).toBe('<script>alert(1)</script>');
  });
});

describe('parseBundle never throws (fast-check)', () => {
  const valid = serializeBundle(makeRecord(), 'r');
  const base = JSON.parse(valid);

  const allPaths = jsonPaths(base).filter((p) => p.length > 0);


  const expectTyped = (r: ParseBundleResult) => {
    if (r.ok) expect(r.bundle.format).toBe('cohort-lab-run');
    else {
      expect(['too-large', 'not-json', 'wrong-format', 'newer-version', 'old-version', 'invalid']).toContain(r.kind);
      expect(r.error.length).toBeGreaterThan(30);
      // A specific message, not parseBundle's last-resort catch: no check threw on the way.
      expect(r.error).not.toBe('This run file could not be loaded: it could not be read.');
    }
  };

  it('on a valid file with one value changed, removed or retyped', () => {
    const weird = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 0, 1e308, -0, 5001, '', '__proto__', [], {}, true, 'constructor'));
    fc.assert(
      fc.property(fc.constantFrom(...allPaths), weird, fc.boolean(), (path, value, remove) => {
        expectTyped(parseBundle(text(setAt(base, path, value, remove))));
      }),
      { numRuns: 1000 },
    );
  });

  it('on truncated, spliced and random text', () => {
    fc.assert(
      fc.property(fc.nat(valid.length), fc.nat(valid.length), fc.string({ maxLength: 8 }), (a, b, insert) => {
        expectTyped(parseBundle(valid.slice(0, a)));
        expectTyped(parseBundle(valid.slice(0, Math.min(a, b)) + insert + valid.slice(Math.max(a, b))));
      }),
      { numRuns: 700 },
    );
    fc.assert(fc.property(fc.jsonValue(), (v) => expectTyped(parseBundle(text(v)))), { numRuns: 300 });
    fc.assert(fc.property(fc.record({ format: fc.constant('cohort-lab-run'), version: fc.oneof(fc.integer(), fc.double()), record: fc.jsonValue() }), (v) => expectTyped(parseBundle(text(v)))), { numRuns: 300 });
  });
});

describe('run files of several seeds (version 2: a class room, "Run N seeds")', () => {
  const seeded = (seed: number, steps = 3, done = true): RunRecord => {
    const r = makeRecord(steps, done);
    return { ...r, spec: { ...r.spec, seed } };
  };

  it('round-trip every seed, unfinished ones included; `record` is the first', () => {
    const seeds = [seeded(100), seeded(101, 2, false), seeded(102)];
    const bundle = ok(parseBundle(serializeSeedsBundle(seeds, 'class, 3 browsers', { preset: 'quick' })));
    expect(bundle.version).toBe(2);
    expect(bundle.seeds?.map((r) => r.spec.seed)).toEqual([100, 101, 102]);
    expect(bundle.seeds?.map((r) => r.events.length)).toEqual([5, 3, 5]);
    expect(bundle.record.spec.seed).toBe(100);
    expect(replayRecord(bundle.seeds![1], 0).series).toEqual(replayRecord(seeds[1], 0).series);
  });

  it('a version 1 file still opens, as one run with no seeds', () => {
    const v1 = { ...doc(), version: 1 };
    const bundle = ok(parseBundle(text(v1)));
    expect(bundle.version).toBe(2);
    expect(bundle.seeds).toBeUndefined();
    expect(bundle.record.events).toHaveLength(5);
  });

  it('refuses more seeds than the limit, a seed of another experiment, and a seed with no RL step', () => {
    const one = JSON.parse(serializeSeedsBundle([seeded(1)], 'x'));
    expect(error(parseBundle(text({ ...one, seeds: Array(MAX_BUNDLE_SEEDS + 1).fill(one.seeds[0]) })))).toContain(`seeds: at most ${MAX_BUNDLE_SEEDS} runs`);
    const other = seeded(2);
    other.spec = { ...other.spec, arms: other.spec.arms.slice(0, 2) };
    other.events = other.events.map((e) => (e.type === 'step' ? { ...e, arms: e.arms.slice(0, 2) } : e.type === 'done' ? { ...e, summary: { ...e.summary, arms: e.summary.arms.slice(0, 2) } } : e));
    expect(error(parseBundle(serializeSeedsBundle([seeded(1), other], 'x')))).toContain('seeds.1: its arms or members are not those of the first run');
    expect(error(parseBundle(serializeSeedsBundle([seeded(1), seeded(2, 0, false)], 'x')))).toContain('seeds.1: it holds no RL step');
    expect(error(parseBundle(text({ ...one, seeds: [] })))).toContain('seeds');
  });
});
