/** UI slice: theme, presenter mode, speed, chart smoothing, what the rollout inspector shows, and the shared-link notice. */
import { clampSmoothing } from '../charts/smoothing';
import type { LabSlice } from './types';

export type Theme = 'light' | 'dark';

/** Speed choices: RL steps per second, null = as fast as the device goes. */
export const SPEEDS: readonly (number | null)[] = [1, 2, 5, 10, null];

/** What the page says about the shared link it was opened with (plain text). */
export interface LinkNotice {
  kind: 'error' | 'warning';
  message: string;
}

export interface UiState {
  theme: Theme;
  /** Larger type and thicker lines for a projector. */
  presenter: boolean;
  stepsPerSecond: number | null;
  /** The step the inspector shows; null = follow the latest. */
  inspectorStep: number | null;
  inspectorArm: string | null;
  inspectorSample: number;
  linkNotice: LinkNotice | null;
  /** Chart smoothing weight (TensorBoard's debiased EMA), 0 = raw only, at most 0.99. */
  smoothing: number;
}

export interface UiSlice {
  ui: UiState;
  setTheme(theme: Theme): void;
  setPresenter(on: boolean): void;
  setStepsPerSecond(v: number | null): void;
  selectInspectorStep(step: number | null): void;
  selectInspectorArm(armId: string | null): void;
  selectInspectorSample(index: number): void;
  setLinkNotice(notice: LinkNotice | null): void;
  setSmoothing(weight: number): void;
}

export function initialUiState(): UiState {
  return { theme: 'light', presenter: false, stepsPerSecond: null, inspectorStep: null, inspectorArm: null, inspectorSample: 0, linkNotice: null, smoothing: 0 };
}

export const createUiSlice: LabSlice<UiSlice> = (set) => {
  const patch = (p: Partial<UiState>) => set((s) => ({ ui: { ...s.ui, ...p } }));
  return {
    ui: initialUiState(),
    setTheme: (theme) => patch({ theme }),
    setPresenter: (presenter) => patch({ presenter }),
    setStepsPerSecond: (stepsPerSecond) => patch({ stepsPerSecond }),
    selectInspectorStep: (inspectorStep) => patch({ inspectorStep }),
    selectInspectorArm: (inspectorArm) => patch({ inspectorArm, inspectorSample: 0 }),
    selectInspectorSample: (inspectorSample) => patch({ inspectorSample: Math.max(0, Math.floor(inspectorSample)) }),
    setLinkNotice: (linkNotice) => patch({ linkNotice }),
    setSmoothing: (weight) => patch({ smoothing: clampSmoothing(weight) }),
  };
};
