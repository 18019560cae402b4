import { describe, expect, it } from 'vitest';
import { errorText } from '../../room/errors';
import { roomSpec, seatInfo } from '../../room/fakeSocket.testkit';
import type { RoomInfo } from '../../room/protocol';
import { roomWord, statusText } from './RoomStatusLine';
import { connectedCount, seatConnected } from './seatConnection';

describe('statusText', () => {
  const offline = { status: 'offline' as const, error: 'The room server cannot be reached', info: null, role: 'student' as const };

  it('promises a student that its results reach the room when the room is back, while they still go', () => {
    expect(statusText({ ...offline, streaming: true })).toContain('its results are sent when the room is back');
  });

  it('makes no such promise once the room refused the run for good (a refused event is not resent forever)', () => {
    const text = statusText({ ...offline, streaming: false });
    expect(text).not.toContain('sent when the room is back');
    expect(text).toContain('goes on here alone');
    expect(text).toContain('saved in this browser');
  });

  it('says nothing of a run to the presenter', () => {
    expect(statusText({ ...offline, role: 'presenter', streaming: false })).toBe('Offline: The room server cannot be reached. Trying again…');
  });
});

describe("the status line says the room's true state", () => {
  const info = (status: RoomInfo['status'], locked = false, seats: RoomInfo['seats'] = [seatInfo(0)]): RoomInfo =>
    ({ id: 'A'.repeat(22), name: 'Quick look, seed 1', preset: 'quick', spec: roomSpec, baseSeed: 100, pairing: false, status, locked, expiresAt: 0, seats }) as RoomInfo;
  const student = { role: 'student' as const, status: 'online' as const, error: null };
  const presenter = { ...student, role: 'presenter' as const };

  it('open, locked, running, over', () => {
    expect(statusText({ ...presenter, info: info('open') })).toBe('Online: room open, waiting for Start.');
    expect(statusText({ ...presenter, info: info('open', true) })).toBe('Online: room open, waiting for Start, locked to new students.');
    expect(statusText({ ...presenter, info: info('running') })).toBe('Online: room running.');
    // Every seat done: the class run is over, not "room running" beside "The class run is over".
    const done = [0, 1].map((i) => ({ ...seatInfo(i), done: true }));
    expect(statusText({ ...presenter, info: info('running', false, done) })).toBe('Online: the class run is over.');
    expect(roomWord({ ...presenter, info: info('running', false, done) })).toBe('over');
  });

  it('a student locked out has no run to go on with: told to ask, not "your run goes on here alone"', () => {
    const r = { ...student, status: 'closed' as const, error: errorText('room-locked', ''), info: null };
    expect(roomWord(r)).toBe('locked-out');
    expect(statusText(r)).toBe('The presenter has locked this room to new students, so you have no seat in it. Ask them to unlock it, then reload this page.');
  });

  it('a removed student is told they are out of the class; their run goes on only if it started', () => {
    const r = { ...student, status: 'closed' as const, error: errorText('seat-removed', ''), info: info('running') };
    expect(roomWord(r)).toBe('removed');
    expect(statusText({ ...r, started: true })).toBe(
      'The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room. Your run goes on here alone and is saved in this browser.',
    );
    expect(statusText(r)).toBe('The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room.');
    // A seat that trains one member of a pair cannot go on without its partner's answers: its run stopped.
    const member = { ...seatInfo(2), member: 'A', partner: 3 };
    expect(statusText({ ...r, started: true, seat: member })).toBe(
      "The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room. Your part of your pair's run stopped: it cannot go on without the room.",
    );
    // One that trains its pair alone goes on.
    expect(statusText({ ...r, started: true, seat: { ...member, partner: null, alone: true } })).toContain('Your run goes on here alone');
    // A finished run goes on nowhere.
    expect(statusText({ ...r, started: true, seat: { ...member, done: true } })).toBe('The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room.');
  });

  it('closed: said as closed to both, with what it means for each', () => {
    expect(statusText({ ...presenter, status: 'closed', info: info('closed') })).toBe('The room is closed: nobody can join it and nothing more is stored. Create a new room for another run.');
    expect(statusText({ ...student, status: 'closed', error: 'The room is closed.', info: info('closed'), started: true })).toBe(
      'The room is closed: nothing more is sent to it. Your run goes on here alone and is saved in this browser.',
    );
    expect(connectedCount(info('closed'), false)).toBe('the room is closed');
    expect(seatConnected(true, false, true)).toEqual({ text: 'no: the room is closed', known: true });
  });
});
