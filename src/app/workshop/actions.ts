/**
 * What the workshop's buttons do: stop the run on screen when the experiment changes (the store
 * cannot talk to the worker), update the store, and keep ?workshop=1&step=N in the URL in step
 * (history.replaceState, as share links do), so a reload or a copied link lands on the same step.
 */
import { workshopSearch } from '../../share/classroom';
import { type UrlPort, browserUrl } from '../shareLink';
import { useLab } from '../store';
import { lab } from '../trainingWorker';
import { WORKSHOP } from './sequence';

function stopRun(): void {
  if (useLab.getState().run.phase !== 'idle') lab.reset();
}

/** Write the workshop params of the store into the URL (or remove them). */
export function writeWorkshopUrl(url: UrlPort = browserUrl): void {
  const w = useLab.getState().classroom.workshop;
  const current = url.read();
  const next = workshopSearch(current, w ? { step: w.step } : null);
  if (next !== current) url.write(next);
}

export const workshop = {
  enter(step = 1): void {
    stopRun();
    useLab.getState().enterWorkshop(step);
    writeWorkshopUrl();
  },
  leave(): void {
    useLab.getState().leaveWorkshop();
    writeWorkshopUrl();
  },
  goTo(step: number): void {
    stopRun();
    useLab.getState().goToWorkshopStep(step);
    writeWorkshopUrl();
  },
  /** Back to the step's preset after the experiment was changed by hand. */
  reloadStepPreset(): void {
    const w = useLab.getState().classroom.workshop;
    if (!w) return;
    stopRun();
    useLab.getState().choosePreset(WORKSHOP[w.step - 1].presetId);
  },
};
