/** Turning the presenter's projector view on and off (ProjectorView.tsx), remembered per room. */
import { useLab } from '../store';
import { rememberProjector, roomIdOf } from './projector';
import { pageStorage } from './roomPage';

export function setProjector(on: boolean): void {
  const s = useLab.getState();
  if (on && s.room.role !== 'presenter') return;
  rememberProjector(pageStorage(), s.room.info?.id ?? roomIdOf(s.room.link), on);
  s.setRoom({ projector: on });
  // The projector view is the whole window: start it at the top.
  if (typeof window !== 'undefined') window.scrollTo(0, 0);
}
