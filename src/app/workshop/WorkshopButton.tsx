/** Enters or leaves workshop mode (also reachable as ?workshop=1&step=N). */
import { useLab } from '../store';
import { workshop } from './actions';

export function WorkshopButton() {
  const on = useLab((s) => s.classroom.workshop !== null);
  return (
    <button
      type="button"
      aria-pressed={on}
      data-testid="workshop-toggle"
      title="A presenter's sequence of presets: the audience predicts, the lab runs, then compare with what the preset's seeds measured"
      onClick={() => (on ? workshop.leave() : workshop.enter(1))}
    >
      {on ? 'Leave workshop' : 'Workshop'}
    </button>
  );
}
