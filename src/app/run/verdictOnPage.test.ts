import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { initialSeedsState } from '../store/seedsSlice';
import { pageVerdict, pageVerdictSentence, withVerdictLine } from './verdictOnPage';

const spec = getPreset('quick')!.spec;
const custom = { ...spec, task: { id: 'custom' as const, difficulty: 1, scratchpad: 'never' as const, definition: { kind: 'generator' as const, title: 'Max', template: '{a},{b} max=', vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 } }, answer: 'max(a, b)' } } };

describe("the page's verdict, as the exports carry it", () => {
  it('is none while a block trains, and none without one', () => {
    const idle = { seeds: initialSeedsState(), run: { spec } as never, draft: spec };
    expect(pageVerdict(idle)).toBeNull();
    const training = { ...idle, seeds: { ...initialSeedsState(), plan: { firstSeed: 1, count: 4, index: 1, runId: 3 } } };
    expect(pageVerdict(training)).toBeNull();
  });

  it("an own task's block stopped before RL cannot tell, and quotes what stopped it", () => {
    const stopped = { seeds: { ...initialSeedsState(), stopped: "Member A's warm start reached at best 19% against its target of 50%." }, run: { spec: custom } as never, draft: custom };
    const s = pageVerdictSentence(stopped)!;
    expect(s).toMatch(/^On "Max", the lab cannot tell whether self-reward collapses or a peer helps: no seed of the block ran to its end\. What would help: Member A's warm start reached at best 19%/);
  });

  it('puts the sentence first in a CSV as a comment line, and leaves a CSV without one as it is', () => {
    expect(withVerdictLine('step,arm\n1,self\n', 'On "Max", over 4 seeds: ...')).toBe('# On "Max", over 4 seeds: ...\nstep,arm\n1,self\n');
    expect(withVerdictLine('step,arm\n', null)).toBe('step,arm\n');
  });
});
