/**
 * BENCHMARKS' room-start section is made from bench/results/room-start.json (one source for its
 * figures), and the section counts a seat as shipped only when every member's warm start was, and
 * as within the target only at 5 s or less.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { roomStartSection, warmAndBaseS, type RoomStartRun, type SeatStart } from './bench-room';

const seat = (i: number, firstStepS: number | null, sources: string[]): SeatStart => ({
  seat: i,
  seed: 109 + i,
  seatS: 1,
  firstStepS,
  sources,
  marks: [
    { phase: 'warm', atMs: 500 },
    { phase: 'base', atMs: 1250 },
  ],
  backend: 'wasm',
});

describe('npm run bench -- --room-start', () => {
  it("BENCHMARKS' room-start section is the one its results file makes", () => {
    const runs = JSON.parse(readFileSync('bench/results/room-start.json', 'utf8')) as RoomStartRun[];
    const doc = readFileSync('docs/BENCHMARKS.md', 'utf8');
    expect(/<!-- room-start -->\n([\s\S]*?)\n<!-- \/room-start -->/.exec(doc)?.[1]).toBe(roomStartSection(runs));
  });

  it('counts the seats whose every member was shipped and those at their first RL step within 5 s', () => {
    const run: RoomStartRun = {
      mode: 'alone',
      preset: 'peers-learn',
      browser: 'Chromium 1',
      staggerMs: null,
      load: 2,
      date: '2026-12-04',
      seats: [seat(0, 3.2, ['A: shipped', 'B: shipped']), seat(1, 5.0, ['A: shipped', 'B: trained in this run']), seat(2, 5.1, ['A: shipped', 'B: shipped']), seat(3, null, ['A: not shown', 'B: not shown'])],
    };
    const text = roomStartSection([run]);
    expect(text).toContain('4 seats; every member shipped in 2 of 4; first RL step median 5.0 s, slowest 5.1 s; within 5 s: 2 of 4.');
    expect(text).toContain('| 3 | 112 | 1.0 | not reached | 0.8 | A: not shown, B: not shown |');
    expect(warmAndBaseS({ marks: [] })).toBeNull();
  });
});
