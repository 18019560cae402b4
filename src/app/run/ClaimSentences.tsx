/**
 * Under the hero charts once a run is done: per claim of the preset, what this seed showed and
 * what 8 seeds measured (claimSentences.ts). Text only, computed from the run on screen. A change
 * inside the band one evaluation of the run's held-out set varies by reads level (changeRule.ts
 * evaluationBand). On a task of one's own a seed's line carries no mark at all: the verdict over
 * its block of seeds (VerdictPanel.tsx) is what the lab says about the question; one seed is an
 * example.
 */
import { useMemo } from 'react';
import { useLab } from '../store';
import { claimSentences } from './claimSentences';
import { noSeedResultsText } from '../controls/presetTask';

export function ClaimSentences() {
  const done = useLab((s) => s.run.phase === 'done');
  const summary = useLab((s) => s.run.summary);
  const seed = useLab((s) => s.run.spec?.seed ?? null);
  const heldOut = useLab((s) => s.run.spec?.data.heldOut ?? 100);
  const ownTask = useLab((s) => s.run.spec?.task.id === 'custom');
  const presetId = useLab((s) => (s.edited ? null : s.presetId));
  // A paired room's seat trains one member of the peer arm: its sentences are that member's alone.
  const member = useLab((s) => (s.room.role === 'student' ? (s.room.seat?.member ?? null) : null));
  // A run of another task is named by its task, not as "an edited experiment" (presetTask.ts).
  const runSpec = useLab((s) => s.run.spec);
  const basePreset = useLab((s) => s.presetId);
  const noSeedResults = useMemo(() => noSeedResultsText(runSpec, basePreset), [runSpec, basePreset]);
  const sentences = useMemo(() => (done && summary ? claimSentences(summary, presetId, heldOut) : []), [done, summary, presetId, heldOut]);
  if (sentences.length === 0) return null;
  return (
    <div className="claim-sentences" data-testid="claim-sentences">
      <h3>
        What this run showed{seed != null ? ` (seed ${seed})` : ''}
        {member != null ? `: your member ${member} of the peer arm` : ''}
      </h3>
      {member != null && (
        <p className="sub" data-testid="claim-sentences-pair">
          Your browser trained member {member} of the peer arm and your partner the other, so only the peer arm's claims apply here; the class's claims, one run per pair, are on the presenter's screen.
        </p>
      )}
      <ul>
        {sentences.map((c) => (
          <li key={c.id} data-testid={`claim-sentence-${c.id}`} data-held={c.held} data-marked={!ownTask}>
            {!ownTask && (
              <>
                <span className={c.held ? 'held' : 'not-held'} aria-hidden="true">
                  {c.held ? '✓' : '✗'}
                </span>{' '}
              </>
            )}
            This seed{ownTask ? ' (an example)' : ''}: {c.thisSeed} {c.overSeeds ?? (ownTask ? 'The verdict over seeds is above the charts.' : presetId ? '' : noSeedResults)}
          </li>
        ))}
      </ul>
    </div>
  );
}
