/**
 * Predict, then reveal: a preset's measured reference run stays hidden until the student (or the
 * class) has said what they expect, so the answer is never beside the question. The question is
 * the workshop step's for that preset (workshop/sequence.ts), or one every preset can ask.
 * Pure: the reference bar, the workshop card and the projector read these.
 */
import { WORKSHOP } from '../workshop/sequence';

/** What to predict before the reference of `presetId` is revealed. */
export function revealQuestion(presetId: string): string {
  const step = WORKSHOP.find((s) => s.presetId === presetId);
  return step ? step.question : 'Which arm will end above its start, and which below?';
}

/** The workshop state the reveal waits on (null: no workshop open). */
export interface WorkshopPrediction {
  prediction: string | null;
}

/** Why the reveal waits (null: it may be revealed now). In workshop mode it waits for a prediction. */
export function revealBlock(workshop: WorkshopPrediction | null): string | null {
  return workshop && workshop.prediction === null ? 'Predict first: choose an answer on the workshop card, then reveal.' : null;
}
