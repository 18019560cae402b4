/**
 * After a run, one sentence per claim of the preset: what this seed showed, computed from the run
 * (core/experiment/claims.ts, the differences `npm run science` reads), next to what 8 seeds
 * measured (measuredClaims.ts). The default seed's peer arm can end level with self
 * under a title that says peer reward holds; the page says so instead of leaving it to the reader.
 */
import { CLAIM_TIE, SEED_CLAIMS, type SeedClaimCount, type SeedClaimId, armPassAt1, countSeedClaims, seedDifference } from '../../core/experiment/claims';
import type { RunSummary } from '../../core/experiment/events';
import { LEVEL_BAND, directionOf, evaluationBand, heldOnPage } from './changeRule';
import { MEASURED_CLAIMS, MEASURED_SEEDS, type MeasuredClaim } from './measuredClaims';

export interface ClaimSentence {
  id: SeedClaimId;
  /** "self's held-out pass@1 fell by 0.12: 0.46 to 0.34 (−0.12)." */
  thisSeed: string;
  /** The claim held in this seed: its difference is at least the band (LEVEL_BAND at 100 held-out problems), the page's one rule (changeRule.ts). */
  held: boolean;
  /** "Over 8 seeds: it held in 8 (mean +0.17): shown." (null: not measured for this experiment) */
  overSeeds: string | null;
}

/** Two numbers as compared: 2 decimals, or 3 where 2 would print a real difference as equal. */
function pair(a: number, b: number): [string, string] {
  const d = a.toFixed(2) === b.toFixed(2) && Math.abs(a - b) >= CLAIM_TIE ? 3 : 2;
  return [a.toFixed(d), b.toFixed(d)];
}
const signed = (v: number) => (Math.abs(v) < 0.005 ? '0.00' : `${v > 0 ? '+' : '−'}${Math.abs(v).toFixed(2)}`);

/** "above", "level with" or "below", by the page's one rule (changeRule.ts), as the card reads it. */
function relation(diff: number, band: number): string {
  const d = directionOf(diff, band);
  return d === 'level' ? 'level with' : d === 'up' ? 'above' : 'below';
}

/** Said after a level ending, so a visible 0.444 against 0.437 is not read as a win. */
const levelNote = (diff: number, band: number) => (directionOf(diff, band) === 'level' ? `, within the ${band} one evaluation varies by` : '');

/**
 * A change of held-out pass@1 in words, one convention everywhere on the page:
 * end − start, so a fall is negative and is said "fell by"; under LEVEL_BAND either way it "stayed
 * level", as the workshop card reads "hold" (the page's one rule, changeRule.ts).
 */
export function changeWords(start: number, end: number, band = LEVEL_BAND): string {
  const c = end - start;
  const [s0, s1] = pair(start, end);
  const by =
    directionOf(c, band) === 'level'
      ? `stayed level, within the ${band} one evaluation varies by`
      : `${c < 0 ? 'fell' : 'rose'} by ${Math.abs(c).toFixed(2)}`;
  return `${by}: ${s0} to ${s1} (${signed(c)})`;
}

function thisSeed(id: SeedClaimId, run: RunSummary, band: number): string {
  const p = (arm: string) => armPassAt1(run, arm) ?? { start: NaN, end: NaN };
  switch (id) {
    case 'a':
      // The claim is "end below start" (claims.ts), not the scoreboard's collapse rule: say that.
      return `self's held-out pass@1 ${changeWords(p('self').start, p('self').end, band)}.`;
    case 'b': {
      const [peer, self] = pair(p('peer').end, p('self').end);
      const d = p('peer').end - p('self').end;
      return `peer ended ${relation(d, band)} self (${peer} against ${self})${levelNote(d, band)}.`;
    }
    case 'learns':
      return `peer's held-out pass@1 ${changeWords(p('peer').start, p('peer').end, band)}.`;
    case 'oracle': {
      const [oracle, peer] = pair(p('oracle').end, p('peer').end);
      const d = p('oracle').end - p('peer').end;
      return `oracle ended ${relation(d, band)} peer (${oracle} against ${peer})${levelNote(d, band)}.`;
    }
  }
}

