/**
 * Reference runs in the page: the chart columns built from a reference (referenceSeries.ts), the
 * too-slow projection (projection.ts), the site lookup (referenceSource.ts) and the store that
 * keeps the compare layer and the reference-only view in step with the experiment on screen
 * (referenceStore.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import type { MeasuredRow } from '../../engine/backendChoice';
import { cohortSignature } from '../../engine/backendChoice';
import { type ReferenceFile, parseReference, serializeReferenceIndex } from '../../share/reference';
import { resetLab, useLab } from '../store';
import { armMetrics, stepEvent } from '../store/fixtures';
import type { EngineState } from '../store/runSlice';
import { countPoints, MEMBER_METRICS } from '../store/series';
import { MIN_TIMED_STEPS, TOO_SLOW_MS, aboutDuration, projectRun, projectionText } from './projection';
import type { ReferenceLookup, ReferenceSource } from './referenceSource';
import { siteReferenceSource } from './referenceSource';
import { referenceBase, referenceRunState, referenceSeries } from './referenceSeries';
import { WORKSHOP } from '../workshop/sequence';
import { revealBlock, revealQuestion } from './reveal';
import { leaveReferenceOnly, referenceOnlyShown, resetReferences, setShowReference, showReferenceOnly, startReferences, useReference } from './referenceStore';

const shippedText = readFileSync(join(process.cwd(), 'public', 'references', 'quick.json'), 'utf8');
const shippedIndex = readFileSync(join(process.cwd(), 'public', 'references', 'index.json'), 'utf8');
function quickReference(): ReferenceFile {
  const r = parseReference(shippedText);
  if (!r.ok) throw new Error(r.error);
  return r.reference;
}

describe('referenceSeries: a reference as chart columns', () => {
  const ref = quickReference();
  const series = referenceSeries(ref);

  it('x is the steps; every arm, member and pair of the reference, in its order', () => {
    expect(series.x).toEqual([1, 2, 3, 4, 5, 6]);
    expect(series.arms.map((a) => [a.armId, a.scheme, a.memberIds])).toEqual([
      ['oracle', 'oracle', ['A', 'B']],
      ['self', 'self', ['A', 'B']],
      ['peer', 'peer', ['A', 'B']],
    ]);
    expect(series.arms[1].pairs.map((p) => [p.a, p.b])).toEqual([['A', 'B']]);
  });

  it('per-step metrics are the means; eval metrics sit at their evaluation steps, null between', () => {
    const self = series.arms[1];
    const A = ref.arms[1].members[0];
    expect(self.members.A.reward).toEqual(A.reward.mean);
    expect(self.members.A.entropy).toEqual(A.entropy.mean);
    expect(self.members.A.evalPassAt1).toEqual([null, null, A.evalPassAt1.mean[0], null, null, A.evalPassAt1.mean[1]]);
    expect(self.ensembleMajAtG).toEqual([null, null, ref.arms[1].ensembleMajAtG!.mean[0], null, null, ref.arms[1].ensembleMajAtG!.mean[1]]);
    expect(self.pairs[0].agreement).toEqual(ref.arms[1].pairs[0].agreement.mean);
    expect(self.pairs[0].evalKappa[2]).toBe(ref.arms[1].pairs[0].evalKappa.mean[0]);
  });

  it('every column of the live layout exists with the length of x; metrics a reference lacks are null', () => {
    for (const arm of series.arms) {
      for (const id of arm.memberIds) for (const k of MEMBER_METRICS) expect(arm.members[id][k], `${arm.armId}.${id}.${k}`).toHaveLength(6);
      expect(arm.members.A.loss).toEqual(new Array(6).fill(null));
    }
    expect(countPoints([series.arms[0].members.A.evalPassAt1])).toBe(2);
  });

  it('made of new arrays each time (the live columns are mutated in place)', () => {
    const again = referenceSeries(ref);
    expect(again).toEqual(series);
    expect(again.arms[0].members.A.reward).not.toBe(series.arms[0].members.A.reward);
    expect(again.x).not.toBe(ref.steps);
  });

  it('the base evaluations and the run state that shows it alone', () => {
    const { base, baseKappa } = referenceBase(ref);
    expect(base).toEqual(ref.base.members.map((m) => ({ memberId: m.id, passAt1: m.passAt1.mean, majAtG: m.majAtG.mean })));
    expect(baseKappa[0]).toMatchObject({ a: 'A', b: 'B', pooledMajAtG: ref.base.pairs[0].pooledMajAtG.mean });
    const run = referenceRunState(ref, -7);
    expect(run).toMatchObject({ runId: -7, phase: 'idle', stepsReceived: 0, step: null, steps: 6, base });
    expect(run.series.x).toEqual([1, 2, 3, 4, 5, 6]);
    expect(run.spec).toEqual(PRESETS.quick.spec);
  });
});

describe('projectRun: too slow to train here', () => {
  const spec = PRESETS.collapse.spec; // 80 steps
  const measured = (msPerStep: number, over: Partial<NonNullable<EngineState['measurement']>> = {}): EngineState['measurement'] => ({
    status: 'measured',
    key: `ua|cohort=${cohortSignature(spec)}`,
    rows: [{ backend: 'wasm', detail: null, software: false, status: 'ok', msPerStep, timedSteps: 2, atLeastMs: null, warmupMs: 10, note: null } as MeasuredRow],
    current: null,
    chosen: 'wasm',
    reason: 'fastest measured',
    measuredAt: 1,
    ...over,
  });
  const costs = (...ms: number[]) => ms.map((stepMs) => ({ stepMs, tokens: 100 }));

  it('from the measurement before the run has its own step times: 80 steps x 8 s = 10.7 min, too slow', () => {
    const p = projectRun(spec, [], measured(8000))!;
    expect(p).toMatchObject({ msPerStep: 8000, source: 'measurement', backend: 'wasm', steps: 80, projectedMs: 640_000, tooSlow: true });
    expect(projectRun(spec, [], measured(7000))!.tooSlow).toBe(false); // 9.3 min
    expect(TOO_SLOW_MS).toBe(600_000);
  });

  it('from the median of the run\'s own last steps once it has MIN_TIMED_STEPS of them', () => {
    expect(MIN_TIMED_STEPS).toBe(3);
    expect(projectRun(spec, costs(30_000, 9000, 8000), measured(100))).toMatchObject({ msPerStep: 9000, source: 'run', tooSlow: true });
    // Two steps are not enough: the measurement counts.
    expect(projectRun(spec, costs(30_000, 9000), measured(100))).toMatchObject({ msPerStep: 100, source: 'measurement', tooSlow: false });
  });

  it('nothing timed for this cohort: no projection', () => {
    expect(projectRun(spec, [], null)).toBeNull();
    expect(projectRun(spec, [], measured(8000, { key: 'ua|cohort=other' }))).toBeNull();
    expect(projectRun(spec, [], measured(8000, { status: 'measuring' }))).toBeNull();
    expect(projectRun(spec, [], measured(8000, { chosen: 'webgpu' }))).toBeNull();
  });

  it('says why in words', () => {
    const p = projectRun(spec, [], measured(9000))!;
    expect(projectionText(p)).toBe(
      'This machine needs 9.0 s per RL step of this preset on wasm (timed when the backend was chosen): its 80 steps would take about 12 min, over the 10-minute limit for training here.',
    );
    expect(aboutDuration(40_000)).toBe('about 40 s');
    expect(aboutDuration(2 * 3_600_000)).toBe('about 2.0 h');
  });
});

describe('siteReferenceSource: the index, then the preset file', () => {
  function site(files: Record<string, string>) {
    const asked: string[] = [];
    const fetch = (async (url: string) => {
      asked.push(url);
      const body = files[url];
      return body === undefined ? new Response('missing', { status: 404 }) : new Response(body, { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    return { asked, source: siteReferenceSource({ baseUrl: '/base/references/', fetch }) };
  }

  it('a listed preset is fetched and validated; an unlisted one is asked for nothing', async () => {
    // Every preset ships a reference: an index without ring stands for a preset that has none.
    const index = JSON.parse(shippedIndex);
    index.references = index.references.filter((r: { preset: string }) => r.preset !== 'ring');
    const { asked, source } = site({ '/base/references/index.json': JSON.stringify(index), '/base/references/quick.json': shippedText });
    const found = await source.lookup('quick');
    expect(found.kind).toBe('ready');
    expect(found.kind === 'ready' && found.reference.preset).toBe('quick');
    expect(await source.lookup('ring')).toEqual({ kind: 'none' });
    await source.lookup('quick');
    expect(asked).toEqual(['/base/references/index.json', '/base/references/quick.json']);
  });

  it('a reference made for another version of the preset is stale; a broken file an error in words', async () => {
    const index = JSON.parse(shippedIndex);
    index.references.find((r: { preset: string }) => r.preset === 'quick').fingerprint = 'old';
    expect((await site({ '/base/references/index.json': JSON.stringify(index) }).source.lookup('quick')).kind).toBe('stale');
    const broken = await site({ '/base/references/index.json': shippedIndex, '/base/references/quick.json': '{"format":' }).source.lookup('quick');
    expect(broken).toMatchObject({ kind: 'error', message: expect.stringContaining('not valid JSON') });
    const noSite = await site({}).source.lookup('quick');
    expect(noSite).toMatchObject({ kind: 'error', message: expect.stringContaining('HTTP 404') });
  });
});

describe('the reference store: layer, toggle and the reference alone', () => {
  let stop: () => void = () => {};
  let stopped = 0;
  const known: Record<string, ReferenceLookup> = {};
  const source: ReferenceSource = { lookup: async (id) => known[id] ?? { kind: 'none' } };
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const layers = () => useLab.getState().compare.map((l) => `${l.id} | ${l.label}`);

  beforeEach(async () => {
    resetLab('quick');
    resetReferences();
    known.quick = { kind: 'ready', reference: quickReference() };
    stopped = 0;
    stop = startReferences({ source, stopRun: () => stopped++ });
    await settle();
  });
  afterEach(() => stop());

  it('predict, then reveal: hidden at first, for every preset; a reveal is per preset; a workshop waits for its prediction', async () => {
    expect(useReference.getState().status.kind).toBe('ready');
    expect(useReference.getState().revealed).toEqual([]);
    expect(layers()).toEqual([]);
    setShowReference(true);
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
    known['peers-learn'] = { kind: 'ready', reference: { ...quickReference(), preset: 'peers-learn' } };
    useLab.getState().choosePreset('peers-learn');
    await settle();
    expect(layers()).toEqual([]); // another experiment: its answer is hidden again
    useLab.getState().choosePreset('quick');
    await settle();
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
    expect(revealQuestion('collapse')).toBe(WORKSHOP[0].question);
    expect(revealQuestion('quick')).toBe('Which arm will end above its start, and which below?');
    expect(revealBlock({ prediction: null })).toBe('Predict first: choose an answer on the workshop card, then reveal.');
    expect(revealBlock({ prediction: 'down' })).toBeNull();
    expect(revealBlock(null)).toBeNull();
  });

  it('one view replacing another (the page, then the projector): a lookup in flight is asked again, in either order of start and stop', async () => {
    stop();
    resetReferences();
    // Stopped while loading, then started again: the new start looks up again.
    let first = startReferences({ source });
    first();
    expect(useReference.getState().status.kind).toBe('idle');
    stop = startReferences({ source });
    await settle();
    expect(useReference.getState().status.kind).toBe('ready');
    stop();
    // The new view starts before the old one's cleanup: the old cleanup stops nothing of the new.
    resetReferences();
    first = startReferences({ source });
    stop = startReferences({ source });
    first();
    await settle();
    expect(useReference.getState().status.kind).toBe('ready');
  });

  it('an unedited preset with a reference: the layer, labelled; the toggle removes and adds it', async () => {
    setShowReference(true);
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
    expect(useLab.getState().compare[0].series.x).toEqual([1, 2, 3, 4, 5, 6]);
    setShowReference(false);
    expect(layers()).toEqual([]);
    setShowReference(true);
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
  });

  it('another preset or an edit removes the layer; back to the preset brings it back; other layers stay', async () => {
    setShowReference(true);
    useLab.getState().addCompare({ id: 'import:x', label: 'x', series: { x: [], arms: [] } });
    useLab.getState().choosePreset('ring');
    await settle();
    expect(useReference.getState().status).toEqual({ kind: 'none', presetId: 'ring' });
    expect(layers()).toEqual(['import:x | x']);
    useLab.getState().choosePreset('quick');
    await settle();
    expect(layers()).toEqual(['import:x | x', 'reference:quick | reference: 8 seeds, mean']);
    useLab.getState().editDraft((d) => ({ ...d, steps: 5 }));
    expect(useReference.getState().status.kind).toBe('edited');
    expect(layers()).toEqual(['import:x | x']);
  });

  it('"Show the reference only": the run becomes the reference (no layer), ends with Start or Back', async () => {
    setShowReference(true);
    expect(showReferenceOnly()).toBe(true);
    const only = referenceOnlyShown()!;
    expect(only).toMatchObject({ presetId: 'quick', slow: null });
    const run = useLab.getState().run;
    expect(run.runId).toBe(only.runId);
    expect(run.runId).toBeLessThan(-999_999);
    expect(countPoints([run.series.arms[1].members.A.reward])).toBe(6);
    expect(layers()).toEqual([]); // not drawn twice
    leaveReferenceOnly();
    expect(useLab.getState().run.runId).toBe(0);
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
    showReferenceOnly();
    useLab.getState().beginRun(5, PRESETS.quick.spec); // Start
    expect(referenceOnlyShown()).toBeNull();
    expect(useReference.getState().only).toBeNull();
    expect(layers()).toEqual(['reference:quick | reference: 8 seeds, mean']);
  });

  it('a run in progress is stopped first; no reference (another preset): nothing happens', async () => {
    useLab.getState().beginRun(3, PRESETS.quick.spec);
    expect(showReferenceOnly()).toBe(true);
    expect(stopped).toBe(1);
    useLab.getState().choosePreset('ring');
    await settle();
    expect(useLab.getState().run.runId).toBe(0); // left with the preset
    expect(showReferenceOnly()).toBe(false);
  });

  it('too slow: a run whose steps project past 10 minutes is stopped and the reference shown, once per preset', async () => {
    const spec = PRESETS.quick.spec; // 6 steps: 101 s per step is too slow
    useLab.getState().beginRun(9, spec);
    const runner = (step: number, stepMs: number) => ({ type: 'runner' as const, runId: 9, event: stepEvent(step, spec.arms.map((a) => armMetrics(a.id, a.scheme, { A: {}, B: {} })), { steps: 6, stepMs }) });
    useLab.getState().applyWorkerEvents([runner(1, 120_000), runner(2, 99_000)]);
    expect(referenceOnlyShown()).toBeNull(); // two steps: not yet trusted, and nothing measured
    useLab.getState().applyWorkerEvents([runner(3, 101_000)]);
    const only = referenceOnlyShown();
    expect(only?.slow).toMatchObject({ source: 'run', msPerStep: 101_000, projectedMs: 606_000, tooSlow: true });
    expect(stopped).toBe(1);
    // "Train it here anyway": the next run of the preset is not stopped again.
    leaveReferenceOnly();
    useLab.getState().beginRun(10, spec);
    useLab.getState().applyWorkerEvents([1, 2, 3].map((s) => ({ ...runner(s, 200_000), runId: 10 })));
    expect(referenceOnlyShown()).toBeNull();
    expect(useLab.getState().run.stepsReceived).toBe(3);
  });

  it("a student's seat in a class room is never stopped for slowness: the run is the class's", () => {
    const spec = PRESETS.quick.spec;
    const before = useLab.getState().room;
    useLab.setState({ room: { ...before, role: 'student' } });
    try {
      useLab.getState().beginRun(12, spec);
      useLab.getState().applyWorkerEvents([1, 2, 3, 4].map((s) => ({ type: 'runner' as const, runId: 12, event: stepEvent(s, [], { steps: 6, stepMs: 200_000 }) })));
      expect(referenceOnlyShown()).toBeNull();
      expect(useLab.getState().run.runId).toBe(12);
    } finally {
      useLab.setState({ room: before });
    }
  });

  it('a fast run of the preset is left alone', () => {
    const spec = PRESETS.quick.spec;
    useLab.getState().beginRun(11, spec);
    useLab.getState().applyWorkerEvents([1, 2, 3, 4].map((s) => ({ type: 'runner' as const, runId: 11, event: stepEvent(s, [], { steps: 6, stepMs: 50 }) })));
    expect(referenceOnlyShown()).toBeNull();
    expect(useLab.getState().run.runId).toBe(11);
  });
});

describe('the shipped index lists what public/references holds', () => {
  it('serialised as the CLI writes it', () => {
    const parsed = JSON.parse(shippedIndex);
    expect(serializeReferenceIndex(parsed)).toBe(shippedIndex);
  });
});
