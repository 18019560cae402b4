/**
 * The preset a room's experiment is shown under, with its seed set aside:
 * every seat trains the room's experiment with its own seed (src/room/roomSeeds.ts), so a seat's
 * seed differs from the preset's by design, and that is no edit. Before this, every seat but the
 * one whose seed happened to be the preset's was told "An edited experiment: the 8-seed results
 * do not apply", and classmates saw different pages. Anything else that differs is an edit.
 */
import { PRESETS, getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { mergePatchDiff } from '../../share/mergePatch';
import { presetFor } from '../run/importRun';

/** Whether `spec` is preset `id`'s experiment but for its seed. */
function sameButSeed(id: string, spec: ExperimentSpec): boolean {
  const p = getPreset(id);
  return p != null && mergePatchDiff(p.spec, { ...spec, seed: p.spec.seed }) === undefined;
}

/** The preset `named` (the room's) or any preset it equals but for the seed; else presetFor's answer (an edit). */
export function seatPresetFor(spec: ExperimentSpec, named: string | null | undefined, current: string): { presetId: string; edited: boolean } {
  if (named && sameButSeed(named, spec)) return { presetId: named, edited: false };
  const match = Object.values(PRESETS).find((p) => sameButSeed(p.id, spec));
  if (match) return { presetId: match.id, edited: false };
  return presetFor(spec, named ?? undefined, current);
}
