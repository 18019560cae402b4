/**
 * Classroom slice: the controls a classroom link hides (?hide=), its warnings, and workshop mode
 * (?workshop=1&step=N: the step, the audience's prediction, whether the measured result is shown).
 * The URL side is src/share/classroom.ts and src/app/workshop/startClassroom.ts; the sequence is
 * src/app/workshop/sequence.ts. Stopping a run is the caller's job (workshop/actions.ts): the
 * store does not talk to the worker.
 */
import type { HideName } from '../../share/classroom';
import { type Direction, WORKSHOP } from '../workshop/sequence';
import { roomStartReason } from './roomSlice';
import type { LabSlice, LabState } from './types';

export interface WorkshopState {
  /** 1-based, within 1..WORKSHOP.length. */
  step: number;
  /** The audience's answer, committed before Start; null = not yet. */
  prediction: Direction | null;
  /** The measured result (talking point) is on screen. */
  revealed: boolean;
  /** The presenter flag before workshop mode turned it on, restored on leaving. */
  presenterBefore: boolean;
}

export interface ClassroomState {
  hidden: HideName[];
  /** What the page ignored in the classroom params, in words. */
  warnings: string[];
  workshop: WorkshopState | null;
}

export interface ClassroomSlice {
  classroom: ClassroomState;
  setHiddenControls(hidden: HideName[]): void;
  setClassroomWarnings(warnings: string[]): void;
  /**
   * Workshop mode at `step` (clamped), presenter type on, the step's preset loaded unless
   * `keepDraft` and the draft already comes from it (a link with edits). Again while on: a step change.
   */
  enterWorkshop(step: number, opts?: { keepDraft?: boolean }): void;
  leaveWorkshop(): void;
  /** Another step: its preset (fresh), no prediction, result hidden. */
  goToWorkshopStep(step: number): void;
  /** The audience's answer; ignored while a run is on screen (it was made before the run). */
  predict(direction: Direction): void;
  revealMeasured(): void;
}

export function initialClassroomState(): ClassroomState {
  return { hidden: [], warnings: [], workshop: null };
}

function clampStep(step: number): number {
  return Math.min(WORKSHOP.length, Math.max(1, Math.round(Number.isFinite(step) ? step : 1)));
}

/** The step on screen, or null outside workshop mode. */
export function currentWorkshopStep(s: Pick<LabState, 'classroom'>) {
  const w = s.classroom.workshop;
  return w ? WORKSHOP[w.step - 1] : null;
}

/** Why Start waits: for the audience (workshop mode, no prediction yet) or for the class room's start; null: it does not. */
export function startBlockReason(s: Pick<LabState, 'classroom' | 'room'>): string | null {
  const w = s.classroom.workshop;
  return w && w.prediction === null ? 'Predict first: choose what you expect in the workshop card, then start.' : roomStartReason(s);
}

export const createClassroomSlice: LabSlice<ClassroomSlice> = (set, get) => {
  const patch = (p: Partial<ClassroomState>) => set((s) => ({ classroom: { ...s.classroom, ...p } }));
  const patchWorkshop = (p: Partial<WorkshopState>) =>
    set((s) => (s.classroom.workshop ? { classroom: { ...s.classroom, workshop: { ...s.classroom.workshop, ...p } } } : {}));
  return {
    classroom: initialClassroomState(),
    setHiddenControls: (hidden) => patch({ hidden: [...hidden] }),
    setClassroomWarnings: (warnings) => patch({ warnings: [...warnings] }),
    enterWorkshop: (step, opts = {}) => {
      const s = get();
      if (s.classroom.workshop) {
        get().goToWorkshopStep(step);
        return;
      }
      const n = clampStep(step);
      const presetId = WORKSHOP[n - 1].presetId;
      if (!(opts.keepDraft && s.presetId === presetId)) s.choosePreset(presetId);
      patch({ workshop: { step: n, prediction: null, revealed: false, presenterBefore: s.ui.presenter } });
      get().setPresenter(true);
    },
    leaveWorkshop: () => {
      const w = get().classroom.workshop;
      if (!w) return;
      patch({ workshop: null });
      get().setPresenter(w.presenterBefore);
    },
    goToWorkshopStep: (step) => {
      if (!get().classroom.workshop) return;
      const n = clampStep(step);
      get().choosePreset(WORKSHOP[n - 1].presetId);
      patchWorkshop({ step: n, prediction: null, revealed: false });
    },
    predict: (direction) => {
      if (get().run.phase !== 'idle') return;
      patchWorkshop({ prediction: direction });
    },
    revealMeasured: () => patchWorkshop({ revealed: true }),
  };
};
