/**
 * A class room's runs (classRecords.ts): seats' events merged in order, results as "Run N seeds"
 * has them, unfinished counted so far, a streamed 'done' made whole again, and the room's run file
 * (roomExport.ts) opening as the runs the seats made. (Pairs merged: src/room/roomWire.test.ts, on
 * real member parts through the real server.)
 */
import { describe, expect, it } from 'vitest';
import { countSeedClaims } from '../../core/experiment/claims';
import type { RunSummary } from '../../core/experiment/events';
import { seatEvent } from '../../room/seatOutbox';
import { roomInfo, roomSpec, runEvents, seatInfo } from '../../room/fakeSocket.testkit';
import { parseBundle } from '../../share/bundle';
import { ClassRecords } from './classRecords';
import { getPreset } from '../../core/experiment/presets';
import { pairSpec } from '../../core/experiment/memberParts';
import { seatTrainSpec } from '../../room/levels';
import { streamedEvent } from '../../room/protocol';
import { syntheticRun } from '../../../server/load/syntheticRun';
import { roomRunFile } from './roomExport';
import { seedResult } from '../store/seedsSlice';

const room = (n: number) => ({ spec: roomSpec, pairing: false, seats: Array.from({ length: n }, (_, i) => seatInfo(i)) });

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
    c.merge(0, 0, runEvents(4, { passAt1: () => 0.3 }).map(seatEvent));
    c.merge(1, 0, runEvents(2, { passAt1: () => 0.45 }).map(seatEvent));
    c.merge(2, 0, runEvents(0));
    const results = c.results(room(3));
    expect(results.map((r) => [r.seed, r.finished])).toEqual([
      [100, true],
      [101, false],
    ]);
    expect(c.records(room(3)).map((r) => r.label)).toEqual(['seat 0', 'seat 1']);
    expect(results[1].series.x).toEqual([1, 2]);
    const claims = countSeedClaims(results.map((r) => r.summary).filter((s): s is RunSummary => s != null));
    const fell = claims.find((k) => k.id === 'a')!;
    expect(fell.of).toBe(2);
    expect(fell.held).toBe(1);
    expect(fell.diffs[0]).toBeCloseTo(0.095);
  });

  it("a student's own seat stays in the class while this page holds more of it than the room does", () => {
    const c = new ClassRecords();
    // Seat 1 is this student's: its run is at step 4 here, the room has stored 2 of its events so far.
    c.merge(0, 0, runEvents(4).map(seatEvent));
    c.merge(1, 0, runEvents(4, { passAt1: () => 0.3 }).map(seatEvent));
    const seats = [
      { ...seatInfo(0), events: 6 },
      { ...seatInfo(1), events: 2 },
    ];
    c.seatsNow(seats, 1);
    expect(c.held(1)).toBe(6);
    expect(c.results({ ...room(2), seats }).map((r) => r.seed)).toEqual([100, 101]);
    // Another seat the room holds fewer events of was freed and taken again: dropped, as before.
    c.seatsNow([{ ...seatInfo(0), events: 1 }, { ...seatInfo(1), events: 2 }], 1);
    expect(c.held(0)).toBe(0);
    expect(c.held(1)).toBe(6);
    // Without `own` (the presenter), holding more than the room is a new occupant.
    c.seatsNow([{ ...seatInfo(1), events: 2 }]);
    expect(c.held(1)).toBe(0);
  });

  it("makes a streamed 'done' whole again: the summary the seat's runner ended with", () => {
    const c = new ClassRecords();
    const run = runEvents(4);
    const streamed = run.map(seatEvent);
    const last = streamed.at(-1)!;
    expect(last.type === 'done' && last.summary.arms[0].members[0].history).toEqual([]);
    c.merge(0, 0, JSON.parse(JSON.stringify(streamed)));
    const [r] = c.results(room(1));
    expect(r.summary).toEqual(run.at(-1)!.type === 'done' ? (run.at(-1) as { summary: RunSummary }).summary : null);
    expect(r.summary?.arms[0].members[0].history).toHaveLength(4);
  });

  it("exports the room as a run file that opens as the seats' runs, each done whole", () => {
    const c = new ClassRecords();
    const runs = [runEvents(4, { passAt1: () => 0.3 }), runEvents(4, { passAt1: () => 0.5 }), runEvents(3)];
    runs.forEach((run, i) => c.merge(i, 0, JSON.parse(JSON.stringify(run.map(seatEvent)))));
    const file = roomRunFile(roomInfo(), c.records(room(3)));
    if (!file.ok) throw new Error(file.problem);
    const parsed = parseBundle(file.text);
    if (!parsed.ok) throw new Error(parsed.error);
    const seeds = parsed.bundle.seeds!;
    expect(seeds.map((r) => r.spec)).toEqual([0, 1, 2].map((i) => ({ ...roomSpec, seed: 100 + i })));
    // The runs as the seats' runners recorded them, rollout samples aside (the room has none).
    expect(seeds.map((r) => r.events)).toEqual(runs.map((run) => run.map((e) => (e.type === 'step' ? { ...e, samples: [] } : e))));
    expect(parsed.bundle.name).toBe('class: 3 browsers');
    expect(roomRunFile(roomInfo(), [])).toEqual({ ok: false, problem: expect.stringContaining('nothing to export') });
  });

  it('rebuilds only the seats whose events changed', () => {
    const c = new ClassRecords();
    c.merge(0, 0, runEvents(2));
    c.merge(1, 0, runEvents(2));
    const first = c.results(room(2));
    c.merge(1, 3, runEvents(3).slice(3));
    const second = c.results(room(2));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].series.x).toEqual([1, 2, 3]);
  });

  it('reads seats by their index, not their place in the list: a freed index leaves a gap (docs/ROOM.md, "Freed seats")', () => {
    const c = new ClassRecords();
    c.merge(0, 0, runEvents(2, { passAt1: () => 0.3 }));
    c.merge(2, 0, runEvents(2, { passAt1: () => 0.5 }));
    // Seat 1 was freed: the room lists seats 0 and 2 (seats.length 2).
    const gap = { spec: roomSpec, pairing: false, seats: [seatInfo(0), seatInfo(2)] };
    expect(c.records(gap).map((r) => [r.label, r.record.spec.seed])).toEqual([
      ['seat 0', 100],
      ['seat 2', 102],
    ]);
    expect(c.results(gap).map((r) => r.seed)).toEqual([100, 102]);
  });
});

