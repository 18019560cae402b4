/** The run bar's phase in words (RunStatus.tsx). */
import { describe, expect, it } from 'vitest';
import { initialRunState } from '../store/runSlice';
import { phaseText } from './RunStatus';

describe('phase text', () => {
  it('a member with no warm-start steps (stored, or none to train) is not "step 0 of 0"', () => {
    const run = { ...initialRunState(), phase: 'warmstart' as const, warm: { memberId: 'B', memberIndex: 1, memberCount: 2, step: 0, steps: 0, fraction: 1, etaMs: null } };
    expect(phaseText(run as never)).toBe('Warm start: member B (2 of 2), ready (stored, or none to train)');
  });
  it('a member training its warm start says its step', () => {
    const run = { ...initialRunState(), phase: 'warmstart' as const, warm: { memberId: 'A', memberIndex: 0, memberCount: 2, step: 40, steps: 300, fraction: 0.1, etaMs: null } };
    expect(phaseText(run as never)).toBe('Warm start: member A (1 of 2), step 40 of 300');
  });
});
