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
