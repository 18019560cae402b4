import { useMemo } from 'react';
import { armColors, memberDashes } from '../lib/colors';
import { useLab } from '../store';
import type { Styles } from './seriesDefs';

/**
 * What every chart panel needs: the run's columns, a version to re-render on, the base (untrained)
 * evaluations, and the arm colours, member dashes and arms' member order of the spec being run
 * (the draft's before the first Start; in a class room the room's experiment colours its arms).
 */
export function useRunView() {
  const version = useLab((s) => s.run.version);
  const series = useLab((s) => s.run.series);
  const base = useLab((s) => s.run.base);
  const baseKappa = useLab((s) => s.run.baseKappa);
  const runSpec = useLab((s) => s.run.spec);
  const draft = useLab((s) => s.draft);
  const spec = runSpec ?? draft;
  // In a class room every page colours the room's arms as the room's experiment does, so an arm
  // has one colour on the projector's charts, its scoreboard and its overlap panel, and on every
  // student's page, whatever this page last ran itself.
  const roomArms = useLab((s) => s.room.info?.spec.arms ?? null);
  const styles: Styles = useMemo(() => ({ arm: shownArmColors(spec.arms, roomArms), dash: memberDashes(spec.members.map((m) => m.id)) }), [spec, roomArms]);
  /** Each arm's members in spec order (the runner pools the first two). */
  const armMembers = useMemo(() => Object.fromEntries(spec.arms.map((a) => [a.id, a.members])), [spec]);
  return { version, series, base, baseKappa, styles, spec, armMembers };
}

/** The arms' colours: the run's (or draft's) spec's, with a class room's arms coloured as its experiment colours them. */
export function shownArmColors(arms: readonly { id: string; scheme: string }[], roomArms: readonly { id: string; scheme: string }[] | null): Record<string, string> {
  return { ...armColors(arms), ...(roomArms ? armColors(roomArms) : {}) };
}
