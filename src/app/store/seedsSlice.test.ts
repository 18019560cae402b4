import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../core/experiment/events';
import { PRESETS } from '../../core/experiment/presets';
import { armMetrics, stepEvent } from './fixtures';
import { emptyRecord, recordEvent } from './record';
import { MAX_SEEDS, MIN_SEEDS, clampSeeds, seedResult } from './seedsSlice';

const spec = { ...PRESETS.quick.spec, seed: 11 };

function finished(reward: number) {
  const rec = emptyRecord(spec, 'wasm');
  recordEvent(rec, stepEvent(1, [armMetrics('self', 'self', { A: { reward } })]));
  recordEvent(rec, { type: 'done', summary: { seed: 11 } as RunSummary });
  return rec;
}

describe('seeds slice', () => {
  it('keeps N between 2 and 8', () => {
    expect([clampSeeds(1), clampSeeds(3), clampSeeds(99), clampSeeds(NaN)]).toEqual([MIN_SEEDS, 3, MAX_SEEDS, 3]);
  });

  it('a finished seed keeps its record, its replayed columns and its summary', () => {
    const r = seedResult(finished(0.7));
    expect(r.seed).toBe(11);
    expect(r.series.x).toEqual([1]);
    expect(r.series.arms[0].members.A.reward).toEqual([0.7]);
    expect(r.summary?.seed).toBe(11);
  });

  it('a sequence: begin forgets earlier results, end keeps them, clear forgets them', async () => {
    const { useLab, resetLab } = await import('./index');
    resetLab();
    const s = () => useLab.getState();
    s().beginSeeds(11, 20);
    expect(s().seeds.plan).toEqual({ firstSeed: 11, count: MAX_SEEDS, index: 0, runId: 0 });
    s().seedStarted(0, 5);
    s().addSeedResult(finished(0.5));
    s().seedStarted(1, 6);
    expect(s().seeds.plan).toMatchObject({ index: 1, runId: 6 });
    s().endSeeds();
    expect(s().seeds.plan).toBeNull();
    expect(s().seeds.results).toHaveLength(1);
    s().beginSeeds(11, 2);
    expect(s().seeds.results).toHaveLength(0);
    s().addSeedResult(finished(0.5));
    s().clearSeeds();
    expect(s().seeds).toEqual({ plan: null, results: [], stopped: null });
  });
});
