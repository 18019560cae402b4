import { REWARD_SCHEMES, type ArmSpec, type RewardSchemeId } from '../../core/experiment/spec';
import { useLab } from '../store';
import { removeArm, toggleArmMember, updateArm } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { NumberField } from './NumberField';

export const SCHEME_HELP: Record<RewardSchemeId, string> = {
  oracle: 'Reward 1 for the true answer. Uses the labels: the upper reference.',
  self: 'TTRL: reward 1 for agreeing with its own majority vote.',
  'self-soft': "The lab's soft variant of self-reward: reward = how many of its own samples gave this answer.",
  peer: "Co-RL: reward 1 for agreeing with the partner's majority vote. Exactly 2 members.",
  ring: "Co-RL ring: each member is rewarded by the next member's vote (A ← B ← C ← A: A follows B, B follows C, C follows A). 3 or more members.",
  cohort: 'Reward 1 for agreeing with the pooled vote of all other members.',
  teacher: 'Reward 1 for agreeing with a frozen copy of a chosen member (fixed-teacher control).',
  entropy: 'RENT: reward = minus the mean token entropy (confidence).',
  certainty: 'Intuitor: reward = self-certainty, KL(uniform || p).',
};

const VOTE_SCHEMES = new Set<string>(['self', 'self-soft', 'peer', 'ring', 'cohort', 'teacher']);

const TAU = {
  key: 'tau',
  label: 'τ (min. majority)',
  help: 'A prompt is used only if its winning answer got at least this share of the votes; 0 uses every prompt.',
  range: { min: 0, max: 1, integer: false },
  step: 0.05,
} as const;

export function ArmRow({ arm, index, color }: { arm: ArmSpec; index: number; color: string }) {
  const edit = useLab((s) => s.editDraft);
  const members = useLab((s) => s.draft.members);
  const set = (patch: Partial<ArmSpec>) => edit((d) => updateArm(d, index, patch));
  return (
    <fieldset className="arm" data-testid={`arm-${arm.id}`} style={{ borderLeftColor: color }}>
      <legend>
        <span className="dot" style={{ background: color }} aria-hidden="true" />
        <input className="id-input" aria-label={`Arm ${index + 1} id`} value={arm.id} maxLength={24} onChange={(e) => set({ id: e.target.value })} />
        <select aria-label={`Arm ${arm.id} reward`} title={SCHEME_HELP[arm.scheme]} value={arm.scheme} onChange={(e) => set({ scheme: e.target.value as RewardSchemeId })}>
          {REWARD_SCHEMES.map((s) => (
            <option key={s} value={s} title={SCHEME_HELP[s]}>
              {s}
            </option>
          ))}
        </select>
        <button type="button" className="icon" aria-label={`Remove arm ${arm.id}`} title={`Remove arm ${arm.id}`} data-testid={`remove-arm-${arm.id}`} onClick={() => edit((d) => removeArm(d, index))}>
          ✕
        </button>
      </legend>
      <p className="sub">{SCHEME_HELP[arm.scheme]}</p>
      <FieldProblems path={`arms.${index}.id`} />
      <div className="checks" role="group" aria-label={`Members of arm ${arm.id}`}>
        {members.map((m) => (
          <label key={m.id} className="check">
            <input type="checkbox" checked={arm.members.includes(m.id)} data-testid={`arm-${arm.id}-member-${m.id}`} onChange={(e) => edit((d) => toggleArmMember(d, index, m.id, e.target.checked))} /> {m.id}
          </label>
        ))}
      </div>
      <FieldProblems path={`arms.${index}.members`} exact={false} />
      {arm.scheme === 'teacher' && (
        <div className="field field-compact">
          <label htmlFor={`teacher-${index}`} title="The member whose frozen warm-started copy supplies the labels.">
            Teacher
          </label>
          <select id={`teacher-${index}`} value={arm.teacher ?? ''} onChange={(e) => set({ teacher: e.target.value || undefined })}>
            <option value="">(choose)</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
          <FieldProblems path={`arms.${index}.teacher`} />
        </div>
      )}
      {VOTE_SCHEMES.has(arm.scheme) && <NumberField knob={TAU} path={`arms.${index}.tau`} value={arm.tau} onChange={(v) => set({ tau: v })} compact />}
    </fieldset>
  );
}
