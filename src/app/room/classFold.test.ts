/**
 * The class's results kept folded (runFold.ts, pairFold.ts, ClassRecords.results): a rebuild folds
 * only the events that came since the last one, a seat whose events start again is folded from
 * scratch, and at every point the results are those a whole rebuild (records, then seedResult)
 * makes of the same events.
 */
import { describe, expect, it } from 'vitest';
import { pairSpec } from '../../core/experiment/memberParts';
import { PRESETS } from '../../core/experiment/presets';
import { emptySummary, foldEvent } from '../../core/experiment/summary';
import { seatEvent } from '../../room/seatOutbox';
import { roomSpec, runEvents, seatInfo } from '../../room/fakeSocket.testkit';
import type { RecordedEvent } from '../store/record';
import { seedResult } from '../store/seedsSlice';
import { ClassRecords, type ClassRoom } from './classRecords';

const longSpec = { ...roomSpec, steps: 120 };
const classOf = (n: number, spec = longSpec): ClassRoom => ({ spec, pairing: false, seats: Array.from({ length: n }, (_, i) => seatInfo(i)) });
/** What a whole rebuild makes of the same events: every run replayed (the rebuild before this fold). */
const rebuilt = (c: ClassRecords, room: ClassRoom) => c.records(room).map((r) => seedResult(r.record));

describe('the class view folds each event once', () => {
  it('60 seats of 120 steps fold 7,260 events once; one more step on one seat folds 1 event, not the class', () => {
    const c = new ClassRecords();
    const room = classOf(60);
    const run = runEvents(121).map(seatEvent);
    for (let i = 0; i < 60; i++) c.merge(i, 0, run.slice(0, 121));
    const first = c.results(room);
    expect(c.lastFolded).toBe(60 * 121);
    expect(first).toHaveLength(60);
    c.merge(17, 121, run.slice(121, 122));
    const second = c.results(room);
    expect(c.lastFolded).toBe(1);
    expect(second.filter((r, i) => r !== first[i]).map((r) => r.seed)).toEqual([117]);
    expect(second[17].series.x).toHaveLength(121);
    // The charts see a new series object around the same columns (nothing copied).
    expect(second[17].series).not.toBe(first[17].series);
    expect(second[17].series.arms[0].members.A.reward).toBe(first[17].series.arms[0].members.A.reward);
    // Nothing new: nothing folded, and the same array (the page's state does not change).
    expect(c.results(room)).toBe(second);
    expect(c.lastFolded).toBe(0);
  });

  it('a seat whose events come again from 0 (a new occupant, or the room sending it all again) is folded from scratch', () => {
    const c = new ClassRecords();
    const room = classOf(2, roomSpec);
    c.merge(0, 0, runEvents(3, { reward: () => 0.1 }));
    c.merge(1, 0, runEvents(3));
    c.results(room);
    const fresh = runEvents(4, { reward: () => 0.9 }).map(seatEvent);
    c.merge(0, 0, fresh.slice(0, 3));
    const [seat0] = c.results(room);
    expect(c.lastFolded).toBe(3);
    expect(seat0.series.x).toEqual([1, 2]);
    expect(seat0.series.arms[0].members.A.reward).toEqual([0.9, 0.9]);
    // Freed and taken again between two room messages (the room holds fewer events than this page).
    c.seatsNow([seatInfo(0, { events: 5 }), seatInfo(1, { events: 1 })]);
    c.merge(1, 0, runEvents(1, { reward: () => 0.5 }));
    const after = c.results(room);
    expect(c.lastFolded).toBe(2);
    expect(after.map((r) => r.series.arms[0].members.A.reward)).toEqual([
      [0.9, 0.9],
      [0.5],
    ]);
  });

  it('equals the whole rebuild after every batch, a streamed done made whole included', () => {
    const c = new ClassRecords();
    const room = classOf(3, roomSpec);
    const runs = [runEvents(4, { passAt1: () => 0.3 }), runEvents(4, { passAt1: () => 0.5 }), runEvents(4)].map((r) => r.map(seatEvent));
    const at = [0, 0, 0];
    for (const [seat, n] of [[0, 2], [1, 1], [0, 3], [2, 6], [1, 2], [1, 3], [0, 1]]) {
      c.merge(seat, at[seat], runs[seat].slice(at[seat], at[seat] + n));
      at[seat] = Math.min(6, at[seat] + n);
      expect(c.results(room)).toEqual(rebuilt(c, room));
    }
    const whole = c.results(room);
    expect(whole.map((r) => r.finished)).toEqual([true, true, true]);
    expect(whole[0].summary?.arms[0].members[0].history).toHaveLength(4);
  });

  it('a seat whose steps repeat (the room refuses it; a page never trusts that) is made whole as a whole rebuild makes it', () => {
    const c = new ClassRecords();
    const room = classOf(1, roomSpec);
    const run = runEvents(4).map(seatEvent);
    c.merge(0, 0, [...run.slice(0, 3), run[2], ...run.slice(3)]);
    expect(c.results(room)).toEqual(rebuilt(c, room));
    expect(c.dropped).toEqual([]);
  });

  it('a seat that cannot be folded is left out with its reason until it starts again; the others go on folding', () => {
    const c = new ClassRecords();
    const room = classOf(2, roomSpec);
    const broken: RecordedEvent[] = JSON.parse(JSON.stringify(runEvents(3).map(seatEvent)));
    (broken[2] as { arms: unknown }).arms = null;
    c.merge(0, 0, broken.slice(0, 2));
    c.merge(1, 0, runEvents(1));
    expect(c.results(room).map((r) => r.seed)).toEqual([100, 101]);
    c.merge(0, 2, broken.slice(2));
    c.merge(1, 2, runEvents(2).slice(2));
    const results = c.results(room);
    expect(results.map((r) => [r.seed, r.series.x])).toEqual([[101, [1, 2]]]);
    expect(c.dropped.map((d) => d.label)).toEqual(['seat 0']);
    c.merge(1, 3, runEvents(3).slice(3));
    c.results(room);
    expect(c.lastFolded).toBe(1);
    expect(c.dropped.map((d) => d.label)).toEqual(['seat 0']);
    c.merge(0, 0, runEvents(1));
    expect(c.results(room).map((r) => r.seed)).toEqual([100, 101]);
    expect(c.dropped).toEqual([]);
  });
});

