import { describe, expect, it } from 'vitest';
import { errorHint } from './protocol';
import { missMessage } from '../core/experiment/warmStartCohort';

describe('errorHint for a warm-start miss (docs/WARMSTARTS.md, "The guard")', () => {
  it('says what to change instead of "Start again"', () => {
    const message = missMessage({ memberId: 'B', target: 0.4, steps: 800, best: 0.12, initSeeds: [7], onMiss: 'stop' });
    for (const backend of ['wasm', 'webgpu', null]) {
      const hint = errorHint(message, backend);
      expect(hint).toMatch(/deterministic/);
      expect(hint).toMatch(/more warm-start steps, a lower warm-start target or another init seed/);
      expect(hint).not.toMatch(/Press Reset/);
    }
  });
});

describe('errorHint for a run too large for its backend', () => {
  it('points at the message, which says what to reduce', () => {
    const message = 'This run needs about 3.1 GiB on wasm (weights 12 MiB, activations 3.1 GiB), more than the 2.0 GiB it can count on: lower prompts per step or group size, or use narrower or fewer members or arms.';
    expect(errorHint(message, 'wasm')).toMatch(/smaller as the message says/);
    expect(errorHint('One tensor of this run would take about 300 MiB, more than webgpu allows in one buffer (128 MiB): lower prompts per step or group size.', 'webgpu')).toMatch(/smaller/);
  });
});

describe('errorHint for a checkpoint that cannot be restored', () => {
  it('says the saved checkpoint is the problem, not the experiment settings', () => {
    for (const message of [
      'The saved run cannot be continued: it holds invalid values: arms.0.members.0.weights.0.values: value 3 is not finite (NaN)',
      'The checkpoint cannot be restored: it was made by a newer Cohort Lab (checkpoint format v2; this page reads up to v1). Reload the page to get the latest version.',
    ]) {
      const hint = errorHint(message, 'wasm');
      expect(hint).toMatch(/saved checkpoint of this run cannot be used/);
      expect(hint).not.toMatch(/experiment settings were rejected/);
    }
  });
});
