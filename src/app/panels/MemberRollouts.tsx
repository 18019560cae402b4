import type { RolloutSample } from '../../core/experiment/events';
import { fmtCompletion, fmtFixed } from '../lib/format';
import { voteTally } from '../lib/votes';

type Member = RolloutSample['members'][number];

/** One member's G completions for the inspected prompt. Everything is rendered as text. */
export function MemberRollouts({ member, truth }: { member: Member; truth: string }) {
  const { tally, malformed } = voteTally(member.answers);
  const votesFor = new Map(tally.map((t) => [t.answer, t.votes]));
  return (
    <div className="member-rollout" data-testid={`rollouts-${member.memberId}`}>
      <h3>
        {member.memberId}{' '}
        <span className="sub">
          own vote <code>{member.plurality ?? '—'}</code>, pseudo-label <code data-testid="pseudo-label">{member.pseudoLabel ?? 'none'}</code>
          {member.pseudoLabel != null && (member.pseudoLabel === truth ? ' ✓ right' : ' ✗ wrong')}
        </span>
      </h3>
      <p className="votes" data-testid="votes">
        Votes:{' '}
        {tally.length === 0 ? 'none' : tally.map((t) => `${t.answer} ×${t.votes}`).join(', ')}
        {malformed > 0 ? `; no answer ×${malformed}` : ''}
      </p>
      <div className="table-scroll">
        <table className="rollouts">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">completion</th>
              <th scope="col">answer</th>
              <th scope="col">votes</th>
              <th scope="col">reward</th>
              <th scope="col">truth</th>
            </tr>
          </thead>
          <tbody>
            {member.completions.map((c, i) => {
              const answer = member.answers[i];
              const correct = (member.oracleRewards[i] ?? 0) > 0;
              return (
                <tr key={i} data-testid="completion-row" className={correct ? 'correct' : 'wrong'}>
                  <td>{i + 1}</td>
                  <td>
                    <code>{fmtCompletion(c)}</code>
                  </td>
                  <td>
                    <code>{answer ?? '—'}</code>
                  </td>
                  <td>{answer != null ? votesFor.get(answer) : 0}</td>
                  <td data-testid="reward">{fmtFixed(member.rewards[i], 2)}</td>
                  <td aria-label={correct ? 'correct' : 'wrong'}>{correct ? '✓' : '✗'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