describe('a class to catch up with is folded in slices', () => {
  it('stops where its budget says, draws the runs as far as they are folded, and goes on from there', () => {
    const c = new ClassRecords();
    const room = classOf(3, roomSpec);
    const runs = [0, 1, 2].map(() => runEvents(4).map(seatEvent));
    runs.forEach((run, i) => c.merge(i, 0, run));
    const slice = (n: number) => () => n-- > 0;
    const first = c.results(room, slice(4));
    expect([c.lastFolded, c.behind]).toEqual([4, true]);
    expect(first.map((r) => r.series.x)).toEqual([[1, 2, 3]]);
    let slices = 1;
    while (c.behind) {
      c.results(room, slice(4));
      expect(c.lastFolded).toBeLessThanOrEqual(4);
      slices++;
    }
    expect(slices).toBe(5); // 18 events, 4 a slice
    const whole = new ClassRecords();
    runs.forEach((run, i) => whole.merge(i, 0, run));
    expect(c.results(room)).toEqual(whole.results(room));
    expect([c.lastFolded, c.behind]).toEqual([0, false]);
  });
});

describe("a paired room's pairs, folded as their seats' steps come", () => {
  const spec = { ...structuredClone(PRESETS['peers-learn'].spec), steps: 3 };
  const arm = spec.arms.find((a) => a.scheme === 'peer' && a.members.length === 2)!;
  const [idA, idB] = arm.members;
  const room = (seats: number): ClassRoom => ({ spec, pairing: true, seats: Array.from({ length: seats }, (_, i) => seatInfo(i, { seed: 100 + Math.floor(i / 2) })) });

  /** Member parts of one pair's run: each seat's base and steps hold its own member, the pair's measures on both. */
  function parts(seed: number): [RecordedEvent[], RecordedEvent[]] {
    const one = pairSpec({ ...spec, seed }, arm.id);
    const m = (k: number, s: number) => ({ ...runEventsMetrics(s), reward: (seed % 7) / 10 + k / 100 + s / 1000 });
    const side = (id: string, k: number): RecordedEvent[] => {
      const events: RecordedEvent[] = [
        { type: 'base', members: [{ id, family: 'mlp', params: 100, label: id }], base: [{ memberId: id, passAt1: 0.4 + k / 10, majAtG: 0.5 }], baseKappa: [] },
      ];
      for (let s = 1; s <= spec.steps; s++) {
        const pairs = [{ a: idA, b: idB, agreement: 0.5, kappa: 0.1 * s, bothWrongSame: 0.05 }];
        events.push({ type: 'step', step: s, steps: spec.steps, arms: [{ armId: arm.id, scheme: arm.scheme, members: { [id]: m(k, s) }, pairs }], samples: [], stepMs: 10 + k, tokens: 50 });
      }
      const summary = emptySummary(one, 'wasm');
      for (const e of events) foldEvent(summary, e, one);
      events.push(seatEvent({ type: 'done', summary }));
      return events;
    };
    return [side(idA, 0), side(idB, 1)];
  }

  it('merges a step once both seats have it, and equals the whole rebuild once they have the same steps', () => {
    const c = new ClassRecords();
    const [a, b] = parts(100);
    const r = room(2);
    c.merge(0, 0, a.slice(0, 2));
    // One seat with a step: the pair of one member, as the whole rebuild makes it.
    expect(c.results(r)).toEqual(rebuilt(c, r));
    c.merge(1, 0, b.slice(0, 3));
    // The second seat starts: the pair is folded again from its merged base; step 2 waits for seat 0's.
    expect(c.results(r)[0].series.x).toEqual([1]);
    expect(Object.keys(c.results(r)[0].series.arms[0].members)).toEqual([idA, idB]);
    c.merge(0, 2, a.slice(2, 3));
    expect(c.results(r)).toEqual(rebuilt(c, r));
    expect(c.lastFolded).toBe(1);
    c.merge(0, 3, a.slice(3));
    c.merge(1, 3, b.slice(3));
    const done = c.results(r);
    expect(done).toEqual(rebuilt(c, r));
    expect(done[0].finished).toBe(true);
    expect(done[0].summary?.medianStepMs).toBe(11);
  });

  it("stops a pair whose steps do not merge at that step, and keeps the class's other pairs", () => {
    const c = new ClassRecords();
    const [a, b] = parts(100);
    const [a1, b1] = parts(101);
    const bad: RecordedEvent[] = JSON.parse(JSON.stringify(b));
    const step2 = bad[2];
    if (step2.type === 'step') step2.arms[0].pairs[0].agreement = 0.9;
    [a, bad, a1, b1].forEach((events, i) => c.merge(i, 0, events));
    const results = c.results(room(4));
    expect(results.map((x) => [x.seed, x.series.x, x.finished])).toEqual([
      [100, [1], false],
      [101, [1, 2, 3], true],
    ]);
    expect(results).toEqual(rebuilt(c, room(4)));
    // Said, with the step, so the presenter knows why that pair's curve ends there.
    expect(c.stopped).toEqual([{ label: 'pair 0', reason: expect.stringContaining("the pair's step 2 does not merge") }]);
    expect(c.dropped).toEqual([]);
  });
});

/** runEvents' metrics of a step (every field a step carries). */
function runEventsMetrics(s: number) {
  const step = runEvents(1)[1];
  if (step.type !== 'step') throw new Error('a step');
  return { ...Object.values(step.arms[0].members)[0], loss: s / 100 };
}
