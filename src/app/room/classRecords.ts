/**
 * A class room's runs, rebuilt from the events the room server forwards (to the presenter as they
 * come, to students batched): each seat's events in order, turned into the RunRecords "Run N
 * seeds" keeps (store/seedsSlice.ts seedResult), so the class is drawn and counted by the same
 * machinery as several seeds: bands, each browser faint, claims over them.
 *
 * A seat's run is the room's spec with the seat's seed, its streamed 'done' made whole again
 * (restoreStreamed: charts, claims, the scoreboard and an exported run file see the summary the
 * runner made). In a paired room a run is a PAIR's: seats 2k and 2k+1 merged into the run of
 * pairSpec(spec, the peer arm) with the pair's seed (pairRun.ts). Results are cached per run and
 * rebuilt only for runs whose events changed.
 *
 * A freed seat's index is taken again by the next student, with the same seed and member, whose
 * events start again at 0 (docs/ROOM.md, "Freed seats"): the old occupant's events are dropped
 * when the index leaves RoomInfo.seats, when the room says the seat holds fewer events than this
 * page does, or when the seat's events come again from 0, so two runs never make one seat's curve.
 */
import { pairedPeerArm } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { type RoomInfo, type SeatInfo, restoreStreamed } from '../../room/protocol';
import type { RecordedEvent, RunRecord } from '../store/record';
import { type SeedResult, seedResult } from '../store/seedsSlice';
import { mergePairRun } from './pairRun';

/** The room as the class's runs need it. */
export type ClassRoom = Pick<RoomInfo, 'spec' | 'seats' | 'pairing'>;

/** One run of the class: a seat's (pair null), or a pair's (its seats 2k and 2k+1 that joined). */
export interface ClassRun {
  /** "seat 3" or "pair 1": what the run is called where runs are listed. */
  label: string;
  pair: number | null;
  seats: SeatInfo[];
  record: RunRecord;
  /** Why a pair's seats stopped merging (null: they did not). */
  problem: string | null;
}

/** The pair a seat of a paired room belongs to. */
export const pairOf = (seat: number) => Math.floor(seat / 2);

export class ClassRecords {
  private seats = new Map<number, RecordedEvent[]>();
  private cache = new Map<string, { key: string; result: SeedResult | null; reason?: string }>();
  /** How many times each seat's events were dropped (in the cache key: a new occupant is a new run). */
  private generation = new Map<number, number>();
  /** The seats of the last room message (seatsNow). */
  private listed = new Set<number>();

  /**
   * A seat's events from position `from` on. Positions already held are kept; a batch that
   * starts after a gap is refused (false): the server sends everything again on the next present.
   * A batch from 0 starts the seat again: a new occupant's run (or the whole seat sent again).
   */
  merge(seat: number, from: number, events: readonly RecordedEvent[]): boolean {
    if (from === 0 && events.length > 0) this.drop(seat);
    const list = this.seats.get(seat) ?? [];
    if (from > list.length) return false;
    for (let i = list.length - from; i < events.length; i++) list.push(events[i]);
    this.seats.set(seat, list);
    return true;
  }

  /**
   * The room's seats now (each room message, in order with the events): a seat that left the list
   * was freed, and one the room holds fewer events of than this page was freed and taken again.
   * `own`: a student's own seat, whose events this page holds before the room has them all (its
   * run's own events, not the room's copy), so holding more of it is no sign of a new occupant.
   */
  seatsNow(seats: readonly Pick<SeatInfo, 'index' | 'events'>[], own: number | null = null): void {
    const now = new Map(seats.map((s) => [s.index, s.events]));
    for (const index of this.listed) if (!now.has(index)) this.drop(index);
    for (const [index, events] of now) if (index !== own && events < this.held(index)) this.drop(index);
    this.listed = new Set(now.keys());
  }

  private drop(seat: number): void {
    if (!this.seats.has(seat)) return;
    this.seats.delete(seat);
    this.generation.set(seat, (this.generation.get(seat) ?? 0) + 1);
  }

