import { FAMILIES, type MemberSpec } from '../../core/experiment/spec';
import { MEMBER_DASHES, dashArray } from '../lib/colors';
import { MEMBER_KNOBS } from '../lib/knobs';
import { useLab } from '../store';
import { removeMember, updateMember } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { NumberField } from './NumberField';

const FAMILY_HELP = 'transformer: a tiny causal transformer; gru: a recurrent network; mlp: a multilayer perceptron over a window of previous tokens.';

/** The line style this member has in every chart, as a small legend swatch. */
export function DashSwatch({ index }: { index: number }) {
  return (
    <svg width="28" height="10" aria-hidden="true" className="swatch">
      <line x1="1" y1="5" x2="27" y2="5" stroke="currentColor" strokeWidth="2" strokeDasharray={dashArray(MEMBER_DASHES[index % MEMBER_DASHES.length])} />
    </svg>
  );
}

export function MemberRow({ member, index, canRemove }: { member: MemberSpec; index: number; canRemove: boolean }) {
  const edit = useLab((s) => s.editDraft);
  const set = (patch: Partial<MemberSpec>) => edit((d) => updateMember(d, index, patch));
  const num = (k: keyof typeof MEMBER_KNOBS) => (
    <NumberField key={k} knob={MEMBER_KNOBS[k]} path={`members.${index}.${k}`} value={member[k]} onChange={(v) => set({ [k]: v })} compact />
  );
  return (
    <fieldset className="member" data-testid={`member-${index}`}>
      <legend>
        <DashSwatch index={index} /> Member{' '}
        <input
          className="id-input"
          aria-label={`Member ${index + 1} id`}
          value={member.id}
          maxLength={24}
          onChange={(e) => set({ id: e.target.value })}
        />
        <select aria-label={`Member ${member.id} family`} title={FAMILY_HELP} value={member.family} data-testid={`member-${index}-family`} onChange={(e) => set({ family: e.target.value as MemberSpec['family'] })}>
          {FAMILIES.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
        <button type="button" className="icon" aria-label={`Remove member ${member.id}`} title={canRemove ? `Remove member ${member.id} (and from every arm)` : 'A cohort needs at least one member'} disabled={!canRemove} data-testid={`remove-member-${member.id}`} onClick={() => edit((d) => removeMember(d, index))}>
          ✕
        </button>
      </legend>
      <FieldProblems path={`members.${index}.id`} />
      <div className="field-row">
        {num('dModel')}
        {num('layers')}
        {member.family === 'transformer' && num('heads')}
        {member.family === 'mlp' && num('window')}
      </div>
      <div className="field-row">
        {num('warmStartSteps')}
        {num('warmStartExamples')}
        {num('warmStartTarget')}
      </div>
      <details className="more">
        <summary>Seeds</summary>
        <div className="field-row">
          {num('initSeed')}
          {num('dataSeed')}
          {num('sampleSeed')}
        </div>
      </details>
    </fieldset>
  );
}
