/** The projector's headline (headline.ts): a sentence from the class's numbers, counted as the page's claims count (0.03 band). */
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../core/experiment/events';
import { roomSpec, runEvents, seatInfo } from '../../room/fakeSocket.testkit';
import { seatEvent } from '../../room/seatOutbox';
import { ClassRecords } from './classRecords';
import { armReward, classHeadline, projectorTerms } from './headline';

/** Two browsers: seat 0's held-out pass@1 falls 0.40 -> 0.30, seat 1's rises to 0.45; the reward climbs in both (step / 10). */
function twoRuns(steps = roomSpec.steps): RunSummary[] {
  const c = new ClassRecords();
  c.merge(0, 0, runEvents(steps, { passAt1: () => 0.3 }).map(seatEvent));
  c.merge(1, 0, runEvents(steps, { passAt1: () => 0.45 }).map(seatEvent));
  return c.results({ spec: roomSpec, pairing: false, seats: [seatInfo(0), seatInfo(1)] }).map((r) => r.summary!);
}

describe('the class headline', () => {
  it('counts the runs where self got worse while its reward rose, and where peer got better', () => {
    const runs = twoRuns();
    // 4 steps: the first two (0.1, 0.2) and the last two (0.3, 0.4).
    const w = armReward(runs[0], 'self')!;
    expect(w.start).toBeCloseTo(0.15);
    expect(w.end).toBeCloseTo(0.35);
    expect(classHeadline(runs, 'browser', false)).toBe(
      'In 1 of 2 browsers the models that graded themselves got worse on new problems while their reward went up. The models graded by a partner got better in 1 of 2 browsers.',
    );
  });

  it('says "so far" while runs train, and none in words', () => {
    const runs = twoRuns().slice(1);
    expect(classHeadline(runs, 'browser', true)).toBe(
      'So far, in none of 1 browser did the models that graded themselves get worse on new problems while their reward went up. The models graded by a partner got better in 1 of 1 browser.',
    );
  });

  it('a change inside the band (0.40 -> 0.39) is no "got worse", as the claims beside it read it', () => {
    const c = new ClassRecords();
    c.merge(0, 0, runEvents(roomSpec.steps, { passAt1: () => 0.39 }).map(seatEvent));
    const runs = c.results({ spec: roomSpec, pairing: false, seats: [seatInfo(0)] }).map((r) => r.summary!);
    expect(classHeadline(runs, 'browser', false)).toMatch(/^In none of 1 browser/);
  });

  it('a falling reward is no "reward went up"; nothing to say without runs', () => {
    const c = new ClassRecords();
    c.merge(0, 0, runEvents(roomSpec.steps, { passAt1: () => 0.3, reward: (s) => 1 - s / 10 }).map(seatEvent));
    const runs = c.results({ spec: roomSpec, pairing: false, seats: [seatInfo(0)] }).map((r) => r.summary!);
    expect(classHeadline(runs, 'browser', false)).toMatch(/^In none of 1 browser/);
    expect(classHeadline([], 'browser', false)).toBeNull();
  });
});

describe('the class headline of partner levels (overlap rooms)', () => {
  /** The runs with their peer arm renamed to a partner level, as a paired overlap room's pairs train them. */
  const asLevel = (run: RunSummary, level: string): RunSummary => ({ ...run, arms: run.arms.filter((a) => a.id === 'peer').map((a) => ({ ...a, id: `peer-${level}` })) });

  it('counts, per partner, the pairs whose models got better, over the pairs that trained it', () => {
    const [worse, better] = twoRuns();
    // The peer arm's pass@1 is the arm's mean: seat 1's rose (0.40 -> 0.45), seat 0's fell.
    const runs = [asLevel(better, 'S'), asLevel(worse, 'T'), asLevel(better, 'T')];
    expect(classHeadline(runs, 'pair', false)).toBe('Graded by a partner, the models got better with S in 1 of 1 pair, with T in 1 of 2.');
    expect(classHeadline(runs.slice(1, 2), 'pair', true)).toBe('So far, graded by a partner, the models got better with T in 0 of 1 pair.');
  });

  it('a class whose runs train self and every partner keeps to the self sentence (the overlap panel shows the partners)', () => {
    const [worse] = twoRuns();
    const every: RunSummary = { ...worse, arms: [...worse.arms, ...asLevel(worse, 'S').arms, ...asLevel(worse, 'T').arms] };
    expect(classHeadline([every], 'browser', false)).toBe('In 1 of 1 browser the models that graded themselves got worse on new problems while their reward went up. The models graded by a partner got better in 0 of 1 browser.');
  });

  it('defines only the arms the charts draw: a paired room has no self or oracle', () => {
    const words = (schemes: string[]) => projectorTerms(new Set(schemes)).map(([t]) => t);
    expect(words(['peer'])).toEqual(['held-out pass@1', 'label-free reward', 'peer', 'seed']);
    expect(words(['oracle', 'self', 'peer'])).toEqual(['held-out pass@1', 'label-free reward', 'self', 'peer', 'oracle', 'seed']);
  });
});
