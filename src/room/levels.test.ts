import { describe, expect, it } from 'vitest';
import { getPreset } from '../core/experiment/presets';
import { firstPeerArm, levelOfPair, levelPair, peerLevels, roomLevelList, runsByLevel, seatTrainSpec, spreadOrder, unpairedSeatSpec } from './levels';

const spec = (id: string) => getPreset(id)!.spec;

describe('partner levels of a paired room', () => {
  it('hands out the ends first, then the middle of each gap', () => {
    expect(spreadOrder(0)).toEqual([]);
    expect(spreadOrder(1)).toEqual([0]);
    expect(spreadOrder(2)).toEqual([0, 1]);
    expect(spreadOrder(3)).toEqual([0, 2, 1]);
    expect(spreadOrder(5)).toEqual([0, 4, 2, 1, 3]);
    // Every level once.
    for (let n = 0; n < 12; n++) expect([...spreadOrder(n)].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
  });

  it("orders the overlap preset's partners: the least and most overlapping same-family ones first, the other shape last", () => {
    const levels = peerLevels(spec('overlap'));
    expect(levels).toEqual(['peer-S', 'peer-T', 'peer-B50', 'peer-B0', 'peer-B80', 'peer-X']);
    // Two pairs already give the two ends RESULTS compares; a third the middle.
    expect([0, 1, 2].map((k) => levelOfPair(levels, k))).toEqual(['peer-S', 'peer-T', 'peer-B50']);
    // Pair k trains level k mod L: the seventh pair starts over.
    expect(levelOfPair(levels, 6)).toBe('peer-S');
    expect(levelOfPair(levels, 13)).toBe('peer-T');
    expect(levelPair(spec('overlap'), 'peer-T')).toMatchObject({ anchor: 'A', partner: 'T' });
  });

  it('gives an experiment with one peer arm of two members that one level (every pair trains it, as before levels)', () => {
    const levels = peerLevels(spec('peers-learn'));
    expect(levels).toEqual([firstPeerArm(spec('peers-learn'))!.id]);
    expect([0, 1, 2, 3].map((k) => levelOfPair(levels, k))).toEqual(Array(4).fill(levels[0]));
    expect(peerLevels({ ...spec('peers-learn'), arms: spec('peers-learn').arms.filter((a) => a.scheme !== 'peer') })).toEqual([]);
    expect(levelOfPair([], 3)).toBeNull();
  });

  it("makes a seat's run of its level: the pair's two members alone, or its own member", () => {
    const overlap = spec('overlap');
    expect(seatTrainSpec(overlap, { level: null, member: null })).toBe(overlap);
    const alone = seatTrainSpec(overlap, { level: 'peer-T', member: 'A', alone: true });
    expect(alone.members.map((m) => m.id)).toEqual(['A', 'T']);
    expect(alone.arms.map((a) => a.id)).toEqual(['peer-T']);
    const part = seatTrainSpec(overlap, { level: 'peer-T', member: 'T' });
    expect(part.members.map((m) => m.id)).toEqual(['T']);
    expect(part.arms.map((a) => [a.id, a.members])).toEqual([['peer-T', ['T']]]);
  });
});

describe("the levels a room hands out", () => {
  it('spreads several levels over pairs, or over seats when unpaired; one level only over pairs', () => {
    expect(roomLevelList(spec('overlap'), true)).toEqual(peerLevels(spec('overlap')));
    expect(roomLevelList(spec('overlap'), false)).toEqual(peerLevels(spec('overlap')));
    // peers-learn's lesson is self against peer against oracle: an unpaired seat trains all of it.
    expect(roomLevelList(spec('peers-learn'), true)).toEqual(['peer']);
    expect(roomLevelList(spec('peers-learn'), false)).toEqual([]);
    expect(roomLevelList(spec('collapse'), false)).toEqual([]);
  });

  it("reads an unpaired seat's run as its level's pair, and a level the experiment lacks as none", () => {
    const overlap = spec('overlap');
    const run = unpairedSeatSpec(overlap, { level: 'peer-T' });
    expect([run.arms.map((a) => a.id), run.members.map((m) => m.id)]).toEqual([['peer-T'], ['A', 'T']]);
    expect(unpairedSeatSpec(overlap, { level: null })).toBe(overlap);
    expect(unpairedSeatSpec(overlap, { level: 'peer-Q' })).toBe(overlap);
  });

  it("reads a room's runs as one level each when paired or when its seats have levels", () => {
    expect(runsByLevel({ pairing: true, seats: [] })).toBe(true);
    expect(runsByLevel({ pairing: false, seats: [{ level: null }, {}] })).toBe(false);
    expect(runsByLevel({ pairing: false, seats: [{ level: 'peer-S' }] })).toBe(true);
  });
});
