import { describe, expect, it } from 'vitest';
import { labelMechanism } from './mechanism';

describe('labelMechanism', () => {
  const truths = ['1', '2', '3', '4', '5'];

  it('counts rescues, misleads and shared errors against the member\'s own votes', () => {
    //            right  wrong  wrong  right  no vote
    const own = ['1', '9', '8', '4', null];
    //            right  right  =own   wrong  right
    const labels = ['1', '2', '8', '7', '5'];
    const m = labelMechanism(own, labels, truths);
    expect(m.ownVoteAccuracy).toBeCloseTo(2 / 5, 12);
    // wrong (incl. no vote): prompts 2, 3, 5 -> labels right on 2 and 5
    expect(m.rescueRate).toBeCloseTo(2 / 3, 12);
    // right: prompts 1, 4 -> label wrong on 4
    expect(m.misleadRate).toBeCloseTo(1 / 2, 12);
    // labeled 5; wrong and equal to own: prompt 3
    expect(m.sharedErrorRate).toBeCloseTo(1 / 5, 12);
  });

  it('self-reward: never rescued or misled, its shared error rate is its error rate', () => {
    const own = ['1', '0', '3', '0', '5'];
    const m = labelMechanism(own, own, truths);
    expect(m).toEqual({ ownVoteAccuracy: 0.6, rescueRate: 0, misleadRate: 0, sharedErrorRate: 0.4 });
  });

  it('skips unlabeled prompts and gives NaN over an empty set', () => {
    const m = labelMechanism(['1', '0', '3', '4', '5'], [null, null, null, null, null], truths);
    expect(m.ownVoteAccuracy).toBeCloseTo(0.8, 12);
    expect(m.rescueRate).toBeNaN();
    expect(m.misleadRate).toBeNaN();
    expect(m.sharedErrorRate).toBeNaN();
    expect(() => labelMechanism(['1'], ['1', '2'], ['1'])).toThrow(RangeError);
  });
});
