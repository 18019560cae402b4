import { FAMILIES, MAX_MEMBERS } from '../../core/experiment/spec';
import { useLab } from '../store';
import { addMember } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { MemberRow } from './MemberRow';

export function CohortEditor() {
  const members = useLab((s) => s.draft.members);
  const edit = useLab((s) => s.editDraft);
  // The spec's own limit (the overlap preset holds 8), not a copy of it.
  const full = members.length >= MAX_MEMBERS;
  return (
    <div className="cohort" data-testid="cohort-editor">
      <p className="sub">
        Each member is warm-started once; every arm trains its own copy. The line style next to a member is its style in every chart.
        A new member joins every arm that can take it.
      </p>
      {members.map((m, i) => (
        <MemberRow key={i} member={m} index={i} canRemove={members.length > 1} />
      ))}
      <FieldProblems path="members" />
      <div className="button-row">
        {FAMILIES.map((f) => (
          <button key={f} type="button" disabled={full} title={full ? `At most ${MAX_MEMBERS} members` : `Add a ${f} member`} data-testid={`add-member-${f}`} onClick={() => edit((d) => addMember(d, f))}>
            + {f}
          </button>
        ))}
      </div>
    </div>
  );
}
