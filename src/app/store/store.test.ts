import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET, PRESETS } from '../../core/experiment/presets';
import type { WorkerEvent } from '../../engine/protocol';
import { armMetrics, stepEvent } from './fixtures';
import { resetLab, useLab } from './index';
import { MAX_SAMPLE_STEPS } from './runSlice';
import { addMember } from './specEdits';

const report = { backend: 'webgpu', adapter: 'swiftshader', reason: null, tried: [{ name: 'webgpu' as const, ok: true }] };
const quick = PRESETS.quick.spec;

function run(...events: WorkerEvent[]) {
  useLab.getState().applyWorkerEvents(events, 5000);
}

beforeEach(() => resetLab());

describe('lab store', () => {
  it('opens on the default preset and resets', () => {
    expect(useLab.getState().presetId).toBe(DEFAULT_PRESET);
    useLab.getState().choosePreset('quick');
    useLab.getState().editDraft((d) => addMember(d, 'gru'));
    useLab.getState().setTheme('dark');
    expect(useLab.getState().edited).toBe(true);
    resetLab();
    const s = useLab.getState();
    expect(s.presetId).toBe(DEFAULT_PRESET);
    expect(s.edited).toBe(false);
    expect(s.ui.theme).toBe('light');
    expect(s.run.phase).toBe('idle');
  });

  it('never edits the preset table', () => {
    useLab.getState().choosePreset('quick');
    useLab.getState().editDraft((d) => addMember(d, 'gru'));
    expect(PRESETS.quick.spec.members).toHaveLength(2);
    expect(useLab.getState().draft.members).toHaveLength(3);
  });

  it('folds a run: backend, phases, warm start, base, steps', () => {
    useLab.getState().beginRun(1, quick);
    run(
      { type: 'backend', report, probe: null, warning: null, deviceLost: null },
      { type: 'state', runId: 1, phase: 'warmstart', paused: false, step: 0, halted: false },
      { type: 'runner', runId: 1, event: { type: 'warmstart', memberId: 'A', step: 30, steps: 60, loss: 1.5, memberIndex: 0, memberCount: 2 } },
    );
    let s = useLab.getState();
    expect(s.engine.report?.adapter).toBe('swiftshader');
    expect(s.run.phase).toBe('warmstart');
    expect(s.run.warm?.fraction).toBe(0.25);

    run(
      { type: 'runner', runId: 1, event: { type: 'base', members: [{ id: 'A', family: 'transformer', params: 1000, label: 'T' }], base: [{ memberId: 'A', passAt1: 0.3, majAtG: 0.5 }], baseKappa: [] } },
      { type: 'runner', runId: 1, event: stepEvent(1, [armMetrics('self', 'self', { A: {}, B: {} })]) },
      { type: 'runner', runId: 1, event: stepEvent(2, [armMetrics('self', 'self', { A: {}, B: {} })], { stepMs: 300 }) },
    );
    s = useLab.getState();
    // Runner events fill the charts; only the worker's state moves the phase.
    expect(s.run.phase).toBe('warmstart');
    run({ type: 'state', runId: 1, phase: 'rl', paused: false, step: 2, halted: false });
    s = useLab.getState();
    expect(s.run.phase).toBe('rl');
    expect(s.run.workerStep).toBe(2);
    expect(s.run.step).toBe(2);
    expect(s.run.stepsReceived).toBe(2);
    expect(s.run.base[0].majAtG).toBe(0.5);
    expect(s.run.series.x).toEqual([1, 2]);
    expect(s.run.recent).toEqual([{ stepMs: 100, tokens: 500 }, { stepMs: 300, tokens: 500 }]);
    expect(s.run.version).toBeGreaterThanOrEqual(3);
    // The summary is live (the runner's fold): both steps of the self arm's members.
    const self = s.run.summary?.arms.find((a) => a.id === 'self');
    expect(self?.members.map((m) => m.history.map((h) => h.step))).toEqual([[1, 2], [1, 2]]);
  });

  it("keeps the base event's pairs, with the untrained pair pooled maj@G where it was measured", () => {
    useLab.getState().beginRun(1, quick);
    const members = quick.members.map((m) => ({ id: m.id, family: m.family, params: 1000, label: m.id }));
    const baseKappa = [{ a: 'A', b: 'B', kappa: 0.4, bothWrongSame: 0.1, pooledMajAtG: 0.625 }];
    run({ type: 'runner', runId: 1, event: { type: 'base', members, base: [], baseKappa } });
    expect(useLab.getState().run.baseKappa).toEqual(baseKappa);
    useLab.getState().resetRun();
    expect(useLab.getState().run.baseKappa).toEqual([]);
  });

  it('drops events of an older run, but shows errors not tied to a run', () => {
    useLab.getState().beginRun(2, quick);
    run({ type: 'runner', runId: 1, event: stepEvent(1, [armMetrics('self', 'self', { A: {} })]) });
    expect(useLab.getState().run.stepsReceived).toBe(0);
    run({ type: 'error', runId: 0, message: 'WebGPU device lost (unknown): gone', hint: 'reload' });
    expect(useLab.getState().run.error?.message).toMatch(/device lost/);
    // Not about a run: it moves no phase (the worker posts a run's 'error' state itself).
    expect(useLab.getState().run.phase).toBe('preparing');
  });

  it('after Reset ignores what the old run still sends', () => {
    useLab.getState().beginRun(3, quick);
    useLab.getState().resetRun();
    run({ type: 'state', runId: 3, phase: 'stopped', paused: false, step: 0, halted: false }, { type: 'runner', runId: 3, event: stepEvent(1, [armMetrics('self', 'self', { A: {} })]) });
    const s = useLab.getState().run;
    expect(s.phase).toBe('idle');
    expect(s.series.x).toEqual([]);
  });

  it('tracks pause and step requests until the worker confirms', () => {
    useLab.getState().beginRun(4, quick);
    run({ type: 'state', runId: 4, phase: 'rl', paused: false, step: 0, halted: false });
    useLab.getState().requestPause();
    expect(useLab.getState().run.pauseRequested).toBe(true);
    run({ type: 'state', runId: 4, phase: 'rl', paused: true, step: 0, halted: false });
    expect(useLab.getState().run).toMatchObject({ paused: true, pauseRequested: false });
    useLab.getState().requestStep();
    expect(useLab.getState().run.stepRequested).toBe(true);
    run({ type: 'runner', runId: 4, event: stepEvent(7, [armMetrics('self', 'self', { A: {} })]) });
    expect(useLab.getState().run.stepRequested).toBe(false);
  });

  it('keeps only the last steps of rollout samples', () => {
    useLab.getState().beginRun(5, quick);
    const sample = { armId: 'self', prompt: '1+2=', truth: '3', members: [] };
    const events: WorkerEvent[] = [];
    for (let k = 1; k <= MAX_SAMPLE_STEPS + 5; k++) {
      events.push({ type: 'runner', runId: 5, event: stepEvent(k, [armMetrics('self', 'self', { A: {} })], { samples: [sample] }) });
    }
    run(...events);
    const samples = useLab.getState().run.samples;
    expect(samples).toHaveLength(MAX_SAMPLE_STEPS);
    expect(samples[0].step).toBe(6);
    expect(samples[samples.length - 1].step).toBe(MAX_SAMPLE_STEPS + 5);
  });

  it("records the summary from the runner's done, the phase from the worker's state", () => {
    useLab.getState().beginRun(6, quick);
    const summary = { seed: 1, arms: [], base: [], baseKappa: [], medianStepMs: 10, backend: 'wasm' };
    run({ type: 'runner', runId: 6, event: { type: 'done', summary } });
    expect(useLab.getState().run.phase).toBe('preparing');
    run({ type: 'state', runId: 6, phase: 'done', paused: false, step: 0, halted: false });
    expect(useLab.getState().run.phase).toBe('done');
    expect(useLab.getState().run.summary?.backend).toBe('wasm');
  });

  it('keeps the backend measurement (page-level: a run and Reset leave it alone)', () => {
    useLab.getState().beginRun(3, quick);
    const rows = [{ backend: 'wasm' as const, detail: null, software: false, status: 'ok' as const, msPerStep: 180, timedSteps: 2, atLeastMs: null, warmupMs: 600, note: null }];
    run({ type: 'measurement', status: 'measuring', key: 'K', rows: [], current: 'wasm', chosen: null, reason: null, measuredAt: null });
    expect(useLab.getState().engine.measurement).toMatchObject({ status: 'measuring', current: 'wasm' });
    const before = useLab.getState().run;
    run({ type: 'measurement', status: 'measured', key: 'K', rows, current: null, chosen: 'wasm', reason: 'fastest measured', measuredAt: 7 });
    // The run only notes when its backend was chosen (its start-up timeline).
    const after = useLab.getState().run;
    expect({ ...after, startup: before.startup }).toEqual(before);
    expect(after.startup?.marks.map((m) => m.phase)).toEqual(['backend']);
    expect(useLab.getState().engine.measurement).toEqual({ status: 'measured', key: 'K', rows, current: null, chosen: 'wasm', reason: 'fastest measured', measuredAt: 7 });
    run({ type: 'backend', report, probe: null, warning: null, deviceLost: null });
    useLab.getState().resetRun();
    expect(useLab.getState().engine.measurement?.chosen).toBe('wasm');
  });
});
