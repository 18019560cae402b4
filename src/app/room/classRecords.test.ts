/** A class room's runs (classRecords.ts): seats' events merged in order, results as "Run N seeds" has them, unfinished counted so far. */
import { describe, expect, it } from 'vitest';
import { countSeedClaims } from '../../core/experiment/claims';
import type { RunSummary } from '../../core/experiment/events';
import { roomSpec, runEvents, seatInfo } from '../../room/fakeSocket.testkit';
import { ClassRecords } from './classRecords';

describe('the class as seeds', () => {
  it('merges each seat in order, keeps what it holds, refuses a gap', () => {
    const c = new ClassRecords();
    const run = runEvents(4);
    expect(c.merge(0, 0, run.slice(0, 2))).toBe(true);
    expect(c.merge(0, 1, run.slice(1, 4))).toBe(true); // position 1 again, then 2 and 3
    expect(c.held(0)).toBe(4);
    expect(c.merge(0, 6, run.slice(0, 1))).toBe(false);
    expect(c.held(0)).toBe(4);
  });

  it("gives each seat's run with the seat's seed; a seat with no RL step is left out; unfinished ones count so far", () => {
    const c = new ClassRecords();
    // Seat 0 finished: self fell (0.40 -> 0.30). Seat 1 at step 2: self held (0.40 -> 0.45). Seat 2: only its base.
    c.merge(0, 0, runEvents(4, { passAt1: () => 0.3 }));
    c.merge(1, 0, runEvents(2, { passAt1: () => 0.45 }));
    c.merge(2, 0, runEvents(0));
    const seats = [seatInfo(0), seatInfo(1), seatInfo(2)];
    const results = c.results(roomSpec, seats);
    expect(results.map((r) => [r.seed, r.finished])).toEqual([
      [100, true],
      [101, false],
    ]);
    expect(results[1].series.x).toEqual([1, 2]);
    const claims = countSeedClaims(results.map((r) => r.summary).filter((s): s is RunSummary => s != null));
    const fell = claims.find((k) => k.id === 'a')!;
    expect(fell.of).toBe(2);
    expect(fell.held).toBe(1);
    expect(fell.diffs[0]).toBeCloseTo(0.095);
  });

  it('rebuilds only the seats whose events changed', () => {
    const c = new ClassRecords();
    const seats = [seatInfo(0), seatInfo(1)];
    c.merge(0, 0, runEvents(2));
    c.merge(1, 0, runEvents(2));
    const first = c.results(roomSpec, seats);
    c.merge(1, 3, runEvents(3).slice(3));
    const second = c.results(roomSpec, seats);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].series.x).toEqual([1, 2, 3]);
  });
});
