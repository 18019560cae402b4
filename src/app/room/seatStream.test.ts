/** A seat's stream (seatStream.ts) into the real client over a fake socket: fresh, resumed and recovered runs keep their positions. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkerEvent } from '../../engine/protocol';
import { RoomConnection } from '../../room/client';
import { ROOM_ID, TOKEN, memoryStorage, runEvents, seatInfo, socketFactory } from '../../room/fakeSocket.testkit';
import { SeatStream } from './seatStream';

const runner = (runId: number, evs = runEvents(4)): WorkerEvent[] => evs.map((event) => ({ type: 'runner', runId, event }));

function seated(stored: number) {
  const f = socketFactory();
  const c = new RoomConnection({ url: 'ws://x/room', role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage: memoryStorage() });
  f.last.open();
  f.last.server({ t: 'seat', seat: seatInfo(0), token: TOKEN, stored });
  const stream = new SeatStream((from, events) => c.pushEvents(from, events));
  const seqs = () => f.last.of('event').map((m) => m.seq);
  return { c, f, stream, seqs };
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

  it('a resumed run after a reload: the saved events before its checkpoint, then the worker\'s, even when these come first', () => {
    const { stream, seqs, c } = seated(1);
    const all = runEvents(4);
    stream.followResumed(9, 2); // checkpoint at step 2: positions 0..2 saved, the run goes on at 3
    stream.take(runner(9, all.slice(3)));
    expect(seqs()).toEqual([]);
    stream.prime(all.slice(0, 3));
    expect(seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(c.heldEvents).toBe(6);
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
