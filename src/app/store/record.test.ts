import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { armMetrics, stepEvent } from './fixtures';
import { emptyRecord, lastRecordedStep, recordEvent, replayRecord, truncateRecord } from './record';
import { reduceWorkerEvent, startedRunState } from './runSlice';

const spec = PRESETS.quick.spec;
const arms = (r: number) => [armMetrics('self', 'self', { A: { reward: r }, B: { reward: r / 2 } })];

describe('run record', () => {
  it('drops warm-start progress and keeps base, steps and done in order', () => {
    const rec = emptyRecord(spec, 'wasm');
    expect(recordEvent(rec, { type: 'warmstart', memberId: 'A', step: 1, steps: 10, loss: 1, memberIndex: 0, memberCount: 2 })).toBe(false);
    expect(recordEvent(rec, { type: 'base', members: [], base: [], baseKappa: [] })).toBe(true);
    recordEvent(rec, stepEvent(1, arms(0.5)));
    recordEvent(rec, stepEvent(2, arms(0.6)));
    expect(rec.events.map((e) => e.type)).toEqual(['base', 'step', 'step']);
    expect(lastRecordedStep(rec)).toBe(2);
  });

  it('drops what came after a step (a run rebuilt from its checkpoint), or everything', () => {
    const rec = emptyRecord(spec, 'wasm');
    recordEvent(rec, { type: 'base', members: [], base: [], baseKappa: [] });
    for (let k = 1; k <= 4; k++) recordEvent(rec, stepEvent(k, arms(0.1 * k)));
    truncateRecord(rec, 2);
    expect(rec.events.map((e) => (e.type === 'step' ? e.step : e.type))).toEqual(['base', 1, 2]);
    truncateRecord(rec, 5);
    expect(rec.events).toHaveLength(3);
    truncateRecord(rec, null);
    expect(rec.events).toEqual([]);
  });

  it('replays to the same series a live run folds', () => {
    const rec = emptyRecord(spec, 'wasm');
    let live = startedRunState(7, spec);
    for (const ev of [{ type: 'base' as const, members: [], base: [], baseKappa: [] }, stepEvent(1, arms(0.5)), stepEvent(2, arms(0.7))]) {
      recordEvent(rec, ev);
      live = reduceWorkerEvent(live, { type: 'runner', runId: 7, event: ev }, 0);
    }
    const replayed = replayRecord(rec, 3);
    expect(replayed.series).toEqual(live.series);
    expect(replayed.stepsReceived).toBe(2);
    expect(replayed.phase).toBe('stopped');
    expect(replayed.runId).toBe(3);
  });
});

describe('compare layers', () => {
  it('replace by id and keep at most MAX_COMPARE_LAYERS, newest last', async () => {
    const { useLab, resetLab } = await import('./index');
    const { MAX_COMPARE_LAYERS } = await import('./compareSlice');
    resetLab();
    const series = replayRecord(emptyRecord(spec, null), 1).series;
    for (let i = 0; i < MAX_COMPARE_LAYERS + 2; i++) useLab.getState().addCompare({ id: `r${i}`, label: `run ${i}`, series });
    useLab.getState().addCompare({ id: 'r5', label: 'renamed', series });
    const ids = useLab.getState().compare.map((l) => l.id);
    expect(ids).toHaveLength(MAX_COMPARE_LAYERS);
    expect(ids.at(-1)).toBe('r5');
    expect(useLab.getState().compare.at(-1)!.label).toBe('renamed');
    useLab.getState().removeCompare('r5');
    expect(useLab.getState().compare.map((l) => l.id)).not.toContain('r5');
    resetLab();
    expect(useLab.getState().compare).toEqual([]);
  });
});
