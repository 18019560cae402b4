/**
 * Above the scoreboard after "Run N seeds": in how many seeds each claim held (core/experiment/
 * claims.ts: the CLI's paired differences of held-out pass@1, arm means over members), and each
 * seed's difference, so a student sees the seeds disagree. Nothing when no seed has finished.
 * In a class room the same over its browsers, live: runs still training count as they are so far.
 */
import { type ReactNode, useMemo } from 'react';
import type { RunSummary } from '../../core/experiment/events';
import { useLab } from '../store';
import { bandResults, bandUnit } from '../store/roomSlice';
import { LEVEL_BAND, evaluationBand, heldOnPage } from './changeRule';
import { countClaimsOnPage, shownDifference } from './claimSentences';
import { fmtSigned } from './scoreboard';
import { isOverlapSpec } from '../panels/overlapPoints';
import { runsByLevel } from '../../room/levels';

/** Its children as they are, or folded under a summary line (compact). */
function Fold({ compact, summary, children }: { compact: boolean; summary: string; children: ReactNode }) {
  if (!compact) return <>{children}</>;
  return (
    <details className="seed-claims-fold" data-testid="seed-claims-fold">
      <summary>{summary}</summary>
      {children}
    </details>
  );
}

/**
 * `compact`: the projector view's (ProjectorView.tsx): the counts stay on the screen, the table of
 * each run's differences (one row per browser: thirty in a class) folds under them.
 */
export function SeedClaims({ compact = false }: { compact?: boolean }) {
  const results = useLab(bandResults);
  const unit = useLab(bandUnit);
  const plan = useLab((s) => (unit === 'seed' ? s.seeds.plan : null));
  const summaries = useMemo(() => results.map((r) => r.summary).filter((x): x is RunSummary => x != null), [results]);
  // The band one evaluation of the runs' held-out set varies by (changeRule.ts evaluationBand): a handful of held-out problems widens it.
  const band = evaluationBand(results[0]?.record.spec.data.heldOut ?? 100);
  const claims = useMemo(() => countClaimsOnPage(summaries, band), [summaries, band]);
  // A class of the overlap experiment's partner levels: its comparison is the overlap panel's.
  const partnerLevels = useLab((s) => isOverlapSpec(s.room.info?.spec ?? null));
  // An unpaired room of levels: each seat trains one partner level alone (src/room/levels.ts).
  const levelSeats = useLab((s) => s.room.info != null && !s.room.info.pairing && runsByLevel(s.room.info));
  if (results.length === 0) return null;
  const n = summaries.length;
  const seedsWord = (k: number) => `${k} ${unit}${k === 1 ? '' : 's'}`;
  const running = results.filter((r) => !r.finished).length;
  return (
    <section className="panel panel-wide seed-claims" aria-labelledby="seed-claims-title" data-testid="seed-claims" data-seeds={n} data-unit={unit} data-running={plan != null || running > 0}>
      <h2 id="seed-claims-title">
        Claims over {seedsWord(n)}
        {plan ? ` (${plan.count - results.length} more to run)` : ''}
        {running ? ` (so far: ${running} still training)` : ''}
      </h2>
      <p className="seed-claims-lead" hidden={compact}>
        {unit === 'pair'
          ? `Every pair of browsers in the class trains the peer arm, one member each, with the pair's own seed: each pair is one run of the arm. See how the pairs disagree.${running ? ' A run still training counts as it is so far.' : ''}`
          : unit === 'browser'
            ? `${levelSeats ? "Every browser in the class trains A with one partner, both models itself, with its own seed: each browser is one run of its partner's arm." : 'Every browser in the class trains the same experiment with its own seed: see how they disagree.'}${running ? ' A run still training counts as it is so far.' : ''}`
            : 'One seed is not evidence: see how the seeds disagree.'}
      </p>
      {claims.length === 0 ? (
        <p data-testid="seed-claims-none">
          {partnerLevels
            ? 'Each run here trains A with one partner: the panel "Does a more different partner teach more?" compares the partners.'
            : 'This experiment has none of the arms the claims compare (oracle, self, peer).'}
        </p>
      ) : (
        <>
          <ul className="seed-claims-list">
            {claims.map((c) => (
              <li key={c.id} data-testid={`seed-claim-${c.id}`} data-held={c.held} data-of={c.of} title={c.measure}>
                {c.text}: <strong>{c.held} of {seedsWord(c.of)}</strong>
              </li>
            ))}
          </ul>
          <Fold compact={compact} summary={`Each ${unit}'s differences`}>
          <div className="table-scroll">
            <table className="seed-claims-table" data-testid="seed-claims-table">
              <caption>
                Each {unit}'s held-out pass@1 (arm means over members): a change is end − start, so a fall is negative; ✓ where the claim held by at least {band}, what one evaluation of {band === LEVEL_BAND ? 'the held-out set' : 'so few held-out problems'} varies by.
              </caption>
              <thead>
                <tr>
                  <th scope="col">{unit === 'seed' ? 'seed' : `${unit} (seed)`}</th>
                  {claims.map((c) => (
                    <th scope="col" key={c.id} title={c.measure}>
                      {shownDifference(c.id, 0).head}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {summaries.map((r, i) => (
                  <tr key={`${r.seed}-${i}`} data-testid="seed-claims-row" data-seed={r.seed}>
                    <th scope="row">{r.seed}</th>
                    {claims.map((c) => (
                      <td key={c.id} className={`num ${heldOnPage(c.diffs[i], band) ? 'held' : 'not-held'}`} data-claim={c.id} data-diff={c.diffs[i]} data-held={heldOnPage(c.diffs[i], band)}>
                        {fmtSigned(shownDifference(c.id, c.diffs[i]).value)} {heldOnPage(c.diffs[i], band) ? '✓' : '✗'}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          </Fold>
        </>
      )}
      <p className="seed-claims-note" data-testid="seed-claims-tie" hidden={compact}>
        A tie (|difference| &lt; {band}, as the run's own sentences and the workshop card read it) counts as not held. Start: the warm-started models; end: the last held-out evaluation.
      </p>
    </section>
  );
}
