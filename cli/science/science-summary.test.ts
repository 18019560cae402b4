import { describe, expect, it } from 'vitest';
import type { ClaimResult } from './science-claims';
import { paired } from './science-paired';
import { headline, summaryTable, type Family } from './science-summary';

const claim = (id: string, diffs: number[]): ClaimResult => {
  const stats = paired(diffs);
  return { id, title: `claim ${id}: in words`, measure: 'x − y', stats, verdict: stats.verdict, lines: [] };
};
const seeds = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const up = [0.1, 0.12, 0.09, 0.11, 0.1, 0.13, 0.08, 0.1];
const noise = [0.05, -0.04, 0.02, -0.03, 0.01, -0.02, 0.04, -0.05];

describe('the summary of both blocks', () => {
  it('gives a headline only from all eight confirmation seeds, and then their Holm verdict', () => {
    expect(headline(undefined)).toBe('not confirmed (confirmation seeds not run)');
    expect(headline({ h: { pAdjusted: 0.001, verdict: 'shown' }, seeds: seeds(101, 5) })).toBe('not confirmed (5 of 8 confirmation seeds run)');
    expect(headline({ h: { pAdjusted: 0.001, verdict: 'shown' }, seeds: seeds(101, 8) })).toBe('**SHOWN**');
    expect(headline({ h: { pAdjusted: 0.2, verdict: 'not shown' }, seeds: seeds(101, 8) })).toBe('**NOT SHOWN**');
  });

  it('puts each claim\'s tuning and confirmation verdicts side by side: shown on tuning seeds is not a headline', () => {
    const tuning: Family[] = [{ preset: 'collapse', seeds: seeds(1, 8), results: [claim('a', up), claim('b', up)] }];
    const confirmation: Family[] = [{ preset: 'collapse', seeds: seeds(101, 8), results: [claim('a', up), claim('b', noise)] }];
    const rows = summaryTable([
      { id: 'collapse+diversity', tuning, confirmation },
      { id: 'ring', tuning: null, confirmation: null },
    ]).split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[2]).toBe('| (a) claim a | collapse | +0.10 [+0.09, +0.12] SHOWN; Holm SHOWN (seeds 1-8) | +0.10 [+0.09, +0.12] SHOWN; Holm SHOWN (seeds 101-108) | **SHOWN** |');
    // claim b on the confirmation seeds: mean −0.0025 (a tie prints +0.00), sd 0.038, half-width 2.365 x 0.0133 = 0.03.
    expect(rows[3]).toBe('| (b) claim b | collapse | +0.10 [+0.09, +0.12] SHOWN; Holm SHOWN (seeds 1-8) | +0.00 [−0.03, +0.03] NOT SHOWN; Holm NOT SHOWN (seeds 101-108) | **NOT SHOWN** |');
  });
});
