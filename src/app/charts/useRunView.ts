import { useMemo } from 'react';
import { armColors, memberDashes } from '../lib/colors';
import { useLab } from '../store';
import type { Styles } from './seriesDefs';

/**
 * What every chart panel needs: the run's columns, a version to re-render on, the base (untrained)
 * evaluations, and the arm colours, member dashes and arms' member order of the spec being run
 * (the draft's before the first Start).
 */
export function useRunView() {
  const version = useLab((s) => s.run.version);
  const series = useLab((s) => s.run.series);
  const base = useLab((s) => s.run.base);
  const baseKappa = useLab((s) => s.run.baseKappa);
  const runSpec = useLab((s) => s.run.spec);
  const draft = useLab((s) => s.draft);
  const spec = runSpec ?? draft;
  const styles: Styles = useMemo(
    () => ({ arm: armColors(spec.arms), dash: memberDashes(spec.members.map((m) => m.id)) }),
    [spec],
  );
  /** Each arm's members in spec order (the runner pools the first two). */
  const armMembers = useMemo(() => Object.fromEntries(spec.arms.map((a) => [a.id, a.members])), [spec]);
  return { version, series, base, baseKappa, styles, spec, armMembers };
}
