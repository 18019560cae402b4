/** A seat's stream (seatStream.ts) into the real client over a fake socket: fresh, resumed and recovered runs keep their positions. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Checkpoint } from '../../core/experiment/runner';
import type { WorkerEvent } from '../../engine/protocol';
import { RoomConnection } from '../../room/client';
import { ROOM_ID, TOKEN, memoryStorage, roomSpec, runEvents, seatInfo, socketFactory } from '../../room/fakeSocket.testkit';
import { type LoadedRun, type SavedRunMeta, recordOf, resumePlan } from '../runs/runData';
import { type RecordedEvent, replayRecord } from '../store/record';
import { SeatStream } from './seatStream';

const runner = (runId: number, evs = runEvents(4)): WorkerEvent[] => evs.map((event) => ({ type: 'runner', runId, event }));

function seated(stored: number) {
  const f = socketFactory();
  const c = new RoomConnection({ url: 'ws://x/room', role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage: memoryStorage() });
  f.last.open();
  f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored });
  const stream = new SeatStream((from, events) => c.pushEvents(from, events));
  const seqs = () => f.last.of('event').map((m) => m.seq);
  const sent = () =>
    f.last.of('event').map((m) => {
      const e = m.event as RecordedEvent;
      return e.type === 'step' ? `step ${e.step}` : e.type;
    });
  return { c, f, stream, seqs, sent };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("a seat's stream", () => {
  it("follows only the seat's run, leaving warm-start progress and other runs out", () => {
    const { stream, seqs } = seated(0);
    stream.follow(5);
    stream.take([...runner(4).slice(0, 2), { type: 'runner', runId: 5, event: { type: 'warmstart', memberId: 'A', step: 1, steps: 2, passAt1: 0.1 } } as unknown as WorkerEvent, ...runner(5).slice(0, 3)]);
    expect(seqs()).toEqual([0, 1, 2]);
  });

  it("a run resumed after a reload from its base's checkpoint: the room, holding base and steps 1 and 2, gets step 3 next", () => {
    // The timing of the e2e's rejoin: the page closed at step 2 or 3, so the last checkpoint is the
    // base's (step 0, the next is at step 5); the room holds base, 1, 2. The resumed run keeps
    // the base alone and emits steps 1.. again, and its state says step null (no RL step yet), the
    // same as a run with no checkpoint: a position read from it put step 1 at 0 and step 4 at 3.
    const { stream, seqs, sent, c } = seated(3);
    const all = runEvents(4);
    const loaded: LoadedRun = { meta: { spec: roomSpec } as SavedRunMeta, events: all.slice(0, 3), checkpoint: { step: 0 } as Checkpoint };
    const plan = resumePlan(loaded);
    expect(replayRecord(recordOf(loaded, plan.keep), 0).step).toBeNull();
    stream.followResumed(9, plan.keep);
    stream.take(runner(9, all.slice(1)));
    expect(seqs()).toEqual([3, 4, 5]);
    expect(sent()).toEqual(['step 3', 'step 4', 'done']);
    expect(c.heldEvents).toBe(all.length);
  });

  it('a resumed run after a reload: the saved events through its checkpoint, then the worker\'s', () => {
    const { stream, seqs, c } = seated(1);
    const all = runEvents(4);
    stream.followResumed(9, all.slice(0, 3)); // checkpoint at step 2: positions 0..2 saved, the run goes on at 3
    expect(seqs()).toEqual([1, 2]);
    stream.take(runner(9, all.slice(3)));
    expect(seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(c.heldEvents).toBe(6);
  });

  it('a saved run with no checkpoint starts again: its events from position 0, nothing sent twice', () => {
    const { stream, seqs, sent } = seated(2);
    const all = runEvents(4);
    stream.followResumed(9, []);
    stream.take(runner(9, all));
    expect(seqs()).toEqual([2, 3, 4, 5]);
    expect(sent()).toEqual(['step 2', 'step 3', 'step 4', 'done']);
  });

  it('a run rebuilt from a checkpoint after a lost device goes back to its position; the room gets nothing twice', () => {
    const { stream, seqs } = seated(0);
    const all = runEvents(4);
    stream.follow(3);
    stream.take(runner(3, all.slice(0, 4)));
    stream.take([{ type: 'recovered', runId: 3, fromStep: 1 }, ...runner(3, all.slice(2))]);
    expect(seqs()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