/**
 * A claim's per-run number as the page prints it, in the one convention: claim a's difference is
 * "self start − self end" (positive when self fell), printed as self's change, end − start, so a
 * fall reads negative as on the scoreboard and the workshop card; the others as they are.
 */
export function shownDifference(id: SeedClaimId, diff: number): { head: string; value: number } {
  if (id === 'a') return { head: "self's change (end − start)", value: -diff };
  if (id === 'learns') return { head: "peer's change (end − start)", value: diff };
  const def = SEED_CLAIMS.find((c) => c.id === id)!;
  return { head: def.measure, value: diff };
}

/** What 8 seeds measured of a claim, in the same convention (claim a: self's mean change, negative for a fall). */
function overSeedsWords(id: SeedClaimId, text: string, m: MeasuredClaim): string {
  const ties = m.ties ? ` (${m.ties} tied)` : '';
  if (id === 'a') return `self's held-out pass@1 fell in ${m.wins}${ties}, mean change ${signed(-m.mean)}`;
  if (id === 'learns') return `peer's held-out pass@1 rose in ${m.wins}${ties}, mean change ${signed(m.mean)}`;
  return `${text} in ${m.wins}${ties}, mean ${signed(m.mean)}`;
}

/** The verdict, and where reading the claim with the preset's others (Holm) changes it, both. */
function verdictWords(m: MeasuredClaim): string {
  const alone = m.verdict.toLowerCase();
  return m.holm === m.verdict ? alone : `${alone} on its own, ${m.holm.toLowerCase()} read with the preset's other claims (Holm)`;
}

/** "109-116": a run of consecutive seeds as a range. */
const seedList = (seeds: readonly number[]) =>
  seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1) ? `${seeds[0]}-${seeds.at(-1)}` : seeds.join(', ');

/**
 * The part of a run that was measured: each arm's members with a base evaluation and at least one
 * step, arms with none left out. A whole run keeps everything; a member part (a paired room's
 * seat: its summary lists every arm of the room's spec, but only its own member of the peer arm
 * trained) keeps that one member of that one arm, so no claim reads an arm it never trained (which
 * would read "self went from NaN to NaN").
 */
export function measuredPart(run: RunSummary): RunSummary {
  const based = new Set(run.base.filter((b) => Number.isFinite(b.passAt1)).map((b) => b.memberId));
  const arms = run.arms
    .map((a) => ({ ...a, members: a.members.filter((m) => based.has(m.id) && m.history.length > 0) }))
    .filter((a) => a.members.length > 0);
  return { ...run, arms };
}

/**
 * The sentences for the claims whose arms the run measured; `presetId` null: an edited experiment
 * (no 8-seed figures apply). `heldOut`: the run's held-out problems, which set the band a
 * difference must pass to read as a change (changeRule.ts evaluationBand).
 */
export function claimSentences(whole: RunSummary, presetId: string | null, heldOut = 100): ClaimSentence[] {
  const run = measuredPart(whole);
  const band = evaluationBand(heldOut);
  const measured = presetId ? MEASURED_CLAIMS[presetId] : undefined;
  const over = measured?.block === 'confirmation' ? `${MEASURED_SEEDS} seeds no one tuned on (${seedList(measured.seeds)})` : `${MEASURED_SEEDS} seeds`;
  return SEED_CLAIMS.filter((c) => c.arms.every((a) => run.arms.some((x) => x.id === a))).map((c) => {
    const diff = seedDifference(run, c.id);
    const m = measured?.claims[c.id];
    const overSeeds = m ? `Over ${over}, ${overSeedsWords(c.id, c.text, m)}: ${verdictWords(m)}.` : null;
    return { id: c.id, thisSeed: thisSeed(c.id, run, band), held: heldOnPage(diff, band), overSeeds };
  });
}

/**
 * "Claims over N seeds / browsers" on the page: the core's per-run differences, each counted as
 * held by the page's one rule (changeRule.ts), so a run's row in that table shows the ✓ its own
 * sentence shows (the core's count, tie CLAIM_TIE, is `npm run science`'s wins).
 */
export function countClaimsOnPage(runs: readonly RunSummary[], band = LEVEL_BAND): SeedClaimCount[] {
  return countSeedClaims(runs).map((c) => ({ ...c, held: c.diffs.filter((d) => heldOnPage(d, band)).length }));
}
