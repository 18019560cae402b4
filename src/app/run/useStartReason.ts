import { isActivePhase } from '../../engine/protocol';
import { useDraftValidation } from '../controls/validation';
import { useLab } from '../store';
import { startBlockReason } from '../store/classroomSlice';

/** Why Start is disabled now (null: it is not): an invalid experiment, a run in progress, a workshop prediction to make. */
export function useStartReason(): string | null {
  const validation = useDraftValidation();
  const blocked = useLab(startBlockReason);
  const active = useLab((s) => isActivePhase(s.run.phase));
  if (!validation.ok) return `Fix the experiment first: ${validation.problems[0].message}${validation.problems.length > 1 ? ` (and ${validation.problems.length - 1} more)` : ''}`;
  if (active) return 'A run is in progress: Reset it first.';
  return blocked;
}
