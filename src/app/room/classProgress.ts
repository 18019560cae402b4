/** A class room's progress in words, for the projector view's header and a presenter's run bar. */
import type { RoomInfo } from '../../room/protocol';
import type { SeedResult } from '../store/seedsSlice';

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
  if (info.status === 'closed') return `The run was ended: ${done} of ${n} ${info.pairing ? 'seats' : 'browsers'} had finished ${info.spec.steps} RL steps; the class's numbers are over those that finished.`;
  const steps = seats.filter((x) => !x.done).map((x) => x.lastStep);
  const lo = Math.min(...steps);
  const hi = Math.max(...steps);
  const at = lo === hi ? `RL step ${lo}` : `RL steps ${lo} to ${hi}`;
  return `${joined}; training at ${at} of ${info.spec.steps}${done ? `, ${done} done` : ''}.`;
}

/**
 * The last step the class's mean is drawn at: the step every run still training has reached (null:
 * no run is training, or no class). Beyond it a mean over the runs that got there would jump each
 * time a slow run is left out, so the mean stops there and the faster runs go on as faint lines.
 */
export function classMeanThrough(results: readonly Pick<SeedResult, 'finished' | 'series'>[]): number | null {
  let through: number | null = null;
  for (const r of results) {
    if (r.finished) continue;
    const last = r.series.x.at(-1) ?? 0;
    through = through === null ? last : Math.min(through, last);
  }
  return through;
}

/** The base seed of a room run again (src/room/roomSeeds.ts). */
export { runAgainSeed } from '../../room/roomSeeds';

/** How long this room's seats wait for a partner, as its server says ("20 seconds"; an older server: "a short while"). */
export function partnerWaitWords(info: Pick<RoomInfo, 'partnerWaitS'>): string {
  const s = info.partnerWaitS;
  if (s === undefined) return 'a short while';
  return s >= 120 && s % 60 === 0 ? `${s / 60} minutes` : `${s} second${s === 1 ? '' : 's'}`;
}