  /** Events held for a seat. */
  held(seat: number): number {
    return this.seats.get(seat)?.length ?? 0;
  }

  /** A seat's run of `spec` (its seed), its 'done' restored (null: no base yet). */
  private seatEvents(spec: ExperimentSpec, seat: SeatInfo): RecordedEvent[] | null {
    const events = this.seats.get(seat.index);
    if (!events || events[0]?.type !== 'base') return null;
    return restoreStreamed({ ...spec, seed: seat.seed }, events);
  }

  /** The class's runs with at least one RL step, in seat (pair) order. */
  records(room: ClassRoom): ClassRun[] {
    const seats = [...room.seats].sort((a, b) => a.index - b.index);
    const arm = room.pairing ? pairedPeerArm(room.spec) : null;
    const out: ClassRun[] = [];
    const hasStep = (evs: readonly RecordedEvent[]) => evs.some((e) => e.type === 'step');
    if (!arm) {
      for (const seat of seats) {
        const events = this.seatEvents(room.spec, seat);
        if (!events || !hasStep(events)) continue;
        out.push({ label: `seat ${seat.index}`, pair: null, seats: [seat], record: { spec: { ...room.spec, seed: seat.seed }, backend: backendOf(events), events }, problem: null });
      }
      return out;
    }
    const pairs = new Map<number, SeatInfo[]>();
    for (const seat of seats) pairs.set(pairOf(seat.index), [...(pairs.get(pairOf(seat.index)) ?? []), seat]);
    for (const [pair, members] of pairs) {
      const seed = members[0].seed;
      const spec = { ...room.spec, seed };
      const sides = members.map((s) => this.seatEvents(spec, s)).filter((e): e is RecordedEvent[] => e !== null && hasStep(e));
      if (sides.length === 0) continue;
      const run = mergePairRun(spec, arm.id, sides);
      if (!hasStep(run.events)) continue;
      out.push({ label: `pair ${pair}`, pair, seats: members, record: { spec: run.spec, backend: backendOf(run.events), events: run.events }, problem: run.problem });
    }
    return out;
  }

  /**
   * The runs' results for the charts, the scoreboard and the claims (rebuilt where events came).
   * A run whose events cannot be read (a classmate's page sent something the charts cannot fold)
   * is left out and named in `dropped`; the other runs are drawn as if it were not there.
   */
  results(room: ClassRoom): SeedResult[] {
    const out: SeedResult[] = [];
    this.dropped = [];
    let runs: ClassRun[];
    try {
      runs = this.records(room);
    } catch (e) {
      this.dropped.push({ label: 'the class', reason: reasonOf(e) });
      return out;
    }
    for (const run of runs) {
      const id = run.label;
      const key = `${run.record.spec.seed}:${run.seats.map((s) => `${s.index}=${this.generation.get(s.index) ?? 0}/${this.held(s.index)}`).join(',')}`;
      const hit = this.cache.get(id);
      if (hit && hit.key === key) {
        if (hit.result) out.push(hit.result);
        else this.dropped.push({ label: id, reason: hit.reason ?? 'unreadable events' });
        continue;
      }
      try {
        const result = seedResult(run.record);
        this.cache.set(id, { key, result });
        out.push(result);
      } catch (e) {
        const reason = reasonOf(e);
        this.cache.set(id, { key, result: null, reason });
        this.dropped.push({ label: id, reason });
      }
    }
    return out;
  }

  /** The runs the last `results` left out, and why ("seat 3": its events could not be read). */
  dropped: { label: string; reason: string }[] = [];

  clear(): void {
    this.dropped = [];
    this.seats.clear();
    this.cache.clear();
    this.generation.clear();
    this.listed.clear();
  }
}

/** An error's message in plain text, bounded (it may quote a classmate's data). */
function reasonOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** The backend a run trained on, as its 'done' says (null: not finished, not known). */
function backendOf(events: readonly RecordedEvent[]): string | null {
  const done = events.at(-1);
  return done?.type === 'done' ? done.summary.backend : null;
}
