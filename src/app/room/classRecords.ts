/**
 * A class room's runs, one per seat, rebuilt from the events the room server forwards (to the
 * presenter as they come, to students batched): each seat's events in order, turned into the
 * RunRecords "Run N seeds" keeps (store/seedsSlice.ts seedResult), so the class is drawn and
 * counted by the same machinery as several seeds: bands, each browser faint, claims over them.
 * A seat's spec is the room's with the seat's seed. Results are cached per seat and rebuilt only
 * for seats whose events changed.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { SeatInfo } from '../../room/protocol';
import type { RecordedEvent, RunRecord } from '../store/record';
import { type SeedResult, seedResult } from '../store/seedsSlice';

export class ClassRecords {
  private seats = new Map<number, RecordedEvent[]>();
  private cache = new Map<number, { length: number; seed: number; result: SeedResult }>();

  /**
   * A seat's events from position `from` on. Positions already held are kept; a batch that
   * starts after a gap is refused (false): the server sends everything again on the next present.
   */
  merge(seat: number, from: number, events: readonly RecordedEvent[]): boolean {
    const list = this.seats.get(seat) ?? [];
    if (from > list.length) return false;
    for (let i = list.length - from; i < events.length; i++) list.push(events[i]);
    this.seats.set(seat, list);
    return true;
  }

  /** Events held for a seat. */
  held(seat: number): number {
    return this.seats.get(seat)?.length ?? 0;
  }

  /** Each seat's run with at least one RL step, in seat order. */
  records(spec: ExperimentSpec, seats: readonly SeatInfo[]): { seat: SeatInfo; record: RunRecord }[] {
    const out: { seat: SeatInfo; record: RunRecord }[] = [];
    for (const seat of [...seats].sort((a, b) => a.index - b.index)) {
      const events = this.seats.get(seat.index);
      if (!events || events[0]?.type !== 'base' || !events.some((e) => e.type === 'step')) continue;
      out.push({ seat, record: { spec: { ...spec, seed: seat.seed }, backend: null, events: [...events] } });
    }
    return out;
  }

  /** The seats' results for the charts, the scoreboard and the claims (rebuilt where events came). */
  results(spec: ExperimentSpec, seats: readonly SeatInfo[]): SeedResult[] {
    return this.records(spec, seats).map(({ seat, record }) => {
      const hit = this.cache.get(seat.index);
      if (hit && hit.length === record.events.length && hit.seed === seat.seed) return hit.result;
      const result = seedResult(record);
      this.cache.set(seat.index, { length: record.events.length, seed: seat.seed, result });
      return result;
    });
  }

  clear(): void {
    this.seats.clear();
    this.cache.clear();
  }
}
