/**
 * The mechanism charts of the pseudo-label panel (core/metrics/mechanism.ts has the definitions):
 * per arm and member, the accuracy of the label it is trained on next to the accuracy of its own
 * vote, and how often that label rescues it (right where its own vote is wrong), misleads it
 * (wrong where its own vote is right) or repeats its own mistake (shared error). Pure functions of
 * the run's columns, like seriesDefs.ts.
 */
import { withAlpha } from '../lib/colors';
import type { ArmSeries, Column } from '../store/series';
import { type ChartLines, REFERENCE_COLOR, type Styles, empty, isIntrinsic } from './seriesDefs';

/** Green, orange and red that stay apart for colour-blind viewers too (colors.test.ts). */
export const RESCUE_COLOR = '#009e73';
export const MISLEAD_COLOR = '#e69f00';
export const SHARED_ERROR_COLOR = '#b2182b';

/** Arms whose reward compares answers with a label (every scheme but the intrinsic ones). */
export function hasLabels(arm: Pick<ArmSeries, 'scheme'>): boolean {
  return !isIntrinsic(arm.scheme);
}

/**
 * The accuracy of the label a member is trained on. The oracle's label is the truth, so 1 wherever
 * the member was measured (the core reports no pseudo-label accuracy there: null); every other
 * scheme's is the core's pseudoLabelAccuracy column.
 */
export function labelAccuracyColumn(arm: ArmSeries, memberId: string): Column {
  const m = arm.members[memberId];
  if (arm.scheme === 'oracle') return m.ownVoteAccuracy.map((v) => (v == null ? null : 1));
  return m.pseudoLabelAccuracy;
}

/** Label accuracy (arm colour, strong) against own-vote accuracy (faint, thin) per member; members keep their dash. */
export function labelVsOwnVoteLines(arm: ArmSeries, styles: Styles): ChartLines {
  const out = empty();
  const color = styles.arm[arm.armId] ?? REFERENCE_COLOR;
  for (const id of arm.memberIds) {
    const dash = styles.dash[id] ?? [];
    out.series.push({ label: `label · ${id}`, color, dash, width: 2.5 });
    out.ys.push(labelAccuracyColumn(arm, id));
    out.series.push({ label: `own vote · ${id}`, color: withAlpha(color, 0.5), dash, width: 1.5 });
    out.ys.push(arm.members[id].ownVoteAccuracy);
  }
  return out;
}

/** Rescue (green), mislead (orange, thin) and shared-error (red) rates per member; members keep their dash. */
export function mechanismRateLines(arm: ArmSeries, styles: Styles): ChartLines {
  const out = empty();
  for (const id of arm.memberIds) {
    const dash = styles.dash[id] ?? [];
    const m = arm.members[id];
    out.series.push({ label: `rescue · ${id}`, color: RESCUE_COLOR, dash, width: 2 });
    out.ys.push(m.rescueRate);
    out.series.push({ label: `mislead · ${id}`, color: MISLEAD_COLOR, dash, width: 1.25 });
    out.ys.push(m.misleadRate);
    out.series.push({ label: `shared error · ${id}`, color: SHARED_ERROR_COLOR, dash, width: 2 });
    out.ys.push(m.sharedErrorRate);
  }
  return out;
}
