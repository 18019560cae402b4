/**
 * A class room's runs, rebuilt from the events the room server forwards (to the presenter as they
 * come, to students batched): each seat's events in order, turned into the RunRecords "Run N
 * seeds" keeps (store/seedsSlice.ts seedResult), so the class is drawn and counted by the same
 * machinery as several seeds: bands, each browser faint, claims over them.
 *
 * A seat's run is the room's spec with the seat's seed, its streamed 'done' made whole again
 * (restoreStreamed: charts, claims, the scoreboard and an exported run file see the summary the
 * runner made). In a paired room a run is a PAIR's: seats 2k and 2k+1 merged into the run of
 * pairSpec(spec, the pair's level) with the pair's seed (pairRun.ts); a seat that trained alone
 * made that run by itself. `records` builds every run whole (the room's export); `results`, which
 * the page calls at most once a second, keeps each run folded and folds only the events that came
 * since (classFolds.ts).
 *
 * A freed seat's index is taken again by the next student, with the same seed and member, whose
 * events start again at 0 (docs/ROOM.md, "Freed seats"): the old occupant's events are dropped
 * when the index leaves RoomInfo.seats, when the room says the seat holds fewer events than this
 * page does, or when the seat's events come again from 0, so two runs never make one seat's curve.
 */
import { pairSpec, pairedPeerArm } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { unpairedSeatSpec } from '../../room/levels';
import { type SeatInfo, restoreStreamed } from '../../room/protocol';
import type { RecordedEvent, RunRecord } from '../store/record';
import type { SeedResult } from '../store/seedsSlice';
import { ClassFolds, pairOf, type ClassRoom } from './classFolds';
import { mergePairRun } from './pairRun';
import { always } from './runFold';

export type { ClassRoom };

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

export { pairOf };

export class ClassRecords {
  private seats = new Map<number, RecordedEvent[]>();
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
        // An unpaired seat of a room of levels trains its level's pair alone.
        const spec = unpairedSeatSpec(room.spec, seat);
        const events = this.seatEvents(spec, seat);
        if (!events || !hasStep(events)) continue;
        out.push({ label: `seat ${seat.index}`, pair: null, seats: [seat], record: { spec: { ...spec, seed: seat.seed }, backend: backendOf(events), events }, problem: null });
      }
      return out;
    }
    const pairs = new Map<number, SeatInfo[]>();
    for (const seat of seats) pairs.set(pairOf(seat.index), [...(pairs.get(pairOf(seat.index)) ?? []), seat]);
    for (const [pair, members] of pairs) {
      const seed = members[0].seed;
      const spec = { ...room.spec, seed };
      // The pair's level (a server older than levels names none: the first peer arm, as then).
      const level = members.find((s) => s.level)?.level ?? arm.id;
      if (!spec.arms.some((a) => a.id === level)) continue;
      // A seat that trains alone ran the pair itself (pairSpec): its events are the pair's run.
      const sides = members
        .map((s) => this.seatEvents(s.alone ? pairSpec(spec, level) : spec, s))
        .filter((e): e is RecordedEvent[] => e !== null && hasStep(e));
      if (sides.length === 0) continue;
      const run = mergePairRun(spec, level, sides);
      if (!hasStep(run.events)) continue;
      out.push({ label: `pair ${pair}`, pair, seats: members, record: { spec: run.spec, backend: backendOf(run.events), events: run.events }, problem: run.problem });
    }
    return out;
  }

  /**
   * The runs' results for the charts, the scoreboard and the claims, kept folded as events come
   * (classFolds.ts): a rebuild folds only the events that came since the last one, for as long as
   * `more()` says so. `dropped`, `stopped`, `behind` and `lastFolded` say what the last one did.
   */
  results(room: ClassRoom, more: () => boolean = always): SeedResult[] {
    return this.folds.results(room, more);
  }

  private readonly folds = new ClassFolds({ events: (seat) => this.seats.get(seat), generation: (seat) => this.generation.get(seat) ?? 0 });

  /** The runs the last `results` left out, and why ("seat 3": its events could not be read). */
  get dropped(): readonly { label: string; reason: string }[] {
    return this.folds.dropped;
  }

  /** The runs the last `results` drew only as far as their seats' events merge, and why ("pair 1": its step 5 does not merge). */
  get stopped(): readonly { label: string; reason: string }[] {
    return this.folds.stopped;
  }

  /** Whether the last `results` stopped before every event was folded (its `more` said no). */
  get behind(): boolean {
    return this.folds.behind;
  }

  /** Events folded by the last `results` (0: nothing new). */
  get lastFolded(): number {
    return this.folds.lastFolded;
  }

  clear(): void {
    this.seats.clear();
    this.folds.clear();
    this.generation.clear();
    this.listed.clear();
  }
}

/** The backend a run trained on, as its 'done' says (null: not finished, not known). */
function backendOf(events: readonly RecordedEvent[]): string | null {
  const done = events.at(-1);
  return done?.type === 'done' ? done.summary.backend : null;
}
