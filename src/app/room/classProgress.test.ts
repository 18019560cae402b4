/** The class's progress in words (the projector view's header, a presenter's run bar): never "Ready" at step 33. */
import { describe, expect, it } from 'vitest';
import { roomSpec, seatInfo } from '../../room/fakeSocket.testkit';
import type { RoomInfo } from '../../room/protocol';
import { classProgress } from './classProgress';

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
  it('a running room nobody joined says so (no "step Infinity")', () => {
    expect(classProgress(room('running', []))).toBe('No browser has joined: nothing trains.');
  });
});
