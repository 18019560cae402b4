/**
 * Opening run files in the store (importRun.ts, liveRecord.ts): a bad file only sets a notice; a
 * good one is shown by replay with its spec in the panel and a way back; an overlay leaves the
 * current run alone; the live record follows the worker's events of its own run only.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import type { WorkerEvent } from '../../engine/protocol';
import { serializeBundle, serializeSeedsBundle } from '../../share/bundle';
import { resetLab, useLab } from '../store';
import { armMetrics, stepEvent } from '../store/fixtures';
import { clearRecord, recordOf, recordWorkerEvents, startRecord } from '../store/liveRecord';
import { type RunRecord, replayRecord } from '../store/record';
import { backToExperiment, openRunFile, openRunText, overlayImportedRun, presetFor, showImportedRun } from './importRun';

const quick = { ...PRESETS.quick.spec, seed: 77 };
const runner = (runId: number, event: Extract<WorkerEvent, { type: 'runner' }>['event']): WorkerEvent => ({ type: 'runner', runId, event });
const base = { type: 'base' as const, members: [], base: [], baseKappa: [] };
const step = (n: number, r: number) => stepEvent(n, quick.arms.map((a) => armMetrics(a.id, a.scheme, { A: { reward: r }, B: { reward: r / 2 } })), { steps: quick.steps });

function record(): RunRecord {
  return { spec: quick, backend: 'wasm', events: [base, step(1, 0.25), step(2, 0.5)] };
}

/** A live run of the collapse preset with two steps, as the page would hold it. */
function liveRun() {
  const spec = PRESETS.collapse.spec;
  useLab.getState().beginRun(1, spec);
  startRecord(1, spec, 'webgl', 'collapse');
  const events: WorkerEvent[] = [runner(1, base), runner(1, stepEvent(1, [armMetrics('self', 'self', { A: { reward: 0.9 } })], { steps: spec.steps }))];
  recordWorkerEvents(events);
  useLab.getState().applyWorkerEvents(events);
}

function notice() {
  return useLab.getState().importNotice;
}

beforeEach(() => {
  resetLab();
  clearRecord();
});

describe('a bad run file', () => {
  it('sets a notice and changes neither the run nor the experiment', async () => {
    useLab.getState().choosePreset('quick');
    liveRun();
    const before = { run: useLab.getState().run, draft: useLab.getState().draft, presetId: useLab.getState().presetId, compare: useLab.getState().compare };
    const text = serializeBundle(record(), 'r');
    for (const [fileName, bad] of [['cut.json', text.slice(0, 100)], ['<b>x</b>.json', text.replace('"steps":6', '"steps":1e9')]]) {
      openRunText(fileName, bad);
      const n = notice();
      expect(n?.kind).toBe('error');
      expect(n?.kind === 'error' && n.fileName).toBe(fileName);
      expect(n?.kind === 'error' && n.message).toMatch(/^This run file could not be loaded: /);
    }
    await openRunFile({ name: 'huge.json', size: 26 * 1024 * 1024, text: () => Promise.reject(new Error('must not be read')) });
    expect(notice()?.kind === 'error' && (notice() as { message: string }).message).toContain('it is 26.0 MB; the limit is 25.0 MB');
    await openRunFile({ name: 'broken.json', size: 10, text: () => Promise.reject(new Error('io')) });
    expect(notice()?.kind === 'error' && (notice() as { message: string }).message).toContain('the browser could not read it');
    const after = useLab.getState();
    expect({ run: after.run, draft: after.draft, presetId: after.presetId, compare: after.compare }).toEqual(before);
    expect(after.run).toBe(before.run);
    expect(after.imported).toBeNull();
  });
});

