/** Opens or closes the Class room panel (class mode), next to Workshop. */
import { useLab } from '../store';
import { room } from './roomController';

export function RoomButton() {
  const open = useLab((s) => s.room.panelOpen);
  const student = useLab((s) => s.room.role === 'student');
  if (student) return null;
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls="class-room-panel"
      data-testid="room-toggle"
      title="Run this experiment with a class: every browser trains it with its own seed, and the class's result shows live here"
      onClick={() => (open ? room.close() : void room.open())}
    >
      Class room
    </button>
  );
}
