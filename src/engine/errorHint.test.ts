import { describe, expect, it } from 'vitest';
import { errorHint } from './protocol';
import { missMessage, outOfReach, WarmStartMissError, type WarmStartMiss } from '../core/experiment/warmStartCohort';
import { PRESETS } from '../core/experiment/presets';
import { errorText } from './backend-common';

describe('errorHint for a warm-start miss (docs/WARMSTARTS.md, "The guard")', () => {
  it('says what to change instead of "Start again"', () => {
    const miss: WarmStartMiss = { memberId: 'B', target: 0.4, steps: 800, best: 0.12, initSeeds: [7], onMiss: 'stop' };
    // The researcher's words (CLI) and the student's (the page: errorText gives the plain one).
    for (const message of [missMessage(miss), outOfReach(PRESETS.quick.spec, miss).message]) {
      for (const backend of ['wasm', 'webgpu', null]) {
        const hint = errorHint(message, backend);
        expect(hint).toMatch(/deterministic/);
        expect(hint).toMatch(/Go on from the best it reached/);
        expect(hint).not.toMatch(/Press Reset|onMiss/);
      }
    }
  });
});

describe('errorText of a warm-start miss', () => {
  it("is the student's sentence for every task: no spec field, the best reached and what would help", () => {
    const miss: WarmStartMiss = { memberId: 'A', target: 0.5, steps: 200, best: 0.0033, initSeeds: [3], onMiss: 'stop' };
    const spec = { ...PRESETS['peers-learn'].spec, task: { id: 'addition' as const, difficulty: 2, scratchpad: 'always' as const } };
    const error = new WarmStartMissError(miss, undefined, outOfReach(spec, miss).message);
    expect(error.message).toMatch(/set warmStart\.onMiss to 'retry'$/);
    expect(errorText(error)).toBe(
      "Member A's warm start reached at best 0.3% against its target of 50% in 200 steps, so this task looks out of its reach for now. " +
        'What would help: a bigger model (width 128 instead of 64); a lower difficulty (1 instead of 2); more warm-start steps (400 instead of 200). You can also go on from the best it reached.',
    );
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
