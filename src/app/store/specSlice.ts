/**
 * Spec slice: the draft experiment the Experiment panel edits, and which preset it came from.
 * Edits go through the pure functions in specEdits.ts; any edit detaches the draft from its preset.
 */
import { DEFAULT_PRESET, PRESETS, getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { LabSlice } from './types';

export interface SpecSlice {
  /** The preset the draft was loaded from; `edited` once the user changed anything. */
  presetId: string;
  edited: boolean;
  draft: ExperimentSpec;
  choosePreset(id: string): void;
  /** Load a whole spec (a shared link) on top of a preset; `edited` when it differs from it. */
  loadSpec(presetId: string, spec: ExperimentSpec, edited: boolean): void;
  /** Apply a pure edit, e.g. `editDraft((d) => addMember(d, 'gru'))`. */
  editDraft(edit: (draft: ExperimentSpec) => ExperimentSpec): void;
}

function presetSpec(id: string): ExperimentSpec {
  const p = getPreset(id) ?? PRESETS[DEFAULT_PRESET];
  // A deep copy: edits must never touch the preset table.
  return structuredClone(p.spec);
}

export function initialSpecState(presetId = DEFAULT_PRESET): Pick<SpecSlice, 'presetId' | 'edited' | 'draft'> {
  const id = getPreset(presetId) ? presetId : DEFAULT_PRESET;
  return { presetId: id, edited: false, draft: presetSpec(id) };
}

export const createSpecSlice: LabSlice<SpecSlice> = (set) => ({
  ...initialSpecState(),
  choosePreset: (id) => set(initialSpecState(id)),
  loadSpec: (presetId, spec, edited) => set(getPreset(presetId) ? { presetId, edited, draft: structuredClone(spec) } : {}),
  editDraft: (edit) =>
    set((s) => {
      const draft = edit(s.draft);
      return draft === s.draft ? {} : { draft, edited: true };
    }),
});
