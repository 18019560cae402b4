/**
 * The class's results kept folded as its events come (ClassRecords.results): one fold per run, a
 * seat's (runFold.ts) or a pair's (pairFold.ts; a pair's level's arm, or, where a seat trained
 * the pair alone, that seat's run of it as a seat's fold), kept between the page's rebuilds, so that a
 * rebuild folds only the events that came since the last one and hands back the same result object
 * for a run that got none (the same array when no run did). A run whose seat (or seats) changed
 * occupant or seed is another run, folded from scratch. A run whose events cannot be folded is left
 * out and named in `dropped` until its seat starts again; a pair whose seats' events stop merging is
 * drawn as far as they merge and named in `stopped`; the other runs are drawn as if neither were
 * there.
 */
import { pairSpec, pairedPeerArm } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { unpairedSeatSpec } from '../../room/levels';
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import type { RecordedEvent } from '../store/record';
import type { SeedResult } from '../store/seedsSlice';
import { PairFold } from './pairFold';
import { RunFold, always } from './runFold';

/** The seats' events as ClassRecords holds them. */
/** The room as the class's runs need it. */
export type ClassRoom = Pick<RoomInfo, 'spec' | 'seats' | 'pairing'>;

export interface HeldSeats {
  events(seat: number): readonly RecordedEvent[] | undefined;
  /** How many times the seat's events were dropped: a new occupant, a new run. */
  generation(seat: number): number;
}

/**
 * The longest one rebuild of the page folds events before the page paints and takes input again: a
 * class to catch up with (a presenter who opens the room late, or the room sending every event
 * again after a reconnect) is folded in such slices, one right after another (classResults.ts).
 */
export const FOLD_SLICE_MS = 50;

/** A run of the class as ClassFolds.results folds it. */
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

export class ClassFolds {
  constructor(private readonly held: HeldSeats) {}

  /**
   * The runs' results for the charts, the scoreboard and the claims. `more()`, asked before each
   * event is folded, may stop the rebuild (a time budget: a page that catches up with a whole class
   * keeps painting and taking input between slices); `behind` then says that events are left to
   * fold, and the runs are drawn as far as they were folded.
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

  /** The runs the last `results` left out, and why ("seat 3": its events could not be read). */
  dropped: { label: string; reason: string }[] = [];

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
    const seats = room.seats.map((s) => `${s.index}:${s.seed}:${s.level ?? ''}:${s.alone ? 'alone' : ''}:${this.held.generation(s.index)}:${(this.held.events(s.index)?.length ?? 0)}`);
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
    const occupant = (s: SeatInfo) => `${s.index}=${this.held.generation(s.index)}`;
    if (!arm) {
      return seats.flatMap((seat): FoldedRun[] => {
        const events = this.held.events(seat.index);
        if (!events || events[0]?.type !== 'base') return [];
        // An unpaired seat of a room of levels trains its level's pair alone.
        const spec = unpairedSeatSpec({ ...room.spec, seed: seat.seed }, seat);
        return [
          {
            label: `seat ${seat.index}`,
            key: `${seat.seed}:${spec.arms.map((a) => a.id).join('+')}:${occupant(seat)}`,
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
      // The pair's level (a server older than levels names none: the first peer arm, as then).
      const level = members.find((s) => s.level)?.level ?? arm.id;
      if (!room.spec.arms.some((a) => a.id === level)) return [];
      const sides = members.filter((s) => this.hasStep(s.index));
      if (sides.length === 0) return [];
      // A seat that trained alone ran its level's pair itself (pairSpec): its run is the pair's, whole.
      const alone = sides.find((s) => s.alone);
      if (alone) {
        const events = this.held.events(alone.index)!;
        const spec = pairSpec({ ...room.spec, seed }, level);
        return [
          {
            label: `pair ${pair}`,
            key: `${seed}:${level}:alone:${occupant(alone)}`,
            make: () => new RunFold(spec),
            advance: (f, more) => (f as RunFold).addSeat(events, more),
            shown: (f) => (f as RunFold).hasStep,
            problem: () => null,
            result: (f) => (f as RunFold).result(),
          },
        ];
      }
      const events = sides.map((s) => this.held.events(s.index)!);
      return [
        {
          label: `pair ${pair}`,
          key: `${seed}:${level}:${sides.map(occupant).join(',')}`,
          make: () => new PairFold({ ...room.spec, seed }, level, sides.length),
          advance: (f, more) => (f as PairFold).advance(events, more),
          shown: (f) => (f as PairFold).fold.hasStep,
          problem: (f) => (f as PairFold).problem,
          result: (f) => (f as PairFold).fold.result(),
        },
      ];
    });
  }

  /** Whether a seat's events start with a base and hold a step (each scanned once, per occupant). */
  private hasStep(seat: number): boolean {
    const events = this.held.events(seat);
    if (!events || events[0]?.type !== 'base') return false;
    const generation = this.held.generation(seat);
    const kept = this.scanned.get(seat);
    const s = kept && kept.generation === generation ? kept : { generation, at: 0, step: false };
    for (; !s.step && s.at < events.length; s.at++) s.step = events[s.at].type === 'step';
    this.scanned.set(seat, s);
    return s.step;
  }
  private scanned = new Map<number, { generation: number; at: number; step: boolean }>();

  /** Forget every run (the room is left). */
  clear(): void {
    this.dropped = [];
    this.stopped = [];
    this.folds.clear();
    this.scanned.clear();
    this.lastKey = '';
    this.lastResults = [];
    this.behind = false;
  }

}

/** An error's message in plain text, bounded (it may quote a classmate's data). */
function reasonOf(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
