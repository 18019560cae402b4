import { describe, expect, it } from 'vitest';
import { holmVerdicts, paired } from '../metrics/paired';
import type { MemberHistoryEntry, RunSummary } from './events';
import { getPreset } from './presets';
import type { ExperimentSpec } from './spec';
import { friendSentence, heldOutWidth, heldOutWords, questionVerdict } from './verdict';

/** A run of seed `seed`: every member starts at `start[arm]` and ends at `end[arm]` (two members, A and B). */
function run(seed: number, start: Record<string, number>, end: Record<string, number>): RunSummary {
  const arms = Object.keys(end);
  return {
    seed,
    // One base per member: the arms share warm-started members, so the start is shared too.
    base: [
      { memberId: 'A', passAt1: start.all, majAtG: 0 },
      { memberId: 'B', passAt1: start.all, majAtG: 0 },
    ],
    baseKappa: [],
    medianStepMs: 1,
    backend: 'cpu',
    arms: arms.map((id) => ({
      id,
      scheme: id as RunSummary['arms'][number]['scheme'],
      pairs: [],
      ensemble: [],
      members: ['A', 'B'].map((mid) => ({ id: mid, family: 'mlp', params: 1, collapseStep: null, history: [{ step: 10, evalPassAt1: end[id] } as MemberHistoryEntry] })),
    })),
  };
}

const spec: ExperimentSpec = getPreset('peers-learn')!.spec;

