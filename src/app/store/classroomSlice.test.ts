/** Classroom slice: hidden controls, workshop steps, predict-first and the presenter flag. */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET, PRESETS } from '../../core/experiment/presets';
import { WORKSHOP } from '../workshop/sequence';
import { currentWorkshopStep, startBlockReason } from './classroomSlice';
import { resetLab, useLab } from './index';

const lab = () => useLab.getState();

beforeEach(() => resetLab());

describe('classroom slice', () => {
  it('keeps the hidden controls and warnings, and resetLab forgets them', () => {
    lab().setHiddenControls(['arms', 'speed']);
    lab().setClassroomWarnings(['Unknown control "x" in hide= ignored.']);
    expect(lab().classroom.hidden).toEqual(['arms', 'speed']);
    resetLab();
    expect(lab().classroom).toEqual({ hidden: [], warnings: [], workshop: null });
  });

  it("entering the workshop loads the step's preset and turns presenter type on; leaving restores it", () => {
    lab().choosePreset('quick');
    lab().enterWorkshop(2);
    expect(lab().classroom.workshop).toMatchObject({ step: 2, prediction: null, revealed: false });
    expect(lab().presetId).toBe(WORKSHOP[1].presetId);
    expect(currentWorkshopStep(lab())).toBe(WORKSHOP[1]);
    expect(lab().ui.presenter).toBe(true);
    lab().leaveWorkshop();
    expect(lab().classroom.workshop).toBeNull();
    expect(lab().ui.presenter).toBe(false);
    // Presenter already on stays on.
    lab().setPresenter(true);
    lab().enterWorkshop(1);
    lab().leaveWorkshop();
    expect(lab().ui.presenter).toBe(true);
  });

  it('keeps a linked draft of the same preset when asked to, and clamps the step', () => {
    const first = WORKSHOP[0].presetId;
    lab().loadSpec(first, { ...structuredClone(PRESETS[first].spec), seed: 5 }, true);
    lab().enterWorkshop(1, { keepDraft: true });
    expect(lab().draft.seed).toBe(5);
    expect(lab().edited).toBe(true);
    lab().leaveWorkshop();
    lab().enterWorkshop(99);
    expect(lab().classroom.workshop?.step).toBe(WORKSHOP.length);
    expect(lab().draft.seed).toBe(PRESETS[WORKSHOP[WORKSHOP.length - 1].presetId].spec.seed);
  });

  it('blocks Start until a prediction is made, and a new step asks again', () => {
    expect(startBlockReason(lab())).toBeNull();
    lab().enterWorkshop(1);
    expect(startBlockReason(lab())).toMatch(/^Predict first/);
    lab().predict('down');
    expect(lab().classroom.workshop?.prediction).toBe('down');
    expect(startBlockReason(lab())).toBeNull();
    lab().revealMeasured();
    lab().goToWorkshopStep(2);
    expect(lab().classroom.workshop).toMatchObject({ step: 2, prediction: null, revealed: false });
    expect(lab().presetId).toBe(WORKSHOP[1].presetId);
    expect(startBlockReason(lab())).toMatch(/^Predict first/);
  });

  it('does not change a prediction while a run is on screen', () => {
    lab().enterWorkshop(1);
    lab().predict('up');
    lab().beginRun(1, lab().draft);
    lab().predict('down');
    expect(lab().classroom.workshop?.prediction).toBe('up');
    lab().resetRun();
    lab().predict('down');
    expect(lab().classroom.workshop?.prediction).toBe('down');
  });

  it('ignores workshop actions outside workshop mode', () => {
    lab().goToWorkshopStep(3);
    lab().predict('up');
    lab().revealMeasured();
    lab().leaveWorkshop();
    expect(lab().classroom.workshop).toBeNull();
    expect(lab().presetId).toBe(DEFAULT_PRESET);
  });
});
