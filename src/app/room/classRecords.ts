/**
 * A class room's runs, rebuilt from the events the room server forwards (to the presenter as they
 * come, to students batched): each seat's events in order, turned into the RunRecords "Run N
 * seeds" keeps (store/seedsSlice.ts seedResult), so the class is drawn and counted by the same
 * machinery as several seeds: bands, each browser faint, claims over them.
 *
 * A seat's run is the room's spec with the seat's seed, its streamed 'done' made whole again
 * (restoreStreamed: charts, claims, the scoreboard and an exported run file see the summary the
 * runner made). In a paired room a run is a PAIR's: seats 2k and 2k+1 merged into the run of
 * pairSpec(spec, the peer arm) with the pair's seed (pairRun.ts). `records` builds every run
 * whole (the room's export); `results`, which the page calls at most once a second, keeps each
 * run folded and folds only the events that came since (runFold.ts, pairFold.ts).
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
import type { SeedResult } from '../store/seedsSlice';
import { PairFold } from './pairFold';
import { mergePairRun } from './pairRun';
import { RunFold, always } from './runFold';

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

/**
 * The longest one rebuild of the page folds events before the page paints and takes input again: a
 * class to catch up with (a presenter who opens the room late, or the room sending every event
 * again after a reconnect) is folded in such slices, one right after another (classResults.ts).
 */
export const FOLD_SLICE_MS = 50;

/** A run of the class as results() folds it. */
interface FoldedRun {
  label: string;
  /** Its seed and its seats' occupants: another key is another run, folded from scratch. */
  key: string;
  make(): RunFold | PairFold;
  /** Fold what came since the last call while `more()` says so; how many events that was. */
  advance(fold: RunFold | PairFold, more: () => boolean): number;
  /** Whether the run is drawn (an RL step folded). */
  shown(fold: RunFold | PairFold): boolean;
  /** Why the run is drawn only up to a step (null: it is not). */
  problem(fold: RunFold | PairFold): string | null;
  result(fold: RunFold | PairFold): SeedResult;
}

