import { Fragment } from 'react';
import { GrpoSpecSchema } from '../../core/experiment/spec';
import { GRPO_KNOBS, rangeOf, type Knob } from '../lib/knobs';
import { useLab } from '../store';
import { updateGrpo } from '../store/specEdits';
import { NumberField } from './NumberField';

const SELECT_HELP = {
  advantageScale: 'How the advantage r − mean is scaled: by the group std (GRPO), the batch std, or not at all (Dr. GRPO).',
  lossNormalisation: 'How token losses are averaged: per completion (grpo), over all tokens (bnpo), or by the length cap (dr_grpo).',
};

/** n_vote, shown next to the group size (docs/METHOD.md, "Votes and rewards"). */
const VOTE_KNOB: Knob = {
  key: 'voteSize',
  label: 'Samples that vote (n_vote, 0 = G)',
  help: 'Completions sampled per prompt for the vote. The pseudo-label is the plurality of all of them; the first G are trained on. TTRL votes over 64 and trains on 32. 0 = G; otherwise at least G.',
  range: rangeOf(GrpoSpecSchema.shape.voteSize),
  step: 1,
};

export function GrpoControls() {
  const grpo = useLab((s) => s.draft.grpo);
  const edit = useLab((s) => s.editDraft);
  return (
    <div className="grpo">
      <div className="field-grid">
        {GRPO_KNOBS.map((k) => {
          const key = k.key as keyof typeof grpo;
          return (
            <Fragment key={k.key}>
              <NumberField knob={k} path={`grpo.${k.key}`} value={grpo[key] as number} onChange={(v) => edit((d) => updateGrpo(d, { [key]: v }))} compact />
              {k.key === 'groupSize' && (
                <NumberField knob={VOTE_KNOB} path="grpo.voteSize" value={grpo.voteSize ?? 0} onChange={(v) => edit((d) => updateGrpo(d, { voteSize: v }))} compact />
              )}
            </Fragment>
          );
        })}
        <div className="field field-compact">
          <label htmlFor="adv-scale" title={SELECT_HELP.advantageScale}>
            Advantage scale
          </label>
          <select id="adv-scale" title={SELECT_HELP.advantageScale} value={grpo.advantageScale} onChange={(e) => edit((d) => updateGrpo(d, { advantageScale: e.target.value as typeof grpo.advantageScale }))}>
            <option value="group">group</option>
            <option value="batch">batch</option>
            <option value="none">none (Dr. GRPO)</option>
          </select>
        </div>
        <div className="field field-compact">
          <label htmlFor="loss-norm" title={SELECT_HELP.lossNormalisation}>
            Loss normalisation
          </label>
          <select id="loss-norm" title={SELECT_HELP.lossNormalisation} value={grpo.lossNormalisation} onChange={(e) => edit((d) => updateGrpo(d, { lossNormalisation: e.target.value as typeof grpo.lossNormalisation }))}>
            <option value="grpo">grpo</option>
            <option value="bnpo">bnpo</option>
            <option value="dr_grpo">dr_grpo</option>
          </select>
        </div>
      </div>
    </div>
  );
}
