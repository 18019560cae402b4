import { describe, expect, it } from 'vitest';
import { sampleIndex, voteTally } from './votes';

describe('voteTally', () => {
  it('counts parseable answers, most votes first', () => {
    expect(voteTally(['3', '7', '3', null, '3', '7', '1'])).toEqual({
      tally: [
        { answer: '3', votes: 3 },
        { answer: '7', votes: 2 },
        { answer: '1', votes: 1 },
      ],
      malformed: 1,
    });
  });
  it('keeps first-seen order on ties and handles no votes', () => {
    expect(voteTally(['9', '2']).tally.map((t) => t.answer)).toEqual(['9', '2']);
    expect(voteTally([null, null])).toEqual({ tally: [], malformed: 2 });
  });
});

describe('sampleIndex', () => {
  it('follows the latest step unless one is chosen', () => {
    expect(sampleIndex([], null)).toBe(-1);
    expect(sampleIndex([4, 5, 6], null)).toBe(2);
    expect(sampleIndex([4, 5, 6], 5)).toBe(1);
    expect(sampleIndex([4, 5, 6], 1)).toBe(2); // dropped from the window: show the latest
  });
});
