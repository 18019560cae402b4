import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { presetFor } from '../run/importRun';
import { seatPresetFor } from './seatPreset';

describe('a seat of a class room: its seed is not an edit', () => {
  const quick = getPreset('quick')!.spec;

  it('the room\'s preset with a seat\'s seed is that preset, unedited (presetFor called it an edit)', () => {
    const seat = { ...quick, seed: quick.seed + 3 };
    // What the page did before: every seat but one was "an edited experiment".
    expect(presetFor(seat, 'quick', 'peers-learn')).toEqual({ presetId: 'quick', edited: true });
    expect(seatPresetFor(seat, 'quick', 'peers-learn')).toEqual({ presetId: 'quick', edited: false });
  });

  it('a room made after only the seed was changed (no preset named) is still found as its preset', () => {
    expect(seatPresetFor({ ...quick, seed: 40 }, null, 'peers-learn')).toEqual({ presetId: 'quick', edited: false });
  });

  it('anything else that differs is an edit', () => {
    const edited = { ...quick, seed: 41, steps: quick.steps + 1 };
    expect(seatPresetFor(edited, 'quick', 'peers-learn')).toEqual({ presetId: 'quick', edited: true });
  });
});
