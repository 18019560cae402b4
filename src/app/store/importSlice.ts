/**
 * Import slice: run files opened in the page (src/share/bundle.ts; actions in run/importRun.ts).
 * `notice` is what the page says about the last file read: its problem, in words, or a valid run
 * waiting for the student to choose Show or Overlay. `imported` is the run file shown in place of
 * a live run (its banner), with the experiment that was on screen before it, to go back to.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { RunBundle } from '../../share/bundle';
import type { LabSlice } from './types';

export type ImportNotice =
  | { kind: 'error'; fileName: string; message: string }
  | { kind: 'ready'; fileName: string; bundle: RunBundle }
  /** A run file drawn behind the current run (compare layer `layerId`). */
  | { kind: 'overlaid'; name: string; layerId: string };

export interface ImportedRun {
  /** The run id it is shown under (negative: never a worker's). */
  runId: number;
  name: string;
  createdAt: string;
  backend: string | null;
  /** The experiment panel's state before the import. */
  previous: { presetId: string; edited: boolean; draft: ExperimentSpec };
}

export interface ImportSlice {
  importNotice: ImportNotice | null;
  imported: ImportedRun | null;
  setImportNotice(notice: ImportNotice | null): void;
  setImported(imported: ImportedRun | null): void;
}

export const createImportSlice: LabSlice<ImportSlice> = (set) => ({
  importNotice: null,
  imported: null,
  setImportNotice: (importNotice) => set({ importNotice }),
  setImported: (imported) => set({ imported }),
});
