import { describe, expect, it } from 'vitest';
import { warmStartStepsText } from './CohortSummary';

describe('warmStartStepsText', () => {
  const m = { id: 'A', family: 'mlp', params: 1, label: 'mlp' };
  it('says the steps, and which init seed a retried member reached its target with', () => {
    expect(warmStartStepsText(m)).toBe('-');
    expect(warmStartStepsText({ ...m, warmStartSteps: 59 })).toBe('59 steps');
    expect(warmStartStepsText({ ...m, warmStartSteps: 59, warmStartInitSeed: 7, warmStartRetries: 0 })).toBe('59 steps');
    expect(warmStartStepsText({ ...m, warmStartSteps: 59, warmStartInitSeed: 8, warmStartRetries: 1 })).toBe('59 steps (init seed 8, after 1 retry)');
    expect(warmStartStepsText({ ...m, warmStartSteps: 80, warmStartInitSeed: 9, warmStartRetries: 2 })).toBe('80 steps (init seed 9, after 2 retries)');
  });
});
