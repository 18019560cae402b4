/**
 * What the projector view and the class panels draw: the class's runs as results (classRecords.ts),
 * rebuilt from the room's events at most once a second, and the seats table's steps as they come.
 * The room connection (roomFeed.ts) feeds the events in; a student's own run joins here too.
 */
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import { seatEvent } from '../../room/seatOutbox';
import { useLab } from '../store';
import type { RecordedEvent } from '../store/record';
import { FOLD_SLICE_MS } from './classFolds';
import { type ClassRun, ClassRecords } from './classRecords';

/** How often the class's results are rebuilt, at most. */
export const RESULTS_EVERY_MS = 1000;

const records = new ClassRecords();
let resultsTimer: ReturnType<typeof setTimeout> | null = null;
/** When the class's results were last shown (performance.now()). */
let lastShown = -Infinity;

const state = () => useLab.getState();

/**
 * Rebuild the class's results soon (at most once a second). A rebuild folds only the events that
 * came since the last one, for FOLD_SLICE_MS at most; a class to catch up with is folded in such
 * slices, one right after another (the page paints and takes input between them), and shown as far
 * as it is folded at most once a second meanwhile.
 */
export function resultsSoon(delay = RESULTS_EVERY_MS): void {
  if (resultsTimer !== null) return;
  resultsTimer = setTimeout(() => {
    resultsTimer = null;
    const info = state().room.info;
    if (!info) return;
    const end = performance.now() + FOLD_SLICE_MS;
    const all = records.results(info, () => performance.now() < end);
    if (records.behind) {
      resultsSoon(0);
      if (performance.now() - lastShown < RESULTS_EVERY_MS) return;
    }
    lastShown = performance.now();
    // A room ended before every run finished: the class's numbers are over the runs that finished.
    const results = info.status === 'closed' ? all.filter((r) => r.finished) : all;
    const dropped = records.dropped.map((d) => `${d.label} (${d.reason})`);
    const stopped = records.stopped.map((d) => `${d.label} (${d.reason})`);
    const notice = [
      dropped.length > 0 ? `Left out of the class's results because its events could not be read: ${dropped.join('; ')}.` : '',
      stopped.length > 0 ? `Drawn only as far as its seats' events merge: ${stopped.join('; ')}.` : '',
    ].filter(Boolean);
    state().setRoom(notice.length > 0 ? { results, notice: notice.join(' ') } : { results });
  }, delay);
}

/** The room's seats now: in order with the events, a freed seat's events go before a newcomer on its index sends its own. */
export function seatsNow(seats: readonly SeatInfo[]): void {
  const { role, seat } = state().room;
  records.seatsNow(seats, role === 'student' ? (seat?.index ?? null) : null);
}

/** A seat's events as the room forwards them. */
export function seatEventsCame(index: number, from: number, events: readonly RecordedEvent[]): void {
  if (records.merge(index, from, events)) resultsSoon();
  stepsCame(index, events);
}

/**
 * A student's own run is one of the class's runs: the room forwards each student the others' events
 * only, so the seat's own events join the class's runs here, in the shape the room stores them
 * (seatEvent). Every page then means over the same runs the projector does, the student's included.
 */
export function ownEvents(from: number, events: readonly RecordedEvent[]): void {
  const { role, seat } = state().room;
  if (role !== 'student' || !seat) return;
  if (records.merge(seat.index, from, events.map(seatEvent))) resultsSoon();
}

/** Every run of the class with its events, for the room's export (roomExport.ts). */
export function classRecordsOf(info: RoomInfo): ClassRun[] {
  return records.records(info);
}

/** The room is left: nothing of its class is kept. */
export function clearClassResults(): void {
  records.clear();
  if (resultsTimer !== null) clearTimeout(resultsTimer);
  resultsTimer = null;
}

/**
 * The seats table's step as a seat's events come: the room message says a seat's last step only
 * when it sends its first event and when it ends, so without this the table would jump from 0 to
 * the end. The next room message holds at least this step (the server stores before it forwards).
 */
function stepsCame(index: number, events: readonly { type: string; step?: number }[]): void {
  const info = state().room.info;
  const seat = info?.seats.find((x) => x.index === index);
  if (!info || !seat) return;
  let step = seat.lastStep;
  for (const e of events) if (e.type === 'step' && e.step !== undefined && e.step > step) step = e.step;
  if (step === seat.lastStep) return;
  state().setRoom({ info: { ...info, seats: info.seats.map((x) => (x.index === index ? { ...x, lastStep: step } : x)) } });
}
