import { REWARD_SCHEMES, type RewardSchemeId } from '../../core/experiment/spec';
import { armColors } from '../lib/colors';
import { useLab } from '../store';
import { addArm } from '../store/specEdits';
import { ArmRow, SCHEME_HELP } from './ArmRow';
import { FieldProblems } from './FieldProblems';

export function ArmsEditor() {
  const arms = useLab((s) => s.draft.arms);
  const edit = useLab((s) => s.editDraft);
  const colors = armColors(arms);
  const full = arms.length >= 8;
  return (
    <div className="arms" data-testid="arms-editor">
      <p className="sub">Arms run side by side from the same warm-started weights; each has one colour in every chart.</p>
      {arms.map((a, i) => (
        <ArmRow key={i} arm={a} index={i} color={colors[a.id]} />
      ))}
      <FieldProblems path="arms" />
      <label className="field field-inline">
        Add arm
        <select
          value=""
          disabled={full}
          data-testid="add-arm"
          title={full ? 'At most 8 arms' : 'Add an arm with this reward scheme'}
          onChange={(e) => {
            if (e.target.value) edit((d) => addArm(d, e.target.value as RewardSchemeId));
          }}
        >
          <option value="">(reward scheme)</option>
          {REWARD_SCHEMES.map((s) => (
            <option key={s} value={s} title={SCHEME_HELP[s]}>
              {s}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
