/**
 * Members that can see the task: a window's ceiling counted by hand on tiny sequences, the larger
 * of two digits (`{a},{b} max=`: a window of 6 sees neither digit's partner) widened to the
 * narrowest window that covers it, a prompt no window covers given a transformer, and tasks the
 * default members already see left exactly as they are.
 */
import { describe, expect, it } from 'vitest';
import type { TaskDefinition } from '../tasks/custom/index';
import { GALLERY } from '../tasks/custom/gallery';
import { PRESETS, getPreset } from './presets';
import { specWithTask } from './withTask';
import { FIT_LIMITS, fitMembers, refitAfterMiss, specSequences } from './fitMembers';
import { windowCeiling, windowReach, type TaskSequences } from './windowReach';
import type { ExperimentSpec } from './spec';
import { labeledSplit } from './cohort';
import { atChance, promptBlindChance } from './missCause';
import { warmStartInputs } from './resolve';

const digits = { min: 0, max: 9 };
const maxOfTwo: TaskDefinition = { kind: 'generator', title: 'Larger digit', template: '{a},{b} max=', vars: { a: digits, b: digits }, answer: 'max(a,b)' };
const lastOfProduct: TaskDefinition = { kind: 'generator', title: 'Last digit of a product', template: '{a}*{b}=', vars: { a: digits, b: digits }, answer: '(a*b)%10' };

const defaultExperiment = (): ExperimentSpec => getPreset('peers-learn')!.spec;
const withTask = (def: TaskDefinition): ExperimentSpec => {
  const r = specWithTask(defaultExperiment(), def);
  if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
  return r.spec;
};

describe("a window's ceiling", () => {
  // Two tokens of prompt (ids 1, then 5 or 6), one completion token: 7 after 5, 8 after 6; the
  // last two problems share a prompt start but not the token before the completion.
  const seqs: TaskSequences = { sequences: [[1, 5, 7], [1, 5, 7], [1, 6, 8], [1, 6, 9]], problems: 4, promptTokens: 2, longest: 3 };

  it('is the mean over problems of the product of next-token frequencies among problems whose window holds the same', () => {
    // Window 1 sees 5 or 6: after 5 always 7 (1, 1); after 6 half 8, half 9 (0.5, 0.5).
    expect(windowCeiling(seqs, 1)).toBe((1 + 1 + 0.5 + 0.5) / 4);
    // A wider window sees nothing more that tells 8 from 9.
    expect(windowCeiling(seqs, 3)).toBe(0.75);
  });

  it('a window of 0 tokens sees nothing: the ceiling is the completions\' own frequencies', () => {
    // 7 twice, 8 once, 9 once: (0.5 + 0.5 + 0.25 + 0.25) / 4.
    expect(windowCeiling(seqs, 0)).toBe(0.375);
  });
});

describe('fitting members to the task', () => {
  it('widens a window of 6 on `{a},{b} max=` to 9, the narrowest that sees both digits, and says why with the numbers', () => {
    const spec = withTask(maxOfTwo);
    expect(spec.members.map((m) => [m.family, m.window])).toEqual([
      ['mlp', 9],
      ['mlp', 9],
    ]);
    const unfitted = { ...spec, members: spec.members.map((m) => ({ ...m, window: 6 })) };
    const fit = fitMembers(unfitted);
    expect(fit.fits.map((f) => [f.memberId, f.from, f.to])).toEqual([
      ['A', { window: 6 }, { window: 9 }],
      ['B', { window: 6 }, { window: 9 }],
    ]);
    // Reading 6 (" max=" and '>'), no digit is in sight: the answers' own frequencies, sum of squares 0.133.
    expect(fit.reach.A).toMatchObject({ window: 6, promptChars: 8, problems: 100, covers: false });
    expect(fit.reach.A.ceiling).toBeCloseTo(0.133, 10);
    expect(fit.fits[0].why).toBe(
      'member A reads the last 6 characters, and the prompts have up to 8 (then the completion it writes): ' +
        'no model reading 6 can write more than 13% of the completions exactly (measured on 100 problems); reading 9 it can write 100%, so A reads 9',
    );
    // Windows 7 and 8 still miss the first digit (8 sees ",b max=>").
    const seqs = specSequences(unfitted);
    expect(windowReach(seqs, 8).covers).toBe(false);
    // Fitting a fitted spec changes nothing: a link of the fitted run reproduces it.
    const again = fitMembers(fit.spec);
    expect(again.fits).toEqual([]);
    expect(again.spec).toBe(fit.spec);
  });

  it('the window is written into the spec, and the editor is told why', () => {
    const r = specWithTask(defaultExperiment(), maxOfTwo);
    expect(r.ok && r.findings.filter((f) => /reads the last 6 characters/.test(f.message)).map((f) => f.severity)).toEqual(['note', 'note']);
  });

  it('makes a member a transformer where no window up to 16 sees what the answer depends on', () => {
    const far: TaskDefinition = { kind: 'generator', title: 'First digit', template: '{a}{b}:..............=', vars: { a: digits, b: digits }, answer: 'a' };
    const fit = fitMembers({ ...withTask(far), members: defaultExperiment().members });
    expect(fit.spec.members.map((m) => [m.family, m.dModel, m.layers, m.heads, m.warmStartSteps])).toEqual([
      ['transformer', 32, 2, 4, 800],
      ['transformer', 32, 2, 4, 800],
    ]);
    expect(fit.fits[0].why).toMatch(/^member A reads the last 6 characters, and the prompts have up to 18 .*; even the widest window \(16\) writes at most 10.0%, so A is a transformer \(width 32, 2 blocks\), which reads the whole sequence, warm-started for up to 800 steps$/);
    // Seeds and data stay the member's own.
    const [a] = fit.spec.members;
    const [a0] = defaultExperiment().members;
    expect([a.initSeed, a.dataSeed, a.sampleSeed, a.warmStartTarget, a.id]).toEqual([a0.initSeed, a0.dataSeed, a0.sampleSeed, a0.warmStartTarget, 'A']);
  });

  it('leaves members that see the task as they are: the last digit of a product, and every gallery task', () => {
    const product = withTask(lastOfProduct);
    expect(fitMembers(product).fits).toEqual([]);
    expect(product.members).toEqual(specWithTask(defaultExperiment(), lastOfProduct).ok && defaultExperiment().members.map((m) => ({ ...m, warmStartExamples: product.members[0].warmStartExamples })));
    for (const g of GALLERY) {
      const s = specWithTask({ ...defaultExperiment(), task: { ...defaultExperiment().task, scratchpad: g.scratchpad } }, g.definition);
      expect(s.ok && fitMembers(s.spec).fits, g.id).toEqual([]);
    }
  });

  it("every preset's MLP members see their task, but the length preset's bare answers, which are meant as guesses", () => {
    // Built-in tasks are never fitted (only a task of one's own is: withTask.ts), so the presets'
    // runs are unchanged whatever this says; it says the presets' windows were chosen to see.
    const length = fitMembers(PRESETS.length.spec);
    expect(length.fits.map((f) => f.to)).toEqual([{ window: 7 }, { window: 7 }]);
    for (const p of Object.values(PRESETS).filter((x) => x.id !== 'length')) {
      const r = fitMembers(p.spec);
      expect(r.fits, p.id).toEqual([]);
      expect(r.spec, p.id).toBe(p.spec);
    }
  });
});

