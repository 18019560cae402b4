import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { PRESET_RUNTIMES, presetRuntime, runtimeText } from './presetRuntimes';

describe('preset runtimes', () => {
  it('lists only presets that exist, each with a range and a machine class', () => {
    for (const [id, r] of Object.entries(PRESET_RUNTIMES)) {
      expect(PRESETS[id], id).toBeDefined();
      expect(r.range).toMatch(/\d/);
      expect(r.machine).toMatch(/core/);
    }
  });
  it('the default preset reads as measured on a fresh machine, not the quiet-machine CLI figure', () => {
    expect(runtimeText('collapse', PRESETS.collapse.runtime)).toBe('13-15 s on a fresh 2-core machine without a GPU (Chromium 156, wasm), from its link to the last step');
  });
  it('a preset without a measurement keeps its own text', () => {
    expect(presetRuntime('ring')).toBeNull();
    expect(runtimeText('ring', PRESETS.ring.runtime)).toBe(PRESETS.ring.runtime);
  });
});