/** The pair a seat of a paired room belongs to. */
export const pairOf = (seat: number) => Math.floor(seat / 2);

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
    this.scanned.delete(seat);
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
   * The runs' results for the charts, the scoreboard and the claims, kept folded as events come
   * (runFold.ts, pairFold.ts): a rebuild folds only the events that came since the last one, and
   * hands back the same result object for a run that got none (the same array when no run did). A
   * run whose events cannot be read (a classmate's page sent something the charts cannot fold) is
   * left out and named in `dropped` until its seat starts again; the others are drawn as if it were
   * not there. `more()`, asked before each event is folded, may stop the rebuild (a time budget:
   * a page that catches up with a whole class keeps painting and taking input between slices);
   * `behind` then says that events are left to fold, and the runs are drawn as far as they were folded.
   */
  results(room: ClassRoom, more: () => boolean = always): SeedResult[] {
    const specText = this.specText(room.spec);
    const key = this.classKey(room, specText);
    this.lastFolded = 0;
    if (key === this.lastKey) return this.lastResults;
    let cut = false;
    const budget = () => more() || ((cut = true), false);
    if (specText !== this.foldSpec) {
      this.folds.clear();
      this.foldSpec = specText;
    }
    const out: SeedResult[] = [];
    const dropped: { label: string; reason: string }[] = [];
    const stopped: { label: string; reason: string }[] = [];
    const seen = new Set<string>();
    try {
      for (const run of this.runsOf(room)) {
        seen.add(run.label);
        const kept = this.folds.get(run.label);
        const entry = kept && kept.key === run.key ? kept : { key: run.key, fold: run.make(), reason: null };
        this.folds.set(run.label, entry);
        if (entry.reason === null) {
          try {
            this.lastFolded += run.advance(entry.fold, budget);
          } catch (e) {
            entry.reason = reasonOf(e);
          }
        }
        if (entry.reason !== null) dropped.push({ label: run.label, reason: entry.reason });
        else if (run.shown(entry.fold)) out.push(run.result(entry.fold));
        const problem = entry.reason === null ? run.problem(entry.fold) : null;
        if (problem !== null) stopped.push({ label: run.label, reason: problem });
      }
    } catch (e) {
      dropped.push({ label: 'the class', reason: reasonOf(e) });
    }
    for (const label of this.folds.keys()) if (!seen.has(label)) this.folds.delete(label);
    this.dropped = dropped;
    this.stopped = stopped;
    this.behind = cut;
    this.lastKey = cut ? '' : key;
    this.lastResults = out;
    return out;
  }

  /** The runs the last `results` drew only as far as their seats' events merge, and why ("pair 1": its step 5 does not merge). */
  stopped: { label: string; reason: string }[] = [];

  /** Whether the last `results` stopped before every event was folded (its `more` said no). */
  behind = false;

  /** Events folded by the last `results` (0: nothing new). */
  lastFolded = 0;
  private folds = new Map<string, { key: string; fold: RunFold | PairFold; reason: string | null }>();
  private foldSpec = '';
  private lastKey = '';
  private lastResults: SeedResult[] = [];

  /** What the class's results depend on, short of the events themselves: the experiment, and each listed seat's seed, occupant and events held. */
  private classKey(room: ClassRoom, specText: string): string {
    const seats = room.seats.map((s) => `${s.index}:${s.seed}:${this.generation.get(s.index) ?? 0}:${this.held(s.index)}`);
    return `${room.pairing}|${seats.join(',')}|${specText}`;
  }

  /** The room's experiment as text (each room message parses a new object of the same experiment). */
  private specText(spec: ExperimentSpec): string {
    if (spec !== this.textOf.spec) this.textOf = { spec, text: JSON.stringify(spec) };
    return this.textOf.text;
  }
  private textOf: { spec: ExperimentSpec | null; text: string } = { spec: null, text: '' };

  /** The class's runs as folds: which runs there are now, each with what makes it, advances it and reads it. */
  private runsOf(room: ClassRoom): FoldedRun[] {
    const seats = [...room.seats].sort((a, b) => a.index - b.index);
    const arm = room.pairing ? pairedPeerArm(room.spec) : null;
    const occupant = (s: SeatInfo) => `${s.index}=${this.generation.get(s.index) ?? 0}`;
    if (!arm) {
      return seats.flatMap((seat): FoldedRun[] => {
        const events = this.seats.get(seat.index);
        if (!events || events[0]?.type !== 'base') return [];
        const spec = { ...room.spec, seed: seat.seed };
        return [
          {
            label: `seat ${seat.index}`,
            key: `${seat.seed}:${occupant(seat)}`,
            make: () => new RunFold(spec),
            advance: (f, more) => (f as RunFold).addSeat(events, more),
            shown: (f) => (f as RunFold).hasStep,
            problem: () => null,
            result: (f) => (f as RunFold).result(),
          },
        ];
      });
    }
    const pairs = new Map<number, SeatInfo[]>();
    for (const seat of seats) pairs.set(pairOf(seat.index), [...(pairs.get(pairOf(seat.index)) ?? []), seat]);
    return [...pairs].flatMap(([pair, members]): FoldedRun[] => {
      const seed = members[0].seed;
      const sides = members.filter((s) => this.hasStep(s.index));
      if (sides.length === 0) return [];
      const events = sides.map((s) => this.seats.get(s.index)!);
      return [
        {
          label: `pair ${pair}`,
          key: `${seed}:${sides.map(occupant).join(',')}`,
          make: () => new PairFold({ ...room.spec, seed }, arm.id, sides.length),
          advance: (f, more) => (f as PairFold).advance(events, more),
          shown: (f) => (f as PairFold).fold.hasStep,
          problem: (f) => (f as PairFold).problem,
          result: (f) => (f as PairFold).fold.result(),
        },
      ];
    });
  }

  /** Whether a seat's events start with a base and hold a step (scanned once each). */
  private hasStep(seat: number): boolean {
    const events = this.seats.get(seat);
    if (!events || events[0]?.type !== 'base') return false;
    const s = this.scanned.get(seat) ?? { at: 0, step: false };
    for (; !s.step && s.at < events.length; s.at++) s.step = events[s.at].type === 'step';
    this.scanned.set(seat, s);
    return s.step;
  }
  private scanned = new Map<number, { at: number; step: boolean }>();

  /** The runs the last `results` left out, and why ("seat 3": its events could not be read). */
  dropped: { label: string; reason: string }[] = [];

  clear(): void {
    this.dropped = [];
    this.stopped = [];
    this.seats.clear();
    this.scanned.clear();
    this.folds.clear();
    this.lastKey = '';
    this.lastResults = [];
    this.behind = false;
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
