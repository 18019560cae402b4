import { useMemo } from 'react';
import { armColors, memberDashes } from '../lib/colors';
import { useLab } from '../store';
import type { Styles } from './seriesDefs';

/**
 * What every chart panel needs: the run's columns, a version to re-render on, and the arm colours
 * and member dashes of the spec being run (the draft's before the first Start).
 */
export function useRunView() {
  const version = useLab((s) => s.run.version);
  const series = useLab((s) => s.run.series);
  const base = useLab((s) => s.run.base);
  const runSpec = useLab((s) => s.run.spec);
  const draft = useLab((s) => s.draft);
  const spec = runSpec ?? draft;
  const styles: Styles = useMemo(
    () => ({ arm: armColors(spec.arms), dash: memberDashes(spec.members.map((m) => m.id)) }),
    [spec],
  );
  return { version, series, base, styles, spec };
}
