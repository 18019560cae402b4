import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, type RunOptions } from './runner';
import { layered, member } from './presets';
import type { ExperimentSpec, MemberSpec } from './spec';
import type { RunnerEvent } from './events';
import {
  MAX_WARM_START_CHARS,
  SHIPPED_BACKEND,
  WARM_START_ENGINE_VERSION,
  WARM_START_FORMAT_VERSION,
  WarmStartFileError,
  decodeWarmStartFile,
  encodeWarmStartFile,
  float32ToBase64,
  keyOfFields,
  loadOrBuildMember,
  memoryWarmStartCache,
  parseWarmStartIndex,
  parseWarmStartText,
  runMaxLen,
  serializeWarmStartFile,
  warmStartFileOf,
  warmStartInputs,
  warmStartKey,
  warmStartKeyFields,
  type WarmStartCache,
  type WarmStartFile,
} from './warmStartCache';
import { evaluatePolicy } from '../evaluate';
import { getTask } from '../tasks/index';
import { useBackend } from '../testing/fixed-policy';

/** Two tiny MLPs (a few seconds of warm start on wasm), two arms, two RL steps. */
function tinySpec(patch: { seed?: number; warmStartTarget?: number } = {}): ExperimentSpec {
  const m = (id: string) =>
    member({ id, family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 12, warmStartTarget: patch.warmStartTarget ?? 0, warmStartExamples: 120 });
  return layered({
    seed: patch.seed ?? 5,
    task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
    data: { labeledPool: 160, rlPool: 100, heldOut: 16 },
    warmStart: { batchSize: 32, learningRate: 1e-2 },
    members: [m('A'), m('B')],
    arms: [
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
    steps: 2,
    evalEvery: 1,
  });
}

const keyOf = (spec: ExperimentSpec, m: MemberSpec = spec.members[0], backend = 'wasm') => warmStartKey(spec, m, runMaxLen(spec), backend);

describe('warmStartKey', () => {
  const spec = tinySpec();
  const base = keyOf(spec);
  const withSpec = (f: (s: ExperimentSpec) => void) => {
    const s = structuredClone(spec);
    f(s);
    return keyOf(s);
  };

  it('is 16 hex digits and the same for an equal spec in any key order', () => {
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    const reversed = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;
    const other = reversed(spec) as ExperimentSpec;
    expect(Object.keys(other)[0]).not.toBe(Object.keys(spec)[0]);
    expect(keyOf(other)).toBe(base);
  });

  it('changes with every field that determines the warm-started weights', () => {
    const changes: [string, (s: ExperimentSpec) => void][] = [
      ['seed', (s) => (s.seed = 6)],
      ['task.id', (s) => (s.task.id = 'addition')],
      ['task.difficulty', (s) => (s.task.difficulty = 4)],
      ['task.scratchpad', (s) => (s.task.scratchpad = 'mixed')],
      ['data.labeledPool', (s) => (s.data.labeledPool = 161)],
      ['data.rlPool', (s) => (s.data.rlPool = 101)],
      ['data.heldOut', (s) => (s.data.heldOut = 17)],
      ['warmStart.batchSize', (s) => (s.warmStart.batchSize = 16)],
      ['warmStart.learningRate', (s) => (s.warmStart.learningRate = 2e-2)],
      ['grpo.maxNewTokens (maxLen)', (s) => (s.grpo.maxNewTokens = 30)],
      ['member.family', (s) => (s.members[0].family = 'gru')],
      ['member.dModel', (s) => (s.members[0].dModel = 24)],
      ['member.layers', (s) => (s.members[0].layers = 2)],
      ['member.heads', (s) => (s.members[0].heads = 4)],
      ['member.window', (s) => (s.members[0].window = 5)],
      ['member.warmStartSteps', (s) => (s.members[0].warmStartSteps = 13)],
      ['member.warmStartTarget', (s) => (s.members[0].warmStartTarget = 0.3)],
      ['member.warmStartExamples', (s) => (s.members[0].warmStartExamples = 121)],
      ['member.initSeed', (s) => (s.members[0].initSeed += 1)],
      ['member.dataSeed', (s) => (s.members[0].dataSeed += 1)],
      ['member.warmStartLearningRate', (s) => (s.members[0].warmStartLearningRate = 7e-3)],
      ['member.warmStartBatchSize', (s) => (s.members[0].warmStartBatchSize = 24)],
    ];
    const keys = new Set([base]);
    for (const [what, change] of changes) {
      const k = withSpec(change);
      expect(k, what).not.toBe(base);
      keys.add(k);
    }
    expect(keys.size).toBe(changes.length + 1);
    // A member's own warm-start settings equal to the experiment's are the same warm start.
    expect(withSpec((s) => Object.assign(s.members[0], { warmStartLearningRate: s.warmStart.learningRate, warmStartBatchSize: s.warmStart.batchSize }))).toBe(base);
    expect(keyOf(spec, spec.members[0], 'webgpu')).not.toBe(base);
    expect(warmStartKey(spec, spec.members[0], runMaxLen(spec) + 1, 'wasm')).not.toBe(base);
    const fields = warmStartKeyFields(spec, spec.members[0], runMaxLen(spec), 'wasm');
    expect(fields.engine).toBe(WARM_START_ENGINE_VERSION);
    expect(keyOfFields({ ...fields, engine: WARM_START_ENGINE_VERSION + 1 })).not.toBe(base);
    expect(keyOfFields({ ...fields, vocab: fields.vocab + 'X' })).not.toBe(base);
  });

  it('does not change with what the warm start does not read', () => {
    const same: [string, (s: ExperimentSpec) => void][] = [
      ['grpo.learningRate', (s) => (s.grpo.learningRate = 5e-3)],
      ['grpo.groupSize', (s) => (s.grpo.groupSize = 8)],
      ['grpo.temperature', (s) => (s.grpo.temperature = 0.7)],
      ['grpo.beta', (s) => (s.grpo.beta = 0.1)],
      ['arms', (s) => (s.arms = [{ id: 'oracle', scheme: 'oracle', members: ['A'], tau: 0 }])],
      ['steps', (s) => (s.steps = 50)],
      ['evalEvery', (s) => (s.evalEvery = 7)],
      ['collapseDelta', (s) => (s.collapseDelta = 0.3)],
      ['member.id', (s) => (s.members[0].id = 'Z')],
      ['member.sampleSeed', (s) => (s.members[0].sampleSeed += 1)],
      ['another member', (s) => (s.members[1].dModel = 32)],
    ];
    for (const [what, change] of same) expect(withSpec(change), what).toBe(base);
  });

  it('uses the maxLen the runner gives its policies', () => {
    const task = getTask('digitsum');
    expect(runMaxLen(spec)).toBe(Math.max(1 + task.promptLength(3) + task.maxCompletionLength(3) + 1, 1 + task.promptLength(3) + task.maxCompletionLength(3) + 2));
    expect(runMaxLen({ ...spec, grpo: { ...spec.grpo, maxNewTokens: 40 } })).toBe(1 + task.promptLength(3) + 40);
  });
});

// ---- the file format ---------------------------------------------------------------------------

function sampleFile(origin: WarmStartFile['origin'] = 'shipped'): WarmStartFile {
  const spec = tinySpec();
  const fields = warmStartKeyFields(spec, spec.members[0], runMaxLen(spec), 'wasm');
  return {
    key: keyOfFields(fields),
    keyFields: fields,
    memberId: 'A',
    origin,
    backend: 'wasm',
    warmStartSteps: 7,
    weights: [
      { name: 'wte', shape: [2, 3], values: Float32Array.from([1, -2.5, 3e-8, 0, -0, 1e30]) },
      { name: 'head.b', shape: [3], values: Float32Array.from([0.1, 0.2, 0.3]) },
    ],
  };
}

const json = (f: WarmStartFile = sampleFile()) => JSON.parse(serializeWarmStartFile(f)) as Record<string, unknown> & { weights: Record<string, unknown>[] };
const reject = (data: unknown) => () => decodeWarmStartFile(data);

describe('warm-start files', () => {
  it('round-trip bit for bit through the text form', () => {
    const f = sampleFile();
    const back = parseWarmStartText(serializeWarmStartFile(f));
    expect(back).toEqual({ ...f });
    expect(Object.is(back.weights[0].values[4], -0)).toBe(true);
    expect(encodeWarmStartFile(f).params).toBe(9);
  });

  it('reject wrong formats and versions, saying which', () => {
    expect(() => parseWarmStartText('{not json')).toThrow('the warm-start file is not valid JSON');
    expect(reject([1, 2])).toThrow('is not a JSON object');
    expect(reject({ ...json(), format: 'safetensors' })).toThrow('is not a Cohort Lab warm start');
    expect(reject({ ...json(), version: undefined })).toThrow('has no format version');
    expect(reject({ ...json(), version: WARM_START_FORMAT_VERSION + 1 })).toThrow(
      `was made by a newer Cohort Lab (format v${WARM_START_FORMAT_VERSION + 1}; this version reads v${WARM_START_FORMAT_VERSION})`,
    );
    expect(reject({ ...json(), version: 0 })).toThrow('has format v0, which is no longer read');
    expect(reject({ ...json(), origin: 'elsewhere' })).toThrow(/origin/);
    expect(reject({ ...json(), key: '../../etc/passwd' })).toThrow('key: the key is 16 hex digits');
    expect(reject({ ...json(), key: '0123456789abcdef' })).toThrow('has a key that does not match its key fields');
    expect(reject({ ...json(), params: 8 })).toThrow('says it holds 8 values but its weights hold 9');
    for (const e of [reject([]), reject({ ...json(), version: 0 })]) expect(e).toThrow(WarmStartFileError);
  });

  it('reject wrong shapes, names, counts and non-finite values', () => {
    const withWeight = (i: number, patch: Record<string, unknown>) => {
      const j = json();
      j.weights[i] = { ...j.weights[i], ...patch };
      return j;
    };
    expect(reject(withWeight(0, { shape: [2, 4] }))).toThrow('weights.0 ("wte"): shape [2, 4] needs 8 values, the data holds 6');
    expect(reject(withWeight(0, { shape: [2, 3, 1, 1, 1] }))).toThrow(/weights\.0\.shape/);
    expect(reject(withWeight(0, { shape: [0, 3] }))).toThrow(/weights\.0\.shape\.0/);
    expect(reject(withWeight(0, { shape: [2.5, 3] }))).toThrow(/weights\.0\.shape\.0/);
    expect(reject(withWeight(0, { name: '<img src=x>' }))).toThrow('weights.0.name: weight names are 1-96 letters');
    expect(reject(withWeight(1, { name: 'wte' }))).toThrow('holds weights.1 ("wte") twice');
    expect(reject(withWeight(0, { data: 'not base64!' }))).toThrow('weights.0 ("wte"): the data is not base64 of float32 values');
    expect(reject(withWeight(0, { data: 'AAAA' }))).toThrow('the data is not base64 of float32 values');
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(reject(withWeight(1, { data: float32ToBase64(Float32Array.from([0.1, bad, 0.3])) }))).toThrow(
        `weights.1 ("head.b"): value 1 is not finite (${bad})`,
      );
    }
    expect(reject({ ...json(), weights: [] })).toThrow(/weights/);
  });

  it('reject oversize files before reading them', () => {
    expect(() => parseWarmStartText(' '.repeat(MAX_WARM_START_CHARS + 1))).toThrow(
      `the warm-start file is ${MAX_WARM_START_CHARS + 1} characters long; the limit is ${MAX_WARM_START_CHARS}`,
    );
    const j = json();
    j.weights[0] = { ...j.weights[0], shape: [2048, 2048, 2] };
    expect(reject(j)).toThrow('holds more than 4194304 values');
  });

  it('index: lists keys and <key>.json names only', () => {
    const good = { format: 'cohort-lab-warmstarts', version: 1, files: [{ key: '0123456789abcdef', file: '0123456789abcdef.json', bytes: 10, members: ['quick/A'] }] };
    expect(parseWarmStartIndex(JSON.stringify(good)).files).toHaveLength(1);
    const file = (f: string) => JSON.stringify({ ...good, files: [{ ...good.files[0], file: f }] });
    expect(() => parseWarmStartIndex(file('../secret.json'))).toThrow('file names are <key>.json');
    expect(() => parseWarmStartIndex(file('fedcba9876543210.json'))).toThrow('names fedcba9876543210.json for key 0123456789abcdef');
    expect(() => parseWarmStartIndex(JSON.stringify({ ...good, version: 2 }))).toThrow('made by a newer Cohort Lab');
    expect(() => parseWarmStartIndex('<!doctype html>')).toThrow('the warm-start index is not valid JSON');
  });
});

