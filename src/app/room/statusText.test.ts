import { describe, expect, it } from 'vitest';
import { statusText } from './RoomStatusLine';

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
