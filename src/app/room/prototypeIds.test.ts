/**
 * Ids that come from a classmate's events are data: a member id such as "constructor" or
 * "toString" (they pass the id pattern) must be an ordinary name to the series and the class's
 * records, never a way into Object.prototype that stops the class view for everyone.
 */
import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from '../store/fixtures';
import { appendStep, emptySeries, lastStepRewards } from '../store/series';
import { seatEvent } from '../../room/seatOutbox';
import { roomSpec, runEvents, seatInfo } from '../../room/fakeSocket.testkit';
import type { RecordedEvent } from '../store/record';
import { ClassRecords } from './classRecords';

/** Every name Object.prototype has that the id pattern ^[A-Za-z][A-Za-z0-9_-]{0,23}$ lets through. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => /^[A-Za-z][A-Za-z0-9_-]{0,23}$/.test(n));

describe('ids named like Object.prototype', () => {
  it('covers the names a student can send', () => {
    expect(PROTOTYPE_NAMES).toEqual(expect.arrayContaining(['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']));
  });

  it.each(PROTOTYPE_NAMES)('a member called %s is folded into the series like any other', (name) => {
    const series = emptySeries();
    expect(appendStep(series, stepEvent(1, [armMetrics('self', 'self', { A: { reward: 0.5 }, [name]: { reward: 0.25 } })]))).toBe(true);
    expect(appendStep(series, stepEvent(2, [armMetrics('self', 'self', { [name]: { reward: 0.75 } })]))).toBe(true);
    const arm = series.arms[0];
    expect(arm.memberIds).toEqual(['A', name]);
    expect(arm.members[name].reward).toEqual([0.25, 0.75]);
    expect(arm.members.A.reward).toEqual([0.5, null]);
    expect(lastStepRewards(series)?.arms.self[name].reward).toBe(0.75);
  });

  it('a classmate whose steps carry every such name leaves the other runs drawn', () => {
    const c = new ClassRecords();
    const honest = runEvents(3).map(seatEvent);
    const hostile: RecordedEvent[] = JSON.parse(JSON.stringify(runEvents(3).map(seatEvent)));
    for (const e of hostile) {
      if (e.type !== 'step') continue;
      for (const arm of e.arms) for (const name of PROTOTYPE_NAMES) arm.members[name] = arm.members[roomSpec.members[0].id];
    }
    c.merge(0, 0, honest);
    c.merge(1, 0, hostile);
    c.merge(2, 0, honest);
    const room = { spec: roomSpec, pairing: false, seats: [0, 1, 2].map((i) => seatInfo(i)) };
    const results = c.results(room);
    expect(results.map((r) => r.seed)).toEqual([100, 101, 102]);
    expect(results.every((r) => r.series.x.length === 3)).toBe(true);
    expect(c.dropped).toEqual([]);
  });

  it('a run whose events cannot be folded is left out and named; the others stay', () => {
    const c = new ClassRecords();
    const broken: RecordedEvent[] = JSON.parse(JSON.stringify(runEvents(2).map(seatEvent)));
    const step = broken.find((e) => e.type === 'step')!;
    if (step.type === 'step') (step as { arms: unknown }).arms = null;
    c.merge(0, 0, runEvents(2).map(seatEvent));
    c.merge(1, 0, broken);
    const room = { spec: roomSpec, pairing: false, seats: [0, 1].map((i) => seatInfo(i)) };
    expect(c.results(room).map((r) => r.seed)).toEqual([100]);
    expect(c.dropped.map((d) => d.label)).toEqual(['seat 1']);
    // The next rebuild (the timer's) says it again from the cache, and still draws seat 0.
    expect(c.results(room).map((r) => r.seed)).toEqual([100]);
    expect(c.dropped.map((d) => d.label)).toEqual(['seat 1']);
  });
});