// ---- loadOrBuildMember -------------------------------------------------------------------------

function bits(values: Float32Array): number[] {
  return Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));
}

describe('loadOrBuildMember on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  const spec = tinySpec();
  const m = spec.members[0];
  const inputs = warmStartInputs(spec);
  const { root, pool, maxLen } = inputs;
  const build = (cache: WarmStartCache | undefined, backend = 'wasm', onProgress?: () => void) => loadOrBuildMember({ ...inputs, backend, cache }, m, onProgress);

  it('miss: trains and saves; hit: the same weights without training; a stale file is refused', async () => {
    const cache = memoryWarmStartCache();
    let progress = 0;
    const trained = await build(cache, 'wasm', () => void progress++);
    expect(trained.source).toBe('trained');
    expect(trained.info).toMatchObject({ warmStartSource: 'trained', warmStartBackend: 'wasm', warmStartSteps: 12 });
    expect(progress).toBeGreaterThan(0);
    const key = keyOf(spec);
    expect([...cache.entries.keys()]).toEqual([key]);
    expect(cache.entries.get(key)).toMatchObject({ origin: 'cached', backend: 'wasm', memberId: 'A', warmStartSteps: 12 });

    progress = 0;
    const hit = await build(cache, 'wasm', () => void progress++);
    expect(hit.source).toBe('cached');
    expect(progress).toBe(0);
    expect(hit.info).toEqual({ ...trained.info, warmStartSource: 'cached' });
    const [a, b] = [await trained.reference.exportWeights(), await hit.reference.exportWeights()];
    expect(b.map((w) => w.name)).toEqual(a.map((w) => w.name));
    a.forEach((w, i) => expect(bits(b[i].values), w.name).toEqual(bits(w.values)));
    // The base evaluation of the loaded member is the trained member's, draw for draw.
    const evalOpts = () => ({ groupSize: 4, temperature: 1, maxNewTokens: getTask('digitsum').maxCompletionLength(3) + 2, batchSize: 8, rng: root.child('eval/test') });
    const task = getTask(spec.task.id);
    const problems = pool.slice(0, 12);
    expect(await evaluatePolicy(hit.reference, task, 3, problems, evalOpts())).toEqual(await evaluatePolicy(trained.reference, task, 3, problems, evalOpts()));

    // Stale: a file under this key made for other settings is refused, and the member trains.
    const other = structuredClone(spec);
    other.warmStart.learningRate = 2e-2;
    const staleFields = warmStartKeyFields(other, other.members[0], maxLen, 'wasm');
    cache.entries.set(key, encodeWarmStartFile(await warmStartFileOf(hit, staleFields, 'cached')));
    const rebuilt = await build(cache);
    expect(rebuilt.source).toBe('trained');
    expect(rebuilt.info.warmStartNote).toBe('the cached warm start was refused: it is stale: it was made for other settings (warmStart.learningRate differ)');
    expect(cache.entries.get(key)!.keyFields).toEqual(warmStartKeyFields(spec, m, maxLen, 'wasm')); // saved anew
    for (const w of [trained, hit, rebuilt]) w.reference.dispose();
  });

  it('an unreadable or ill-fitting file and a failed save are notes, never failures', async () => {
    const fits = await build(undefined);
    const file = await warmStartFileOf(fits, warmStartKeyFields(spec, m, maxLen, 'wasm'), 'shipped');
    fits.reference.dispose();
    // The weights of another shape under the right key.
    const wrongShape: WarmStartFile = { ...file, weights: file.weights.map((w, i) => (i === 0 ? { ...w, shape: [w.shape[1], w.shape[0]] } : w)) };
    const saves: WarmStartFile[] = [];
    const tensors = tf.memory().numTensors;
    const cases: [WarmStartCache, RegExp][] = [
      [{ load: async () => { throw new WarmStartFileError('the warm-start file is not valid JSON'); }, save: async (f) => void saves.push(f) }, /^a stored warm start was refused: the warm-start file is not valid JSON$/],
      [{ load: async () => wrongShape, save: async (f) => void saves.push(f) }, /^the shipped warm start was refused: importWeights: "wte" has shape/],
      [{ load: async () => null, save: async () => { throw new Error("the browser's storage for this site is full"); } }, /^the warm start was not cached: the browser's storage for this site is full$/],
    ];
    for (const [cache, note] of cases) {
      const w = await build(cache);
      expect(w.source).toBe('trained');
      expect(w.info.warmStartNote).toMatch(note);
      w.reference.dispose();
    }
    expect(saves).toHaveLength(2);
    expect(tf.memory().numTensors).toBe(tensors); // a refused file leaves no tensor behind
  });

  it('on another backend: a shipped file made on wasm is used, a cached one is not', async () => {
    const fits = await build(undefined);
    const fields = warmStartKeyFields(spec, m, maxLen, SHIPPED_BACKEND);
    const cached = memoryWarmStartCache();
    await cached.save(await warmStartFileOf(fits, fields, 'cached'));
    const shipped = memoryWarmStartCache();
    await shipped.save(await warmStartFileOf(fits, fields, 'shipped'));
    fits.reference.dispose();
    const fromShipped = await build(shipped, 'webgpu');
    expect(fromShipped.source).toBe('shipped');
    expect(fromShipped.info).toMatchObject({ warmStartSource: 'shipped', warmStartBackend: 'wasm', warmStartSteps: 12 });
    expect(shipped.entries.size).toBe(1); // nothing saved
    const notFromCached = await build(cached, 'webgpu');
    expect(notFromCached.source).toBe('trained');
    expect(notFromCached.info.warmStartBackend).toBe('webgpu');
    expect(cached.entries.has(keyOf(spec, m, 'webgpu'))).toBe(true);
    fromShipped.reference.dispose();
    notFromCached.reference.dispose();
    const tensors = tf.memory().numTensors;
    (await build(shipped, 'wasm')).reference.dispose();
    expect(tf.memory().numTensors).toBe(tensors);
  });
});

