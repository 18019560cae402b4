import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { PRESET_RUNTIMES, presetRuntime, runtimeText } from './presetRuntimes';

describe('preset runtimes', () => {
  it('lists only presets that exist, each with a range and a machine class', () => {
    for (const [id, r] of Object.entries(PRESET_RUNTIMES)) {
      expect(PRESETS[id], id).toBeDefined();
      expect(r.range).toMatch(/\d/);
      expect(r.machine).toMatch(/core/);
      expect(r.measuredOn).toMatch(/core/);
    }
  });
  it('says the machine in words a student needs: no browser version or backend name on the card', () => {
    for (const [id, r] of Object.entries(PRESET_RUNTIMES)) {
      expect(r.machine, id).not.toMatch(/Chromium|\bwasm\b|webgl|webgpu|\bGPU\b|\d{3}/);
      expect(runtimeText(id, '')).not.toMatch(/Chromium|\bwasm\b/);
    }
  });
  it('the default preset reads as measured on a fresh machine, not the quiet-machine CLI figure', () => {
    expect(runtimeText('collapse', PRESETS.collapse.runtime)).toBe('13 s on an ordinary computer with 2 processor cores and no graphics card, from its link to the last step');
  });
  it('one source: a preset timed from its link here has no browser figure of its own left in presets', () => {
    for (const id of Object.keys(PRESET_RUNTIMES)) {
      expect(PRESETS[id].runtime, id).not.toMatch(/from its link|whole run|In the browser/);
    }
  });
  it('a preset without a measurement keeps its own text', () => {
    expect(presetRuntime('ring')).toBeNull();
    expect(runtimeText('ring', PRESETS.ring.runtime)).toBe(PRESETS.ring.runtime);
  });
});
