/**
 * The warm-started cohort at a glance: each member's size and its base held-out pass@1 and maj@G,
 * the starting point every arm shares, and how many warm-start steps it took (a warm-start target
 * stops some members early). Empty until the base evaluation arrives.
 */
import { fmtPercent } from '../lib/format';
import { useLab } from '../store';

export function CohortSummary() {
  const members = useLab((s) => s.run.members);
  const base = useLab((s) => s.run.base);
  if (members.length === 0) return null;
  return (
    <section className="cohort-summary" data-testid="cohort-summary" aria-label="Warm-started cohort">
      <span className="cohort-summary-title">Warm-started cohort (held-out, before RL):</span>
      <table>
        <thead>
          <tr>
            <th scope="col">member</th>
            <th scope="col">model</th>
            <th scope="col" title="Supervised warm-start steps taken (a warm-start target can stop early)">warm start</th>
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
                <td className="num" data-testid={`base-steps-${m.id}`}>{m.warmStartSteps === undefined ? '-' : `${m.warmStartSteps} steps`}</td>
                <td className="num" data-testid={`base-pass-${m.id}`}>{b ? fmtPercent(b.passAt1) : '-'}</td>
                <td className="num" data-testid={`base-maj-${m.id}`}>{b ? fmtPercent(b.majAtG) : '-'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
