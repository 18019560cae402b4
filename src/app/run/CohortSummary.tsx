/**
 * The warm-started cohort at a glance: each member's size and its base held-out pass@1 and maj@G,
 * the starting point every arm shares, how many warm-start steps it took (a warm-start target
 * stops some members early) and where its weights came from (trained in this run, shipped with
 * the site, or cached from an earlier run; warmStartCache.ts). Empty until the base evaluation arrives.
 */
import type { MemberInfo } from '../../core/experiment/events';
import { fmtPercent } from '../lib/format';
import { useLab } from '../store';

/** Where a member's warm start came from, in words ('' for results without the field). */
export function warmStartSourceText(m: MemberInfo, runBackend: string | null): string {
  const made = m.warmStartBackend ?? '?';
  const elsewhere = runBackend && m.warmStartBackend && m.warmStartBackend !== runBackend ? `; they define this ${runBackend} run` : '';
  switch (m.warmStartSource) {
    case 'shipped':
      return `shipped (made on ${made}${elsewhere})`;
    case 'cached':
      return `cached (made on ${made}${elsewhere})`;
    case 'trained':
      return 'trained in this run';
    default:
      return '';
  }
}

/**
 * The warm start's steps, and for a member retried with another init seed (warmStart.onMiss
 * 'retry'; docs/WARMSTARTS.md, "The guard") which seed it reached its target with.
 */
export function warmStartStepsText(m: MemberInfo): string {
  if (m.warmStartSteps === undefined) return '-';
  const n = m.warmStartRetries ?? 0;
  const retried = n > 0 ? ` (init seed ${m.warmStartInitSeed ?? '?'}, after ${n} ${n === 1 ? 'retry' : 'retries'})` : '';
  return `${m.warmStartSteps} steps${retried}`;
}

export function CohortSummary() {
  const members = useLab((s) => s.run.members);
  const base = useLab((s) => s.run.base);
  const runBackend = useLab((s) => s.engine.report?.backend ?? null);
  if (members.length === 0) return null;
  const notes = members.filter((m) => m.warmStartNote);
  return (
    <section className="cohort-summary" data-testid="cohort-summary" aria-label="Warm-started cohort">
      <span className="cohort-summary-title">Warm-started cohort (held-out, before RL):</span>
      <table>
        <thead>
          <tr>
            <th scope="col">member</th>
            <th scope="col">model</th>
            <th scope="col" title="Supervised warm-start steps taken (a warm-start target can stop early; a member that misses its target stops the run before RL, or is retried with the next init seed)">warm start</th>
            <th scope="col" title="Where the warm-started weights came from: trained in this run, shipped with the site (made by npm run warmstarts) or cached by an earlier run of the same warm start">weights</th>
            <th scope="col" title="Fraction of single samples that are correct">pass@1</th>
            <th scope="col" title="Fraction of prompts whose majority vote over G samples is correct">maj@G</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const b = base.find((x) => x.memberId === m.id);
            return (
              <tr key={m.id} data-testid={`base-${m.id}`}>
                <th scope="row">{m.id}</th>
                <td>{m.label}</td>
                <td className="num" data-testid={`base-steps-${m.id}`}>{warmStartStepsText(m)}</td>
                <td data-testid={`base-source-${m.id}`}>{warmStartSourceText(m, runBackend) || '-'}</td>
                <td className="num" data-testid={`base-pass-${m.id}`}>{b ? fmtPercent(b.passAt1) : '-'}</td>
                <td className="num" data-testid={`base-maj-${m.id}`}>{b ? fmtPercent(b.majAtG) : '-'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {notes.map((m) => (
        <p key={m.id} className="cohort-summary-note" data-testid={`base-note-${m.id}`}>
          Member {m.id}: {m.warmStartNote}
        </p>
      ))}
    </section>
  );
}
