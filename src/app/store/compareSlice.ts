/**
 * Compare slice: other runs drawn behind the live one on the same charts (dashed): a saved run
 * chosen for overlay, an imported bundle, a preset's reference run. Each layer is chart columns
 * (series.ts), usually rebuilt from a RunRecord with replayRecord(...).series.
 */
import type { RunSeries } from './series';
import type { LabSlice } from './types';

export interface CompareLayer {
  /** Unique among the layers (a saved run's id, 'reference:collapse', ...). */
  id: string;
  /** Shown in legends and tables, as text. */
  label: string;
  series: RunSeries;
}

/** At most this many layers at once: more would be unreadable. */
export const MAX_COMPARE_LAYERS = 4;

export interface CompareSlice {
  compare: CompareLayer[];
  /** Add a layer, or replace the one with the same id; the oldest goes beyond the limit. */
  addCompare(layer: CompareLayer): void;
  removeCompare(id: string): void;
  clearCompare(): void;
}

export const createCompareSlice: LabSlice<CompareSlice> = (set) => ({
  compare: [],
  addCompare: (layer) =>
    set((s) => {
      const others = s.compare.filter((l) => l.id !== layer.id);
      return { compare: [...others, layer].slice(-MAX_COMPARE_LAYERS) };
    }),
  removeCompare: (id) => set((s) => ({ compare: s.compare.filter((l) => l.id !== id) })),
  clearCompare: () => set({ compare: [] }),
});
