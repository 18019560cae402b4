/**
 * A paired seat whose partner's seat was freed after its member part began chooses to run alone:
 * leave the room (the seat's member part stops, nothing more is sent), and train the room's whole
 * experiment in this browser with the seat's seed. That run is the student's own: the class does
 * not count it, and the panel said so before the button was pressed. (The odd student out when
 * the room starts needs no button: the room has it train its pair alone, and that run counts.)
 */
import { useLab } from '../store';
import { lab } from '../trainingWorker';
import { room } from './roomController';

export function runAlone(): boolean {
  const seed = useLab.getState().room.seat?.seed;
  room.leave();
  lab.reset();
  return lab.start(seed === undefined ? {} : { seed });
}
