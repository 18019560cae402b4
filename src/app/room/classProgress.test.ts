/** The class's progress in words (the projector view's header, a presenter's run bar): never "Ready" at step 33. */
import { describe, expect, it } from 'vitest';
import { roomSpec, seatInfo } from '../../room/fakeSocket.testkit';
import type { RoomInfo } from '../../room/protocol';
import { classMeanThrough, classProgress, partnerWaitWords, runAgainSeed } from './classProgress';
import { aggregateSeedLines } from '../charts/seedAggregate';

const room = (status: RoomInfo['status'], seats: RoomInfo['seats']): RoomInfo =>
  ({ id: 'A'.repeat(22), name: 'Quick look, seed 1', preset: 'quick', spec: roomSpec, baseSeed: 100, pairing: false, status, locked: false, expiresAt: 0, seats }) as RoomInfo;

describe('the class in words', () => {
  it('before Start: who joined', () => {
    expect(classProgress(room('open', [seatInfo(0), seatInfo(1)]))).toBe('2 browsers joined; the class starts when you press Start.');
  });
  it('while it trains: the slowest and the fastest step, and how many are done', () => {
    const seats = [{ ...seatInfo(0), lastStep: 30 }, { ...seatInfo(1), lastStep: 47 }, { ...seatInfo(2), lastStep: roomSpec.steps, done: true }];
    expect(classProgress(room('running', seats))).toBe(`3 browsers joined; training at RL steps 30 to 47 of ${roomSpec.steps}, 1 done.`);
  });
  it('at the end: over, in words', () => {
    const seats = [0, 1].map((i) => ({ ...seatInfo(i), lastStep: roomSpec.steps, done: true }));
    expect(classProgress(room('running', seats))).toBe(`The class run is over: all 2 browsers finished ${roomSpec.steps} RL steps.`);
  });
  it('ended early: how many finished, and that the numbers are over those', () => {
    const seats = [{ ...seatInfo(0), lastStep: roomSpec.steps, done: true }, { ...seatInfo(1), lastStep: 2 }];
    expect(classProgress(room('closed', seats))).toBe(`The run was ended: 1 of 2 browsers had finished ${roomSpec.steps} RL steps; the class's numbers are over those that finished.`);
  });
  it('run again: the base seed after every seed the room handed out', () => {
    expect(runAgainSeed({ baseSeed: 100, seats: [seatInfo(0), seatInfo(1), seatInfo(2)] })).toBe(103);
    expect(runAgainSeed({ baseSeed: 100, seats: [] })).toBe(100);
  });
  it('a running room nobody joined says so (no "step Infinity")', () => {
    expect(classProgress(room('running', []))).toBe('No browser has joined: nothing trains.');
  });
});

describe("the class's mean: over the same runs at every step it is drawn", () => {
  const run = (steps: number, finished: boolean) => ({ finished, series: { x: Array.from({ length: steps }, (_, i) => i + 1) } }) as never;
  it('stops at the slowest run still training; finished runs do not hold it back', () => {
    expect(classMeanThrough([run(70, false), run(62, false), run(120, true)])).toBe(62);
    expect(classMeanThrough([run(120, true), run(80, true)])).toBeNull();
    expect(classMeanThrough([])).toBeNull();
  });
  it('no jump when a slow run has not reached a step: the mean ends there, each run goes on faint', () => {
    // Two runs at 0.33 through step 3, one of them on to step 4 at 0.25: before, the mean fell to 0.25 at step 4.
    const line = (ys: number[]) => ({ x: ys.map((_, i) => i + 1), lines: { series: [{ label: 'self pass@1' }], ys: [ys] } }) as never;
    const seeds = [line([0.33, 0.33, 0.33, 0.25]), line([0.33, 0.33, 0.33])];
    const free = aggregateSeedLines(seeds, 'browser');
    expect(free.lines[0].mean).toEqual([0.33, 0.33, 0.33, 0.25]);
    const held = aggregateSeedLines(seeds, 'browser', 3);
    expect(held.lines[0].mean).toEqual([0.33, 0.33, 0.33, null]);
    expect(held.lines[0].count).toEqual([2, 2, 2, 1]);
    expect(held.lines[0].singles[0]).toEqual([0.33, 0.33, 0.33, 0.25]);
  });
});

describe("a paired seat's wait for a partner, in words", () => {
  it("says the server's wait, and no number where an older server gave none", () => {
    expect(partnerWaitWords({ partnerWaitS: 20 })).toBe('20 seconds');
    expect(partnerWaitWords({ partnerWaitS: 1 })).toBe('1 second');
    expect(partnerWaitWords({ partnerWaitS: 600 })).toBe('10 minutes');
    expect(partnerWaitWords({ partnerWaitS: 90 })).toBe('90 seconds');
    expect(partnerWaitWords({})).toBe('a short while');
  });
});
