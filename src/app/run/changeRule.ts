/**
 * The page's one rule for when a change counts as a rise, a fall or a hold (one
 * rule, because the `length` step's card once said "hold (within 0.03) ... Not what was predicted" while the sentence
 * beside it showed a green "✓ ... it ended below its start" for the same −0.01, because the
 * sentence's ✓ used the science's tie of 0.005 and the card a band of 0.03).
 *
 * The rule: a change (or a difference of two arms' held-out pass@1) of less than LEVEL_BAND either
 * way is a hold; at least LEVEL_BAND is a rise or a fall. Why 0.03: one held-out evaluation of 100
 * problems has a standard error of about 0.03 on its own (docs/RESULTS.md, "Why not count
 * seeds"; docs/METHOD.md: evaluation noise of sd 0.03), so one run's smaller change is inside what
 * evaluating the same model twice could show. The workshop card, the after-run sentences' ✓/✗ and
 * the scoreboard's up/level/down all read a run through this rule.
 *
 * Not this rule: counting seeds (`npm run science`'s wins, ties below CLAIM_TIE = 0.005 in
 * core/experiment/claims.ts) for "Claims over N seeds" and the 8-seed figures quoted from
 * docs/RESULTS.md: those count as the science counted, and say so.
 */
export type Direction = 'up' | 'level' | 'down';

/** A change smaller than this either way counts as level (see above). */
export const LEVEL_BAND = 0.03;

/**
 * The band for a run whose held-out set has `heldOut` problems: LEVEL_BAND at 100 problems (where
 * it was measured), wider as 1/sqrt(heldOut) below (an evaluation's noise grows so: 25 problems
 * 0.06, 6 problems 0.12), never narrower than LEVEL_BAND. A task of one's own may hold out a
 * handful of problems, where a fall of 0.07 is one answer less.
 */
export function evaluationBand(heldOut: number): number {
  if (!(heldOut > 0) || heldOut >= 100) return LEVEL_BAND;
  return Math.round(LEVEL_BAND * Math.sqrt(100 / heldOut) * 100) / 100;
}

/** Which way a value reads: up (≥ band), level (|value| < band) or down (≤ −band). */
export function directionOf(value: number, band = LEVEL_BAND): Direction {
  if (value >= band) return 'up';
  if (value <= -band) return 'down';
  return 'level';
}

/**
 * Whether one run's claim difference says the claim held on this page: at least LEVEL_BAND in the
 * claim's direction (the difference is signed so that positive supports the claim); NaN does not.
 */
export function heldOnPage(diff: number, band = LEVEL_BAND): boolean {
  return Number.isFinite(diff) && directionOf(diff, band) === 'up';
}