describe('the verdict on a question over seeds', () => {
  const learnt = [0.3, 0.35, 0.28, 0.4].map((gain, i) => run(i + 1, { all: 0.5 }, { oracle: 0.5 + gain, self: 0.3 - i * 0.01, peer: 0.6 + i * 0.01 }));

  it("reads each part by the lab's rule: the paired interval over seeds and Holm over the block's claims", () => {
    const v = questionVerdict(spec, learnt);
    expect(v.seeds).toEqual([1, 2, 3, 4]);
    expect(v.parts.map((p) => p.id)).toEqual(['truth', 'self', 'peer', 'peerOverSelf']);
    const truth = paired([0.3, 0.35, 0.28, 0.4]);
    expect(v.parts[0].stats.mean).toBeCloseTo(truth.mean, 12);
    expect(v.parts[0].stats.lo).toBeCloseTo(truth.lo, 12);
    // The Holm verdicts are those of the same four paired differences read as one family.
    expect(v.parts.map((p) => p.verdict)).toEqual(holmVerdicts(v.parts.map((p) => p.stats)).map((h) => h.verdict));
    expect(v.canTell).toBe(true);
    expect(v.why).toBeNull();
    expect(v.parts.find((p) => p.id === 'self')!.verdict).toBe('contradicted');
    const s = friendSentence(v);
    expect(s).toMatch(/^On "digitsum", over 4 seeds \(seeds 1-4\): with self-reward held-out accuracy fell \(−0\.2\d \[/);
    expect(s).toMatch(/with a peer's vote it rose/);
    expect(s).toMatch(/and the oracle, rewarded with the true answers, rose \(\+0\.33 \[/);
  });

  it('cannot tell where the oracle did not learn, and says nothing of self or peer', () => {
    // Self "falls" by 0.07 in every seed: without an oracle that learnt, that is no claim.
    const flat = [0.01, -0.02, 0.02, -0.01].map((d, i) => run(i + 1, { all: 0.07 }, { oracle: 0.07 + d, self: 0.0, peer: 0.07 }));
    const v = questionVerdict(spec, flat);
    expect(v.canTell).toBe(false);
    expect(v.why).toMatch(/the oracle arm, rewarded with the true answers, did not learn it: its held-out pass@1 went from 0\.07 to 0\.07 \(change \+0\.00 \[−0\.\d\d, \+0\.\d\d\]: no gain beyond its noise\)$/);
    const s = friendSentence(v);
    expect(s).toMatch(/the lab cannot tell whether self-reward collapses or a peer helps/);
    expect(s).not.toMatch(/self-reward held-out accuracy fell|peer's vote it/);
    expect(s).toMatch(/What would help: members that learn the task in their warm start, more RL steps than 120, or more seeds than 4\./);
  });

  it("reads the oracle's fall as a fall, and says where Holm and the claim alone differ", () => {
    // The oracle fell in every seed, by a little: a fall on its own, not beyond Holm's bar here.
    const fell = [0.05, 0.06, 0.08, 0.04].map((d, i) => run(i + 1, { all: 0.41 }, { oracle: 0.41 - d, self: 0.3, peer: 0.4 + i * 0.05 }));
    const v = questionVerdict(spec, fell);
    const truth = v.parts.find((p) => p.id === 'truth')!;
    expect(truth.stats.verdict).toBe('contradicted');
    expect(v.why).toMatch(truth.verdict === 'contradicted' ? /: a fall\)$/ : /: a fall alone, not with Holm\)$/);
  });

  it('says so where a part alone clears 0 but not with Holm', () => {
    // Self falls a little in every seed: its own interval lies below 0, Holm's bar over four claims is not passed.
    const runs = [0.05, 0.09, 0.03, 0.1].map((d, i) => run(i + 1, { all: 0.4 }, { oracle: 0.6 + i * 0.01, self: 0.4 - d, peer: 0.4 + (i % 2 ? 0.05 : -0.05) }));
    const v = questionVerdict(spec, runs);
    const self = v.parts.find((p) => p.id === 'self')!;
    expect([self.stats.verdict, self.verdict]).toEqual(['contradicted', 'not shown']);
    expect(friendSentence(v)).toMatch(/with self-reward held-out accuracy showed no change beyond its noise, though alone it fell, not with Holm \(−0\.07 \[−0\.1\d, −0\.0\d\]\);/);
    expect(friendSentence(v)).toMatch(/and the oracle, rewarded with the true answers, rose \(\+0\.21 \[/);
  });

  it('quotes the measured causes it is given before anything else', () => {
    const flat = [0.01, -0.01].map((d, i) => run(i + 1, { all: 0.1 }, { oracle: 0.1 + d, self: 0.1, peer: 0.1 }));
    const v = questionVerdict(spec, flat, ['the window of 6 characters is shorter than the prompt of 8']);
    expect(v.help).toEqual(['the window of 6 characters is shorter than the prompt of 8']);
    // A block whose first seed stopped before RL (a warm start's miss) says so, with the miss.
    const none = questionVerdict(spec, [], ['Member A reached at best 19% against its target of 50%.']);
    expect(friendSentence(none)).toBe(
      'On "digitsum", the lab cannot tell whether self-reward collapses or a peer helps: no seed of the block ran to its end. What would help: Member A reached at best 19% against its target of 50%.',
    );
  });

  it('one seed, or an experiment without an oracle arm, gives no verdict', () => {
    expect(questionVerdict(spec, learnt.slice(0, 1)).why).toMatch(/one seed is an example, not evidence/);
    const noOracle = [1, 2, 3].map((seed) => run(seed, { all: 0.5 }, { self: 0.2, peer: 0.7 }));
    const v = questionVerdict(spec, noOracle);
    expect(v.canTell).toBe(false);
    expect(v.why).toMatch(/no oracle arm/);
    expect(v.parts.map((p) => p.id)).toEqual(['self', 'peer', 'peerOverSelf']);
  });

  it('says how wide a small held-out set is and how many rows would do', () => {
    const csv: ExperimentSpec = {
      ...spec,
      task: { id: 'custom', difficulty: 1, scratchpad: 'never', definition: { kind: 'data', title: 'Word length', rows: [] } } as unknown as ExperimentSpec['task'],
      data: { labeledPool: 19, rlPool: 7, heldOut: 6 },
    };
    const w = heldOutWidth(csv)!;
    // 1.96 * sqrt(0.25 / 6) = 0.40: the ±40 points the task check warns of.
    expect(w).toEqual({ problems: 6, points: 40, needed: 540, rows: true, available: false });
    expect(heldOutWidth(spec)).toBeNull();
    // A generator with problems to spare: only the experiment's held-out size is small, and the sentence says so.
    const product: ExperimentSpec = {
      ...spec,
      task: { id: 'custom', difficulty: 1, scratchpad: 'never', definition: { kind: 'generator', title: 'Product', template: '{a}*{b}=', vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 99 } }, answer: '(a*b)%10' } } as unknown as ExperimentSpec['task'],
      data: { labeledPool: 566, rlPool: 270, heldOut: 64 },
    };
    expect(heldOutWords(heldOutWidth(product)!)).toBe(
      'only 64 held-out problems: one evaluation of them is ±12 points wide (95%); the task has enough problems for 100 held-out problems (±10 points): set the held-out size to 100 (Data and warm start)',
    );
    // One with too few: wider ranges.
    const small = { ...product, task: { ...product.task, definition: { ...(product.task.definition as object), vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 } } } } } as unknown as ExperimentSpec;
    expect(heldOutWords(heldOutWidth({ ...small, data: { labeledPool: 50, rlPool: 30, heldOut: 20 } })!)).toMatch(/100 held-out problems \(±10 points\) need about 500 distinct problems: wider ranges make more$/);
    const v = questionVerdict(csv, learnt);
    expect(v.question).toBe('Word length');
    expect(friendSentence(v)).toMatch(/Held-out problems were few: only 6 held-out problems: one evaluation of them is ±40 points wide \(95%\); 100 held-out problems \(±10 points\) need about 540 rows\.$/);
  });
});
