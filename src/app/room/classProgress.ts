/** A class room's progress in words, for the projector view's header and a presenter's run bar. */
import type { RoomInfo } from '../../room/protocol';

/** The class's progress in words: how many joined, how far the slowest and fastest are, how many are done. */
export function classProgress(info: RoomInfo): string {
  const seats = info.seats;
  const unit = 'browser';
  const n = seats.length;
  const joined = `${n} ${unit}${n === 1 ? '' : 's'} joined`;
  if (info.status === 'open') return `${joined}; the class starts when you press Start.`;
  if (n === 0) return info.status === 'closed' ? 'Room closed: no browser joined.' : 'No browser has joined: nothing trains.';
  const done = seats.filter((x) => x.done).length;
  if (done === n) return `The class run is over: ${n === 1 ? 'the 1 browser' : `all ${n} browsers`} finished ${info.spec.steps} RL steps.`;
  const steps = seats.filter((x) => !x.done).map((x) => x.lastStep);
  const lo = Math.min(...steps);
  const hi = Math.max(...steps);
  const at = lo === hi ? `RL step ${lo}` : `RL steps ${lo} to ${hi}`;
  return `${info.status === 'closed' ? 'Room closed. ' : ''}${joined}; training at ${at} of ${info.spec.steps}${done ? `, ${done} done` : ''}.`;
}