describe("the presets' warm-start targets", () => {
  it('are checked on enough rows that chance could not reach them, so no preset member gets the thin-evidence note', () => {
    for (const p of Object.values(PRESETS)) {
      const x = warmStartInputs(p.spec);
      for (const m of p.spec.members.filter((m) => m.warmStartTarget > 0)) {
        const { train, validation } = labeledSplit(x.pool, m, x.root);
        const chance = promptBlindChance([...train, ...validation], p.spec.task.scratchpad);
        expect(atChance(m.warmStartTarget, chance, validation.length), `${p.id} ${m.id}`).toBe(false);
      }
    }
  });
});

describe("a data file's window", () => {
  it('sees the whole prompt and the > before the answer: a word and its length, 32 rows', () => {
    const words = 'cat dog house tree apple river mountain sun moon star book chair table window garden flower bird fish horse orange banana car train plane ship road city village ocean island forest desert'.split(' ');
    const rows = words.map((w) => ({ prompt: `${w}=`, answer: String(w.length) }));
    const def: TaskDefinition = { kind: 'data', title: 'Word length', rows };
    const spec = withTask(def);
    // "mountain=" has 9 characters; the answer follows '>' without working: a window of 10.
    expect(spec.members.map((m) => m.window)).toEqual([10, 10]);
    const fit = fitMembers({ ...spec, members: defaultExperiment().members });
    expect(fit.fits[0].why).toBe(
      'member A reads the last 6 characters, and the prompts have up to 9: 32 rows are too few to show which characters the answers depend on, ' +
        'so it must see the whole prompt; reading 10 it can write 100%, so A reads 10',
    );
  });
});

describe('after a measured miss', () => {
  const spec = () => withTask(lastOfProduct);

  it('a member that did not learn its own rows is made twice as wide, then given twice the steps, up to the limits', () => {
    const first = refitAfterMiss(spec(), { memberId: 'A', cause: 'underfit' })!;
    expect(first.fit).toEqual({
      memberId: 'A',
      from: { dModel: 64 },
      to: { dModel: 128 },
      why: 'member A missed its warm-start target: it did not learn even the rows it trained on, so the lab tries it with width 128 instead of 64',
    });
    expect(first.spec.members.map((m) => m.dModel)).toEqual([128, 64]);
    const second = refitAfterMiss(first.spec, { memberId: 'A', cause: 'underfit' })!;
    expect(second.fit.to).toEqual({ warmStartSteps: 400 });
    const third = refitAfterMiss(second.spec, { memberId: 'A', cause: 'underfit' })!;
    expect(third.fit.to).toEqual({ warmStartSteps: FIT_LIMITS.steps });
    expect(refitAfterMiss(third.spec, { memberId: 'A', cause: 'underfit' })).toBeNull();
  });

  it('a member that learnt part of the rule is given more steps first', () => {
    expect(refitAfterMiss(spec(), { memberId: 'B', cause: 'partial' })!.fit.to).toEqual({ warmStartSteps: 400 });
  });

  it('no member answers too few rows or answers that do not follow: none is picked', () => {
    expect(refitAfterMiss(spec(), { memberId: 'A', cause: 'few-rows' })).toBeNull();
    expect(refitAfterMiss(spec(), { memberId: 'A', cause: 'no-rule' })).toBeNull();
    expect(refitAfterMiss(spec(), { memberId: 'Z', cause: 'underfit' })).toBeNull();
  });

  it('a window that cannot see is fitted as before training (a link made before fitting)', () => {
    const s = withTask(maxOfTwo);
    const unfitted = { ...s, members: s.members.map((m) => ({ ...m, window: 6 })) };
    const r = refitAfterMiss(unfitted, { memberId: 'B', cause: 'window' })!;
    expect(r.spec.members.map((m) => m.window)).toEqual([6, 9]);
    expect(r.fit.to).toEqual({ window: 9 });
  });
});
