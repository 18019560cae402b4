/**
 * A streamed 'done' (protocol.ts streamedEvent: the summary's per-step histories left out, since a
 * whole one outgrows a frame) made whole again from the seat's events (restoreStreamed): through
 * the wire and back, a real run's 'done' is the runner's own, number for number.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../share/record';
import { useBackend } from '../core/testing/fixed-policy';
import { ROOM_LIMITS, parseClientMessage, restoreStreamed, streamedEvent, type SeatEvent } from './protocol';
import { asStreamed, recordRun, tinyRoomSpec } from './realRun.testkit';

describe('a streamed done, restored', () => {
  const spec = tinyRoomSpec(7);
  let run: RecordedEvent[];
  beforeAll(async () => {
    await useBackend('wasm');
    run = await recordRun(spec);
  });

  it("streamedEvent, the wire, then restoreStreamed give back the runner's done of a real run", () => {
    const done = run.at(-1)!;
    expect(done.type).toBe('done');
    const wire = asStreamed(run).map((e) => streamedEvent(e as SeatEvent));
    // What the server receives is a valid 'event' message, histories empty.
    const frame = JSON.stringify({ t: 'event', seq: wire.length - 1, event: wire.at(-1) });
    expect(frame.length).toBeLessThan(ROOM_LIMITS.frameChars);
    expect(parseClientMessage(frame).ok).toBe(true);
    const sent = wire.at(-1)!;
    expect(sent.type === 'done' && sent.summary.arms.flatMap((a) => [...a.members.flatMap((m) => m.history), ...a.pairs, ...a.ensemble])).toEqual([]);

    const back = restoreStreamed(spec, wire);
    expect(back.slice(0, -1)).toEqual(wire.slice(0, -1));
    expect(back.at(-1)).toEqual(done);
    // The run had something in every history: members, the pair and the pooled pair.
    const peer = done.type === 'done' ? done.summary.arms.find((a) => a.id === 'peer')! : null;
    expect([peer?.members.map((m) => m.history.length), peer?.pairs.length, peer?.ensemble.length]).toEqual([[3, 3], 3, 2]);
  });

  it('keeps a done that was not streamed, and a run with no done, as they are', () => {
    expect(restoreStreamed(spec, run)).toEqual(run);
    const unfinished = run.slice(0, -1);
    expect(restoreStreamed(spec, unfinished)).toEqual(unfinished);
  });
});