describe('a good run file', () => {
  it('is shown by replay, its spec in the panel, and Back restores the experiment', async () => {
    useLab.getState().choosePreset('collapse');
    useLab.getState().editDraft((d) => ({ ...d, seed: 5 }));
    const before = useLab.getState().draft;
    await openRunFile({ name: 'run.json', size: 100, text: async () => serializeBundle(record(), 'quick, seed 77', { preset: 'quick' }) });
    const n = notice();
    if (n?.kind !== 'ready') throw new Error(`expected ready, got ${JSON.stringify(n)}`);
    expect(useLab.getState().run.runId).toBe(0); // nothing shown until the student chooses

    showImportedRun(n.bundle);
    const s = useLab.getState();
    expect(s.run.runId).toBeLessThan(0);
    expect(s.run.series).toEqual(replayRecord(record(), 1).series);
    expect(s.run.stepsReceived).toBe(2);
    expect(s.imported).toMatchObject({ runId: s.run.runId, name: 'quick, seed 77', backend: 'wasm' });
    expect(s.draft).toEqual(quick);
    expect(s.presetId).toBe('quick');
    expect(s.edited).toBe(true); // seed 77 is not the preset's
    expect(s.importNotice).toBeNull();
    // The shown run's record is the file's: exporting it again gives the same run.
    expect(recordOf(s.run.runId)?.record).toEqual(record());

    backToExperiment();
    expect(useLab.getState().draft).toEqual(before);
    expect(useLab.getState().edited).toBe(true);
    expect(useLab.getState().presetId).toBe('collapse');
    expect(useLab.getState().run.runId).toBe(0);
    expect(useLab.getState().imported).toBeNull();
  });

  it("a file of several runs (a class room) shows them as seeds: bands and claims over the runs, cleared by Back", async () => {
    const second: RunRecord = { ...record(), spec: { ...quick, seed: 78 }, events: [base, step(1, 0.75)] };
    const text = serializeSeedsBundle([record(), second], 'class room', { preset: 'quick' });
    await openRunFile({ name: 'room.json', size: text.length, text: async () => text });
    const n = notice();
    if (n?.kind !== 'ready') throw new Error(`expected ready, got ${JSON.stringify(n)}`);
    showImportedRun(n.bundle);
    const seeds = useLab.getState().seeds;
    expect(seeds.plan).toBeNull();
    expect(seeds.results.map((r) => [r.seed, r.finished])).toEqual([
      [77, false],
      [78, false],
    ]);
    backToExperiment();
    expect(useLab.getState().seeds.results).toEqual([]);
  });

  it('stops a run in progress before it is shown; late events of that run are dropped', () => {
    liveRun();
    openRunText('run.json', serializeBundle(record(), 'r'));
    const n = notice();
    if (n?.kind !== 'ready') throw new Error('expected ready');
    showImportedRun(n.bundle);
    const shown = useLab.getState().run;
    useLab.getState().applyWorkerEvents([runner(1, step(3, 1))]);
    expect(useLab.getState().run).toBe(shown);
  });

  it('as an overlay, becomes a compare layer and leaves the current run alone', () => {
    liveRun();
    const run = useLab.getState().run;
    openRunText('run.json', serializeBundle(record(), 'overlay me'));
    const n = notice();
    if (n?.kind !== 'ready') throw new Error('expected ready');
    overlayImportedRun(n.bundle);
    const s = useLab.getState();
    expect(s.run).toBe(run);
    expect(s.compare).toHaveLength(1);
    expect(s.compare[0].label).toBe('overlay me');
    expect(s.compare[0].series).toEqual(replayRecord(record(), 0).series);
    expect(s.importNotice).toMatchObject({ kind: 'overlaid', layerId: s.compare[0].id });
  });

  it('is shown under the preset it names, else one it equals, else the current one', () => {
    expect(presetFor(PRESETS.quick.spec, undefined, 'collapse')).toEqual({ presetId: 'quick', edited: false });
    expect(presetFor(quick, 'quick', 'collapse')).toEqual({ presetId: 'quick', edited: true });
    expect(presetFor(quick, 'nope', 'collapse')).toEqual({ presetId: 'collapse', edited: true });
  });
});

describe('the live record', () => {
  it('keeps the runner events of its own run and follows the backend until the run is done', () => {
    startRecord(4, quick, 'webgpu', 'quick');
    const backend = (name: string): WorkerEvent => ({ type: 'backend', report: { backend: name } as never, probe: null, warning: null, deviceLost: null });
    recordWorkerEvents([
      backend('wasm'),
      runner(4, { type: 'warmstart', memberId: 'A', step: 1, steps: 10, loss: 1, memberIndex: 0, memberCount: 2 }),
      runner(4, base),
      runner(3, step(1, 0.9)),
      runner(4, step(1, 0.1)),
    ]);
    const shown = recordOf(4);
    expect(shown?.preset).toBe('quick');
    expect(shown?.record.backend).toBe('wasm');
    expect(shown?.record.events.map((e) => e.type)).toEqual(['base', 'step']);
    expect(recordOf(3)).toBeNull();
    expect(recordOf(0)).toBeNull();
    recordWorkerEvents([runner(4, { type: 'done', summary: {} as never }), backend('webgl')]);
    expect(recordOf(4)?.record.backend).toBe('wasm');
  });
});
