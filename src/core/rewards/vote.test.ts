import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { pluralityVote, pluralityVotes, poolBallots, voteCounts } from './vote';

describe('voteCounts', () => {
  it('counts parseable answers and skips null', () => {
    const c = voteCounts(['3', null, '3', '7', null]);
    expect([...c]).toEqual([
      ['3', 2],
      ['7', 1],
    ]);
  });
});

describe('pluralityVote', () => {
  const rng = () => new Rng(1, 'votes');

  it('picks the most common parseable answer; ratio over parseable votes only', () => {
    // 3 votes for '5', 1 for '2', 2 malformed: ratio 3/4.
    const v = pluralityVote(['5', '2', null, '5', null, '5'], rng());
    expect(v).toEqual({ label: '5', count: 3, parseable: 4, majorityRatio: 0.75, tied: false });
  });

  it('labels nothing when no answer parses', () => {
    expect(pluralityVote([null, null], rng())).toEqual({ label: null, count: 0, parseable: 0, majorityRatio: 0, tied: false });
    expect(pluralityVote([], rng()).label).toBeNull();
  });

  it('applies tau: ratio below tau leaves the prompt unlabeled, equal to tau keeps it', () => {
    const answers = ['1', '1', '2', '3']; // ratio 0.5
    expect(pluralityVote(answers, rng(), 0.6).label).toBeNull();
    expect(pluralityVote(answers, rng(), 0.6).majorityRatio).toBe(0.5);
    expect(pluralityVote(answers, rng(), 0.5).label).toBe('1');
  });

  it('breaks a tie with the seeded rng over the sorted candidates, reproducibly', () => {
    const answers = ['9', '4', '9', '4', '1'];
    const a = pluralityVote(answers, new Rng(7, 't'));
    const b = pluralityVote([...answers].reverse(), new Rng(7, 't'));
    expect(a.tied).toBe(true);
    expect(a.count).toBe(2);
    expect(a.majorityRatio).toBe(0.4);
    // The choice is rng.int(2) over ['4', '9'] whatever the sample order.
    const expected = ['4', '9'][new Rng(7, 't').int(2)];
    expect(a.label).toBe(expected);
    expect(b.label).toBe(expected);
    // Across many seeds both tied answers win sometimes (not always the first seen).
    const winners = new Set<string | null>();
    for (let s = 0; s < 40; s++) winners.add(pluralityVote(answers, new Rng(s, 't')).label);
    expect(winners).toEqual(new Set(['4', '9']));
  });

  it('draws from the rng only on a tie', () => {
    const r = new Rng(3, 'x');
    const before = r.getState();
    pluralityVote(['1', '1', '2'], r);
    expect(r.getState()).toEqual(before);
    pluralityVote(['1', '2'], r);
    expect(r.getState()).not.toEqual(before);
  });

  it('with rng null discards a tie (cohort rule) but still reports it', () => {
    const v = pluralityVote(['a', 'b'], null);
    expect(v).toEqual({ label: null, count: 1, parseable: 2, majorityRatio: 0.5, tied: true });
    expect(pluralityVote(['a', 'a', 'b'], null).label).toBe('a');
  });
});

describe('pluralityVotes', () => {
  it('votes per prompt, prompt-major, with per-prompt tie streams', () => {
    const answers = ['1', '1', '2', '3', '4', null, '3', null];
    const r = new Rng(11, 'member/A');
    const votes = pluralityVotes(answers, 2, r);
    expect(votes[0].label).toBe('1');
    expect(votes[1].tied).toBe(true);
    expect(votes[1].label).toBe(['3', '4'][new Rng(11, 'member/A/prompt1').int(2)]);
    // Same ballots, same stream: same labels (the peer's view equals the voter's own view).
    expect(pluralityVotes(answers, 2, new Rng(11, 'member/A'))).toEqual(votes);
  });

  it('rejects a length that does not split into B groups', () => {
    expect(() => pluralityVotes(['1', '2', '3'], 2, null)).toThrow(RangeError);
  });
});

describe('poolBallots', () => {
  it('concatenates voters prompt by prompt, sizes may differ', () => {
    const pooled = poolBallots(
      [
        ['a0', 'a0', 'a1', 'a1'], // 2 per prompt
        ['b0', 'b1'], // 1 per prompt
      ],
      2,
    );
    expect(pooled).toEqual(['a0', 'a0', 'b0', 'a1', 'a1', 'b1']);
  });
});
