import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { problemsExactly } from '../store/specEdits';
import { validationOf } from './validation';

describe('the n_vote control: its problem is shown next to it (path grpo.voteSize)', () => {
  const draft = (grpo: object) => {
    const spec = structuredClone(PRESETS.quick.spec);
    return { ...spec, grpo: { ...spec.grpo, groupSize: 8, ...grpo } };
  };

  it('fewer voters than G', () => {
    const v = validationOf(draft({ voteSize: 4 }));
    expect(v.ok).toBe(false);
    expect(problemsExactly(v.problems, 'grpo.voteSize').map((p) => p.message)).toEqual([
      'samples that vote (voteSize 4) must be 0 (= the group size) or at least the group size G = 8: the G trained samples are among the votes',
    ]);
  });

  it('also while another field is malformed (zod then skips its cross-field rules)', () => {
    const v = validationOf(draft({ voteSize: 4, temperature: Number.NaN }));
    expect(problemsExactly(v.problems, 'grpo.voteSize')).toHaveLength(1);
    expect(problemsExactly(v.problems, 'grpo.temperature')).toHaveLength(1);
  });

  it('0, G and 2G are fine', () => {
    for (const voteSize of [0, 8, 16]) expect(validationOf(draft({ voteSize })).ok, `voteSize ${voteSize}`).toBe(true);
  });
});
