/**
 * The lab store: one zustand store built from the spec, run and UI slices.
 *
 *   const steps = useLab((s) => s.run.stepsReceived);
 *   useLab.getState().editDraft((d) => addMember(d, 'gru'));
 *   resetLab();   // between tests
 */
import { create } from 'zustand';
import { createClassroomSlice, initialClassroomState } from './classroomSlice';
import { createCompareSlice } from './compareSlice';
import { createImportSlice } from './importSlice';
import { createRoomSlice, initialRoomState } from './roomSlice';
import { createRunSlice, initialEngineState, initialRunState } from './runSlice';
import { createSeedsSlice, initialSeedsState } from './seedsSlice';
import { createSpecSlice, initialSpecState } from './specSlice';
import type { LabState } from './types';
import { createUiSlice, initialUiState } from './uiSlice';

export type { LabState } from './types';

export const useLab = create<LabState>()((...a) => ({
  ...createSpecSlice(...a),
  ...createRunSlice(...a),
  ...createUiSlice(...a),
  ...createCompareSlice(...a),
  ...createImportSlice(...a),
  ...createClassroomSlice(...a),
  ...createSeedsSlice(...a),
  ...createRoomSlice(...a),
}));

// The store on window, for the console and for e2e tests that set state no button sets yet
// (e.g. a compare layer): `window.cohortLab.useLab.getState()`.
if (typeof window !== 'undefined') (window as unknown as { cohortLab?: { useLab: typeof useLab } }).cohortLab = { useLab };

/** Back to a fresh page: default preset, no run, default UI. Actions are kept. */
export function resetLab(presetId?: string): void {
  useLab.setState({ ...initialSpecState(presetId), engine: initialEngineState(), run: initialRunState(), ui: initialUiState(), compare: [], importNotice: null, imported: null, classroom: initialClassroomState(), seeds: initialSeedsState(), room: initialRoomState() });
}
