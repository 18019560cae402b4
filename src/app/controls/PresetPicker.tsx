import { useMemo } from 'react';
import { PRESETS } from '../../core/experiment/presets';
import { otherTask, type OtherTask } from './presetTask';
import { useLab } from '../store';
import { presetRuntime, runtimeText } from './presetRuntimes';

const OTHER_TASK_WORDS: Readonly<Record<OtherTask['kind'], string>> = {
  gallery: 'A question from the gallery, in place of the preset\'s task.',
  own: 'A task of your own, in place of the preset\'s task.',
  builtin: 'Another built-in task than the preset\'s.',
};

export function PresetPicker() {
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const choosePreset = useLab((s) => s.choosePreset);
  // ?hide=preset: no menu (the description stays).
  const hideMenu = useLab((s) => s.classroom.hidden.includes('preset'));
  const preset = PRESETS[presetId];
  const task = useLab((s) => s.draft.task);
  const other = useMemo(() => otherTask(task, presetId), [task, presetId]);
  return (
    <div className="preset">
      {!hideMenu && (
      <label className="field">
        <span>Preset</span>
        <select value={other ? '' : presetId} data-testid="preset-select" onChange={(e) => choosePreset(e.target.value)}>
          {/* Another task: the experiment is no preset's, and no preset's title stands for it. */}
          {other && (
            <option value="" disabled>
              Your question
            </option>
          )}
          {Object.values(PRESETS).map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      )}
      {preset && other && (
        // Another task: the preset's title, paragraph and measured numbers are about its own task.
        <div className="preset-about" data-testid="preset-about" data-task={other.kind}>
          <h3 data-testid="preset-about-title">Your question: {other.title}</h3>
          <p>
            {OTHER_TASK_WORDS[other.kind]} It runs with the preset's cohort and arms; nothing was measured on it beforehand, so the preset's numbers do not apply to it.
          </p>
          <button type="button" className="link" onClick={() => choosePreset(presetId)}>
            Restore the preset
          </button>
        </div>
      )}
      {preset && !other && (
        <div className="preset-about" data-testid="preset-about">
          <h3>
            {preset.title}
            {edited && <span className="badge">edited</span>}
          </h3>
          <p>{preset.explanation}</p>
          <p className="sub" data-testid="preset-runtime" title={presetRuntime(preset.id) ? `Measured on ${presetRuntime(preset.id)!.measuredOn}` : undefined}>Runtime: {runtimeText(preset.id, preset.runtime)}</p>
          {edited && (
            <button type="button" className="link" onClick={() => choosePreset(presetId)}>
              Restore the preset
            </button>
          )}
        </div>
      )}
    </div>
  );
}
