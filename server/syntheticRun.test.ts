// The load check's run is the real thing in shape: every event passes the schema the room checks,
// and its 'done' shows why a seat streams the summary without its histories (streamedEvent).
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRESET } from '../src/core/experiment/presets';
import { emptySummary, foldEvent } from '../src/core/experiment/summary';
import { ROOM_LIMITS, SeatEventSchema, streamedEvent } from '../src/room/protocol';
import { presetSpec } from './load/harness';
import { syntheticRun } from './load/syntheticRun';

describe('the load check’s run', () => {
  const spec = presetSpec(DEFAULT_PRESET);
  const run = syntheticRun(spec, 7);

  it('is base, one step per RL step and done, each a valid streamed event', () => {
    expect(run.map((e) => e.type)).toEqual(['base', ...Array(spec.steps).fill('step'), 'done']);
    for (const e of run) expect(SeatEventSchema.safeParse(e).success).toBe(true);
    const step = run[1];
    expect(step.type === 'step' && step.arms.map((a) => Object.keys(a.members).length)).toEqual(spec.arms.map((a) => a.members.length));
  });

  it('has a done that outgrows a frame; streamed, it fits, and refolding the steps gives the histories back', () => {
    const done = run[run.length - 1];
    expect(JSON.stringify(done).length).toBeGreaterThan(ROOM_LIMITS.frameChars);
    const streamed = streamedEvent(done);
    expect(JSON.stringify({ t: 'event', seq: run.length - 1, event: streamed }).length).toBeLessThan(ROOM_LIMITS.frameChars);
    expect(SeatEventSchema.safeParse(streamed).success).toBe(true);
    const refolded = emptySummary({ ...spec, seed: 7 }, 'wasm'); // the run's seed, as the seat's summary carries it
    for (const e of run.slice(0, -1)) foldEvent(refolded, e, spec);
    expect(done.type === 'done' && refolded).toEqual(done.type === 'done' && done.summary);
    expect(streamedEvent(run[1])).toBe(run[1]);
  });
});
