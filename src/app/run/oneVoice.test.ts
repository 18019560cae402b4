/**
 * One voice: for every workshop step whose question is an arm's change of
 * held-out pass@1, the same run is read by the workshop card (readRun), the hero's after-run
 * sentences (claimSentences), the scoreboard (scoreRows) and the claims table's number
 * (shownDifference), and they must agree: the same signed number, a fall negative everywhere and
 * said "fell by", and where the card reads "hold (within 0.03)" the sentence says it stayed level
 * and shows no ✓, and the scoreboard does not colour it as a rise or a fall: one rule
 * (changeRule.ts; the page once showed "✓ ... it ended below its start" beside the card's "hold").
 * The run is real page state: a recorded run of the step's preset replayed.
 */
import { describe, expect, it } from 'vitest';
import { type SeedClaimId, seedDifference } from '../../core/experiment/claims';
import { getPreset } from '../../core/experiment/presets';
import { armMetrics, stepEvent } from '../store/fixtures';
import { emptyRecord, replayRecord } from '../store/record';
import { WORKSHOP, readRun, signed } from '../workshop/sequence';
import { claimSentences, countClaimsOnPage, shownDifference } from './claimSentences';
import { changeDirection, fmtSigned, scoreRows } from './scoreboard';

const START = 0.44;

/** A finished run of `presetId` on page state: every member starts at START; `arm`'s members end at START + change, the others level. */
function runOf(presetId: string, arm: string, change: number) {
  const spec = getPreset(presetId)!.spec;
  const record = emptyRecord(spec, 'wasm');
  record.events.push({
    type: 'base',
    members: spec.members.map((m) => ({ id: m.id, family: m.family, params: 10, label: m.id })),
    base: spec.members.map((m) => ({ memberId: m.id, passAt1: START, majAtG: 0.6 })),
    baseKappa: [],
  });
  const arms = spec.arms.map((a) =>
    armMetrics(a.id, a.scheme, Object.fromEntries(a.members.map((id) => [id, { evalPassAt1: a.id === arm ? START + change : START, reward: 0.7 }]))),
  );
  record.events.push(stepEvent(spec.steps, arms, { steps: spec.steps }));
  return { spec, state: replayRecord(record, 1) };
}

const CLAIM_OF: Record<string, SeedClaimId> = { self: 'a', peer: 'learns' };
const steps = WORKSHOP.filter((s) => s.quantity.kind === 'change' && !s.quantity.member && CLAIM_OF[s.quantity.arm]);

describe('the card, the sentences, the scoreboard and the claims table say one thing', () => {
  it('covers every workshop step that asks for an arm\'s change', () => {
    expect(steps.map((s) => s.presetId).length).toBeGreaterThanOrEqual(3);
  });

  for (const step of steps) {
    const arm = (step.quantity as { arm: string }).arm;
    const claim = CLAIM_OF[arm];
    // −0.015 and +0.015 lie between the science's tie (0.005) and the page's band (0.03): the
    // card reads them "hold", so no ✓ may say the claim held (the page once showed a green ✓ beside "hold").
    for (const change of [-0.12, -0.015, -0.01, 0.002, 0.015, 0.05]) {
      it(`${step.presetId}: ${arm} changes by ${change}`, () => {
        const { spec, state } = runOf(step.presetId, arm, change);
        const card = readRun(step.quantity, state.summary);
        if (!card.ok) throw new Error(card.why);
        const sentence = claimSentences(state.summary!, step.presetId).find((c) => c.id === claim)!;
        const row = scoreRows(spec.arms, state.series, state.base, state.summary).find((r) => r.armId === arm)!;
        const table = shownDifference(claim, seedDifference(state.summary!, claim));

        // One number, one sign: a fall is negative on the card, in the sentence, on the scoreboard and in the table.
        const n = signed(card.value);
        expect(card.detail).toContain(`(${n})`);
        expect(sentence.thisSeed).toContain(`(${n})`);
        expect(fmtSigned(row.change)).toBe(n);
        expect(fmtSigned(table.value)).toBe(n);
        if (change < 0) expect(n.startsWith('−')).toBe(true);

        // One reading: the card's answer and the sentence's words.
        const words = sentence.thisSeed;
        if (card.direction === 'down') expect(words).toMatch(/ fell by \d/);
        if (card.direction === 'up') expect(words).toMatch(/ rose by \d/);
        if (card.direction === 'level') expect(words).toMatch(/stayed level, within the 0\.03 one evaluation varies by/);
        if (card.direction !== 'level') expect(words).not.toMatch(/stayed level|within the 0\.03/);
        // One rule for rise / hold / fall: the sentence's ✓ holds exactly where the card reads the
        // claim's direction, and the scoreboard colours the change the way the card reads it.
        const claimDirection = claim === 'a' ? 'down' : 'up';
        expect(sentence.held, `✓ beside the card's "${card.direction}"`).toBe(card.direction === claimDirection);
        expect(changeDirection(row.change)).toBe(card.direction);
        // "Claims over N" counts this run's claim as its sentence's ✓ says.
        expect(countClaimsOnPage([state.summary!]).find((c) => c.id === claim)!.held).toBe(sentence.held ? 1 : 0);
        // The 8-seed figure beside it has the card's convention too (a fall: a negative mean change).
        if (claim === 'a' && sentence.overSeeds) expect(sentence.overSeeds).toMatch(/mean change [−+]?\d/);
      });
    }
  }
});
