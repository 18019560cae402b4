import { describe, expect, it } from 'vitest';
import { JOIN_CODE_ALPHABET, joinCodeOf, readJoinCode, showJoinCode } from './joinCode';

describe('a room\'s join code', () => {
  it('six characters of the alphabet, the same for the same id, different for other ids', () => {
    const a = joinCodeOf('lrXWQfOzXYPThrSRUugakQ');
    expect(a).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{6}$`));
    expect(joinCodeOf('lrXWQfOzXYPThrSRUugakQ')).toBe(a);
    // 2,000 random-like ids: no two share a code (2^29.7 codes).
    const ids = Array.from({ length: 2000 }, (_, i) => `room-${i}-${(i * 2654435761) % 1e9}`);
    expect(new Set(ids.map(joinCodeOf)).size).toBe(2000);
  });

  it('read as typed: any case, spaces and dashes; refused when it cannot be a code', () => {
    const code = joinCodeOf('x');
    expect(readJoinCode(showJoinCode(code).toLowerCase())).toBe(code);
    expect(readJoinCode(`${code.slice(0, 3)}-${code.slice(3)}`)).toBe(code);
    expect(readJoinCode('ABC12')).toBeNull(); // too short
    expect(readJoinCode('ABCDE0')).toBeNull(); // 0 is not in the alphabet
    expect(readJoinCode('<script>')).toBeNull();
    expect(readJoinCode('A'.repeat(100))).toBeNull();
  });
});
