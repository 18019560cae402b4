import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { armColors } from '../lib/colors';
import { shownArmColors } from './useRunView';

const overlap = getPreset('overlap')!.spec.arms;
const peersLearn = getPreset('peers-learn')!.spec.arms;

describe('arm colours on a page in a class room', () => {
  it("a room's arms keep the room's colours whatever this page last ran", () => {
    // The presenter last ran peers-learn (its peer arm is blue), then made a room of overlap.
    const shown = shownArmColors(peersLearn, overlap);
    for (const arm of overlap) expect(shown[arm.id], arm.id).toBe(armColors(overlap)[arm.id]);
    // A seat that trains some arms only (its spec a subset of the room's): the same colour as on the projector.
    const seat = overlap.filter((a) => ['oracle', 'peer-T'].includes(a.id));
    expect(armColors(seat)['peer-T']).not.toBe(armColors(overlap)['peer-T']);
    expect(shownArmColors(seat, overlap)['peer-T']).toBe(armColors(overlap)['peer-T']);
  });
  it('alone, the spec being run colours its arms', () => {
    expect(shownArmColors(peersLearn, null)).toEqual(armColors(peersLearn));
  });
});
