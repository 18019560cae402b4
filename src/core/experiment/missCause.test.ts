/**
 * A warm-start miss read from its measurements: each cause from numbers a reader can check, the
 * order they are tested in, and chance as the most common completion's share.
 */
import { describe, expect, it } from 'vitest';
import { atChance, missCause, promptBlindChance, type MissMeasurements } from './missCause';

const measured = (patch: Partial<MissMeasurements>): MissMeasurements => ({
  memberId: 'A',
  target: 0.5,
  steps: 200,
  width: 64,
  heldOut: 0.2,
  fit: 0.9,
  trainRows: 540,
  heldOutRows: 60,
  chance: 0.19,
  ...patch,
});

describe('the cause of a warm-start miss', () => {
  it('a window whose ceiling is below the target: the window, with the numbers and the window that would see', () => {
    const reach = { window: 6, ceiling: 0.133, full: 1, covers: false, promptChars: 8, problems: 100 };
    const c = missCause(measured({ reach, cover: 9, fit: 0.1 }));
    expect(c.id).toBe('window');
    expect(c.why).toBe(
      'member A reads the last 6 characters, and the prompts have up to 8 (then the completion it writes): no model reading 6 can write more than 13% of the completions exactly (measured on 100 problems), below its target of 50%',
    );
    expect(c.help).toEqual(['a window of 9 characters, which sees what the answer depends on']);
    expect(missCause(measured({ reach, cover: null })).help).toEqual(['a transformer member, which reads the whole prompt']);
    // A window that does not see everything but whose ceiling is above the target is not the cause.
    expect(missCause(measured({ reach: { ...reach, ceiling: 0.6 }, fit: 0.1 })).id).toBe('underfit');
  });

  it('not learning even the rows it trained on: underfit, with a wider model and more steps', () => {
    const c = missCause(measured({ fit: 0.3 }));
    expect(c).toEqual({
      id: 'underfit',
      why: 'member A did not learn even the 540 rows it trained on: it writes 30% of their completions exactly after 200 steps',
      help: ['a bigger model (width 128 instead of 64)', 'more warm-start steps (400 instead of 200)'],
    });
    expect(missCause(measured({ fit: 0.3, width: 256 })).help).toEqual(['more warm-start steps (400 instead of 200)']);
  });

  it('its rows learnt but chance on rows it did not see: too few rows below 500, else answers that do not follow', () => {
    // A 32-row file: 16 rows to train on, 1 to check on.
    const few = missCause(measured({ trainRows: 16, heldOutRows: 1, fit: 0.95, heldOut: 0, chance: 0.25 }));
    expect(few.id).toBe('few-rows');
    expect(few.why).toBe(
      'member A learnt the 16 rows it trained on (95%) but writes under 0.1% of the 1 row it did not see, no better than chance ' +
        '(always writing the most common completion scores 25%): 16 rows are too few for a rule to show, so it memorised them',
    );
    expect(few.help).toEqual(['more rows (hundreds: the task check warns below 500)']);
    // A generator's rows come from its ranges: `{a}*{b}=` over digits makes 100.
    expect(missCause(measured({ trainRows: 45, heldOutRows: 5, heldOut: 0.18, chance: 0.26, generatorProblems: 100 })).help).toEqual([
      'more problems to learn from (the generator makes 100: wider ranges make more; the task check warns below 500)',
    ]);
    // Random answers over 2,000 rows: it fits them, and held-out sits at chance.
    const random = missCause(measured({ trainRows: 1800, heldOutRows: 200, fit: 0.8, heldOut: 0.11, chance: 0.12 }));
    expect(random.id).toBe('no-rule');
    expect(random.why).toMatch(/the answers do not follow from the prompts in any way it finds \(random answers look like this\)$/);
  });

  it('better than chance on unseen rows but below the target: partial', () => {
    const c = missCause(measured({ heldOut: 0.4, chance: 0.19, heldOutRows: 60 }));
    expect(c.id).toBe('partial');
    expect(c.why).toBe('member A learnt the 540 rows it trained on (90%) but writes 40% of the 60 rows it did not see: better than chance (always writing the most common completion scores 19%) but below its target');
  });

  it('chance is the most common completion\'s share, and its band is binomial at 95%, never under one row', () => {
    const p = (answer: string) => ({ prompt: `${answer}?`, answer, scratchpad: '' });
    expect(promptBlindChance([p('1'), p('1'), p('2'), p('3')], 'never')).toBe(0.5);
    // 0.19 on 60 rows: 1.96 * sqrt(0.19 * 0.81 / 60) = 0.099.
    expect(atChance(0.28, 0.19, 60)).toBe(true);
    expect(atChance(0.3, 0.19, 60)).toBe(false);
    // On one row, any value is chance.
    expect(atChance(1, 0, 1)).toBe(true);
  });
});