// ---- a whole run ---------------------------------------------------------------------------------

/** Everything a run reports up to its last step, without wall-clock times. */
async function science(spec: ExperimentSpec, cache?: WarmStartCache) {
  const run = createRun(spec, { backend: 'wasm', warmStartCache: cache } as RunOptions);
  const warm: RunnerEvent[] = [];
  let base: Extract<RunnerEvent, { type: 'base' }> | undefined;
  const steps: unknown[] = [];
  const t0 = performance.now();
  let baseMs = 0;
  for await (const e of run.events()) {
    if (e.type === 'warmstart') warm.push(e);
    else if (e.type === 'base') {
      base = e;
      baseMs = performance.now() - t0;
    } else if (e.type === 'step') steps.push({ ...e, stepMs: 0 });
  }
  run.dispose();
  return { warm, base: base!, steps, baseMs };
}

describe('a run started from a stored warm start on wasm', () => {
  beforeAll(() => useBackend('wasm'));

  it('equals the run that warm-started itself: base evaluation and RL steps', async () => {
    // A target both members reach within their 12 steps (0.05 was out of reach: the warm-start
    // guard stops such a run before RL, docs/WARMSTARTS.md).
    const spec = tinySpec({ seed: 9, warmStartTarget: 2e-4 });
    const plain = await science(spec);
    const cache = memoryWarmStartCache();
    const first = await science(spec, cache);
    const second = await science(spec, cache);
    expect(first.base.members.map((x) => x.warmStartSource), 'runner.ts passes RunOptions.warmStartCache to loadOrBuildMember').toEqual(['trained', 'trained']);
    expect(second.base.members.map((x) => x.warmStartSource)).toEqual(['cached', 'cached']);
    expect(second.warm.filter((e) => e.type === 'warmstart' && e.step > 0)).toEqual([]);
    for (const run of [first, second]) {
      expect(run.base.base).toEqual(plain.base.base);
      expect(run.base.baseKappa).toEqual(plain.base.baseKappa);
      expect(run.base.members.map(({ warmStartSource, ...rest }) => rest)).toEqual(plain.base.members.map(({ warmStartSource, ...rest }) => rest));
      expect(run.steps).toEqual(plain.steps);
    }
    expect(plain.base.members.map((x) => x.warmStartReached)).toEqual([true, true]);
    expect(plain.steps).toHaveLength(2);
    console.log(`warm start + base evaluation: ${plain.baseMs.toFixed(0)} ms trained, ${second.baseMs.toFixed(0)} ms from the cache`);
  });
});