describe('a freed seat taken again (the next student gets the index, the seed and events from 0)', () => {
  const pass = (run: ReturnType<typeof runEvents>) => run.filter((e) => e.type === 'step').map((e) => (e.type === 'step' ? e : null)!.step);
  const seats = (...idx: [number, number][]) => idx.map(([i, events]) => seatInfo(i, { events }));

  it("drops the old occupant's events when the index leaves the room's seats", () => {
    const c = new ClassRecords();
    c.seatsNow(seats([0, 4]));
    c.merge(0, 0, runEvents(2, { passAt1: () => 0.3 }).concat(runEvents(3).slice(3)));
    expect(c.held(0)).toBe(4);
    c.seatsNow([]);
    expect(c.held(0)).toBe(0);
    c.seatsNow(seats([0, 0]));
    c.merge(0, 0, runEvents(1, { passAt1: () => 0.5 }).slice(0, 1));
    expect(c.held(0)).toBe(1);
  });

  it('drops them when the room holds fewer events of the seat than this page (freed and taken between two room messages)', () => {
    const c = new ClassRecords();
    c.seatsNow(seats([0, 4]));
    c.merge(0, 0, runEvents(3, { passAt1: () => 0.3 }));
    c.seatsNow(seats([0, 4]));
    expect(c.held(0)).toBe(4);
    c.seatsNow(seats([0, 1]));
    expect(c.held(0)).toBe(0);
    // The newcomer's events from 0 on make the seat's run alone.
    c.merge(0, 0, runEvents(1, { passAt1: () => 0.5 }));
    const [r] = c.results({ spec: roomSpec, pairing: false, seats: seats([0, 2]) });
    expect(r.series.x).toEqual([1]);
  });

  it("starts the seat again when its events come again from 0, and never merges two runs into one curve", () => {
    const c = new ClassRecords();
    const room1 = { spec: roomSpec, pairing: false, seats: seats([0, 4]) };
    const old = runEvents(3, { passAt1: () => 0.3 });
    c.merge(0, 0, old);
    const before = c.results(room1)[0];
    expect(before.series.x).toEqual([1, 2, 3]);
    // The newcomer's first two events, then two more: the same counts the old occupant had once.
    const fresh = runEvents(3, { passAt1: () => 0.6 });
    c.merge(0, 0, fresh.slice(0, 2));
    expect(pass(c.records(room1)[0].record.events)).toEqual([1]);
    c.merge(0, 2, fresh.slice(2));
    const after = c.results(room1)[0];
    expect(after).not.toBe(before);
    expect(c.records(room1)[0].record.events).toEqual(fresh);
  });
});

