/**
 * UI slice: theme, presenter mode, speed, chart smoothing, what the rollout inspector shows, which
 * detail panels are unfolded, and the shared-link notice.
 */
import { clampSmoothing } from './smoothingWeight';
import type { LabSlice } from './types';

export type Theme = 'light' | 'dark';

/**
 * Smoothing on by default, at TensorBoard's usual weight: a student sees the trend
 * first, the raw line stays drawn faint under it, held-out evaluations are never smoothed.
 */
export const DEFAULT_SMOOTHING = 0.6;

/** The detail panels folded on a fresh page: a student does not need them first. */
export const FOLDED_BY_DEFAULT: readonly string[] = ['pseudo', 'disagreement', 'inspector', 'glossary'];

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
  /** Panels unfolded or folded by the user (panel id -> open); a panel not listed has its default. */
  panels: Record<string, boolean>;
  /** The members the lab picked on its own after measured misses since the last Start, and why (run/autoFit.ts). */
  fitNotes: string[];
}

/** Whether a detail panel is unfolded: the user's choice, else open unless folded by default. */
export function isPanelOpen(ui: Pick<UiState, 'panels'>, id: string): boolean {
  return ui.panels[id] ?? !FOLDED_BY_DEFAULT.includes(id);
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
  setPanelOpen(id: string, open: boolean): void;
  setFitNotes(notes: string[]): void;
}

/** The system's colour scheme where the browser says it ; light otherwise. */
export function systemTheme(): Theme {
  try {
    // Typed here, not from the DOM's globals: Node code (the class-view benchmark) compiles the store too.
    return (globalThis as { matchMedia?: (query: string) => { matches: boolean } }).matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}

export function initialUiState(): UiState {
  return { theme: systemTheme(), presenter: false, stepsPerSecond: null, inspectorStep: null, inspectorArm: null, inspectorSample: 0, linkNotice: null, smoothing: DEFAULT_SMOOTHING, panels: {}, fitNotes: [] };
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
    setPanelOpen: (id, open) => set((s) => ({ ui: { ...s.ui, panels: { ...s.ui.panels, [id]: open } } })),
    setFitNotes: (fitNotes) => patch({ fitNotes }),
  };
};
