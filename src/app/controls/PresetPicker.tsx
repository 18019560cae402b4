import { PRESETS } from '../../core/experiment/presets';
import { useLab } from '../store';
import { presetRuntime, runtimeText } from './presetRuntimes';

export function PresetPicker() {
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const choosePreset = useLab((s) => s.choosePreset);
  // ?hide=preset: no menu (the description stays).
  const hideMenu = useLab((s) => s.classroom.hidden.includes('preset'));
  const preset = PRESETS[presetId];
  return (
    <div className="preset">
      {!hideMenu && (
      <label className="field">
        <span>Preset</span>
        <select value={presetId} data-testid="preset-select" onChange={(e) => choosePreset(e.target.value)}>
          {Object.values(PRESETS).map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      )}
      {preset && (
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
