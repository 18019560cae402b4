import { describe, expect, it } from 'vitest';
import { GrpoSpecSchema } from '../../core/experiment/spec';
import { GRPO_KNOBS, MEMBER_KNOBS, knobTitle, rangeOf } from './knobs';

describe('knob ranges come from the spec schema', () => {
  it('reads plain and defaulted numbers', () => {
    expect(rangeOf(GrpoSpecSchema.shape.groupSize)).toEqual({ min: 2, max: 32, integer: true });
    expect(rangeOf(GrpoSpecSchema.shape.clipEps)).toEqual({ min: 0, max: 1, integer: false });
    expect(MEMBER_KNOBS.heads.range).toEqual({ min: 1, max: 8, integer: true });
  });
  it('has a label and help for every GRPO knob', () => {
    for (const k of GRPO_KNOBS) {
      expect(k.label.length).toBeGreaterThan(0);
      expect(Number.isFinite(k.range.min) && Number.isFinite(k.range.max)).toBe(true);
    }
    expect(knobTitle(GRPO_KNOBS[1])).toMatch(/Allowed: 2 to 32 \(whole numbers\)\.$/);
  });
});