describe('a paired room of partner levels', () => {
  it("gives each pair its own level's arm, and takes a seat that trained alone as its pair's run, whole", () => {
    const spec = { ...getPreset('overlap')!.spec, steps: 2, evalEvery: 1 };
    const c = new ClassRecords();
    // Pair 1 (seat 2, level peer-T) had no partner: its browser ran the pair A with T itself.
    c.merge(2, 0, syntheticRun(pairSpec({ ...spec, seed: 101 }, 'peer-T'), 101).map(streamedEvent));
    // Pair 0 (level peer-S): seat 0's member part, A alone, has its base and step 1.
    c.merge(0, 0, syntheticRun(seatTrainSpec({ ...spec, seed: 100 }, { level: 'peer-S', member: 'A' }), 100).slice(0, 2).map(streamedEvent));
    const seats = [
      { ...seatInfo(0), member: 'A', level: 'peer-S', alone: false, partner: null },
      { ...seatInfo(2), seed: 101, member: 'A', level: 'peer-T', alone: true, partner: null },
    ];
    const runs = c.records({ spec, pairing: true, seats });
    expect(runs.map((r) => [r.label, r.record.spec.arms.map((a) => a.id), r.record.spec.members.map((m) => m.id), r.record.spec.seed, r.record.events.map((e) => e.type)])).toEqual([
      ['pair 0', ['peer-S'], ['A', 'S'], 100, ['base', 'step']],
      ['pair 1', ['peer-T'], ['A', 'T'], 101, ['base', 'step', 'step', 'done']],
    ]);
    expect(runs[1].problem).toBeNull();
    // Its 'done' is made whole again: A's history over both steps.
    const done = runs[1].record.events.at(-1)!;
    expect(done.type === 'done' && done.summary.arms[0].members.map((m) => m.history.length)).toEqual([2, 2]);
    const results = c.results({ spec, pairing: true, seats });
    expect(results.map((r) => [r.seed, r.finished])).toEqual([
      [100, false],
      [101, true],
    ]);
  });
});

describe('an unpaired room of partner levels', () => {
  it("takes each seat's run as its level's pair, whole, folded as the whole rebuild makes it", () => {
    const spec = { ...getPreset('overlap')!.spec, steps: 2, evalEvery: 1 };
    const c = new ClassRecords();
    // Seat 0 trains A with S, seat 1 A with T, each both models itself (the room marks them alone).
    c.merge(0, 0, syntheticRun(pairSpec({ ...spec, seed: 200 }, 'peer-S'), 200).map(streamedEvent));
    c.merge(1, 0, syntheticRun(pairSpec({ ...spec, seed: 201 }, 'peer-T'), 201).slice(0, 2).map(streamedEvent));
    const seats = [
      { ...seatInfo(0), seed: 200, level: 'peer-S', alone: true },
      { ...seatInfo(1), seed: 201, level: 'peer-T', alone: true },
    ];
    const klass = { spec, pairing: false, seats };
    const runs = c.records(klass);
    expect(runs.map((r) => [r.label, r.pair, r.record.spec.arms.map((a) => a.id), r.record.spec.members.map((m) => m.id), r.record.spec.seed, r.record.events.map((e) => e.type)])).toEqual([
      ['seat 0', null, ['peer-S'], ['A', 'S'], 200, ['base', 'step', 'step', 'done']],
      ['seat 1', null, ['peer-T'], ['A', 'T'], 201, ['base', 'step']],
    ]);
    const results = c.results(klass);
    expect(results.map((r) => [r.seed, r.finished, r.record.spec.arms.map((a) => a.id)])).toEqual([
      [200, true, ['peer-S']],
      [201, false, ['peer-T']],
    ]);
    expect(results).toEqual(runs.map((r) => seedResult(r.record)));
    // Read as the whole experiment (a page that ignored the seat's level), the same events are not the seat's run.
    const whole = new ClassRecords();
    whole.merge(0, 0, syntheticRun(pairSpec({ ...spec, seed: 200 }, 'peer-S'), 200).map(streamedEvent));
    const misread = (() => {
      try {
        return whole.records({ spec, pairing: false, seats: [{ ...seats[0], level: null, alone: false }] }).map((r) => r.record.spec.arms.map((a) => a.id));
      } catch (e) {
        return String(e);
      }
    })();
    expect(misread).not.toEqual([['peer-S']]);
  });
});
