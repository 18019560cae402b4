/**
 * The class-view benchmark (bench-class.ts): its events are ones a room stores, as many as the
 * room's byte budget leaves each seat; BENCHMARKS' class-view section and docs/ROOM.md's sentence
 * are the ones bench/results/class-view.json makes (one source for their figures).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FOLD_SLICE_MS } from '../../src/app/room/classFolds';
import { ExperimentSpecSchema } from '../../src/core/experiment/spec';
import { ROOM_LIMITS } from '../../src/room/protocol';
import { DEFAULT_LIMITS } from '../../server/limits';
import { classSpec, refusal, seatRun, stepsWithinBudget, storedBytes } from './bench-class-events';
import { classViewRoomLine, classViewSection, type ClassViewTiming } from './bench-class';

const marked = (doc: string, marker: string) => new RegExp(`<!-- ${marker} -->\\n([\\s\\S]*?)\\n<!-- /${marker} -->`).exec(doc)?.[1];

describe('npm run bench -- --class', () => {
  it("makes events the room stores, each step as large as the room's frame checks allow", () => {
    const spec = classSpec(3);
    const run = seatRun(spec, 1000);
    expect(run.map((e) => e.type)).toEqual(['base', 'step', 'step', 'step', 'done']);
    expect(run.map((e, seq) => refusal(spec, 1000, seq, e))).toEqual([null, null, null, null, null]);
    const step = JSON.stringify(run[1]);
    // Near the frame's bounds (4,096 values, 262,144 characters): 10 arms of 6 members at full precision.
    expect(step.length).toBeGreaterThan(75_000);
    expect(step.length).toBeLessThan(ROOM_LIMITS.frameChars);
    // The experiment is as large as a room's may be: another arm, or a seventh member in an arm, is refused.
    expect(ExperimentSpecSchema.safeParse(spec).success).toBe(true);
    expect(ExperimentSpecSchema.safeParse({ ...spec, arms: [...spec.arms, { ...spec.arms[0], id: 'arm10' }] }).success).toBe(false);
    const seventh = { ...spec, members: [...spec.members, { ...spec.members[0], id: 'G' }] };
    expect(ExperimentSpecSchema.safeParse({ ...seventh, arms: seventh.arms.map((a) => ({ ...a, members: [...a.members, 'G'] })) }).success).toBe(false);
  });

  it("fits as many steps a seat as the room's byte budget leaves it, and not one more", () => {
    const stepChars = 81_000;
    const other = 8_000;
    const steps = stepsWithinBudget(60, stepChars, other);
    const seat = (n: number) => n * storedBytes(0, 0, 'x'.repeat(stepChars)) + storedBytes(0, 0, 'x'.repeat(other)) + storedBytes(0, 0, '');
    expect(60 * seat(steps)).toBeLessThanOrEqual(DEFAULT_LIMITS.roomBytes);
    expect(60 * seat(steps + 1)).toBeGreaterThan(DEFAULT_LIMITS.roomBytes);
  });

  it("BENCHMARKS' class-view section and ROOM.md's sentence are the ones its results file makes", () => {
    const runs = JSON.parse(readFileSync('bench/results/class-view.json', 'utf8')) as ClassViewTiming[];
    expect(runs.length).toBeGreaterThan(0);
    expect(marked(readFileSync('docs/BENCHMARKS.md', 'utf8'), 'class-view')).toBe(classViewSection(runs));
    const room = readFileSync('docs/ROOM.md', 'utf8');
    expect(marked(room, 'class-view')).toBe(classViewRoomLine(runs));
    expect(room).toContain(`folded in slices of ${FOLD_SLICE_MS} ms`);
  });

  it('reads a run into a row and a sentence', () => {
    const run: ClassViewTiming = {
      seats: 60, stepsPerSeat: 109, stepChars: 81_271, seatBytes: 8_900_000, budgetPerSeat: 8_947_848, parseMs: 41_000, parseMsPerEvent: 5.5,
      firstBuildMs: 9000, firstBuildFolded: 6480, slices: 170, longestSliceMs: 62, oneEventMs: { median: 1.25, max: 4 }, oneEventFolded: 1, classStepMs: 80, doneMs: 30, replayMs: 9500,
      heapBeforeMiB: 10, heapEventsMiB: 600, heapMiB: 1500, node: 'v22.0.0', load: 3.5, date: '2026-12-04',
    };
    expect(classViewSection([run])).toContain('| 60 | 109 | 79.4 | 8.49 of 8.53 | 41.0 | 5.50 | 9000, 6480, 170, 62 | 1.25 / 4.00 | 1 | 80.0 | 30.0 | 9500 | 600, 1500 | 3.5 |');
    expect(classViewRoomLine([run])).toContain('folded the whole class once in 9.0 s (in 170 slices of at most 62 ms), a rebuild with one new event in 1.25 ms (a step of every seat: 80 ms;');
  });
});
