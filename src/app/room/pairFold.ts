/**
 * A paired room's pair, merged and folded as its seats' events come: the run mergePairRun
 * (pairRun.ts) makes of the two seats' events, built a step at a time and kept between the class's
 * rebuilds, so that a rebuild merges and folds only the steps that came since the last one.
 *
 * A step is merged once both seats have it (a pair of one seat: once it has it). The seats train
 * in lockstep (each waits for its partner's answers), so a step one seat has and the other not yet
 * is drawn at the next rebuild, when the partner's has come; mergePairRun, which the room's export
 * uses, shows such a step as the one seat made it. The set of seats is fixed: a second seat that
 * starts is a new PairFold (the pair's base changes with it).
 */
import { mergeMemberBases, mergeMemberSteps, pairSpec } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { median } from '../../core/median';
import type { RecordedEvent } from '../store/record';
import { RunFold, always } from './runFold';

type Base = Extract<RecordedEvent, { type: 'base' }>;
type Progress = Extract<RecordedEvent, { type: 'step' | 'nonfinite' }>;
type Done = Extract<RecordedEvent, { type: 'done' }>;

const said = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class PairFold {
  readonly fold: RunFold;
  /** Why the merge stopped (null: it did not). */
  problem: string | null = null;
  private stopped = false;
  private started = false;
  private next = 1;
  private readonly scanned: number[];
  private readonly progress: Map<number, Progress>[];
  private readonly dones: Done[][];
  private readonly stepMs: number[] = [];

  /** `spec`: the seats' experiment with the pair's seed; `sides`: how many seats the pair has (1 or 2). */
  constructor(
    private readonly spec: ExperimentSpec,
    private readonly armId: string,
    private readonly sides: number,
  ) {
    this.fold = new RunFold(pairSpec(spec, armId));
    this.scanned = Array.from({ length: sides }, () => 0);
    this.progress = Array.from({ length: sides }, () => new Map());
    this.dones = Array.from({ length: sides }, () => []);
  }

  /**
   * The seats' events (each whole, in order, from position 0) merged and folded from where the last
   * call stopped, a step at a time while `more()` says so. Returns events folded.
   */
  advance(sides: readonly (readonly RecordedEvent[])[], more: () => boolean = always): number {
    if (sides.length !== this.sides) throw new Error(`a pair of ${this.sides} seats was given ${sides.length}`);
    const before = this.fold.folded;
    if (!this.started) this.start(sides);
    sides.forEach((events, k) => this.scan(k, events));
    while (!this.stopped && this.next <= this.spec.steps) {
      const at = this.progress.map((m) => m.get(this.next)).filter((e): e is Progress => e !== undefined);
      if (at.length < this.sides || !more()) break;
      let ev: Progress;
      try {
        ev = at.length === 2 ? mergeMemberSteps(this.spec, this.armId, at, Math.max(...at.map((e) => (e.type === 'step' ? e.stepMs : 0)))) : at[0];
      } catch (e) {
        this.stop(`the pair's step ${this.next} does not merge: ${said(e)}`);
        break;
      }
      this.fold.add(ev);
      this.next++;
      if (ev.type === 'nonfinite') this.stopped = true;
      else this.stepMs.push(ev.stepMs);
    }
    this.maybeDone();
    return this.fold.folded - before;
  }

  private start(sides: readonly (readonly RecordedEvent[])[]): void {
    this.started = true;
    const bases = sides.map((evs) => evs[0]).filter((e): e is Base => e?.type === 'base');
    if (bases.length !== this.sides) {
      this.stopped = true;
      return;
    }
    try {
      this.fold.add(bases.length === 2 ? mergeMemberBases(this.spec, this.armId, bases) : bases[0]);
    } catch (e) {
      this.stop(`the pair's bases do not merge: ${said(e)}`);
    }
  }

  private scan(k: number, events: readonly RecordedEvent[]): void {
    for (let i = this.scanned[k]; i < events.length; i++) {
      const e = events[i];
      if (e.type === 'step' || e.type === 'nonfinite') this.progress[k].set(e.step, e);
      else if (e.type === 'done') this.dones[k].push(e);
    }
    this.scanned[k] = events.length;
  }

  private stop(problem: string): void {
    this.problem = problem;
    this.stopped = true;
  }

  /** Both seats done after every step: the pair's 'done', its summary the one folded here (as mergePairRun folds it). */
  private maybeDone(): void {
    const dones = this.dones.flat();
    const summary = this.fold.summary;
    if (this.stopped || this.sides !== 2 || dones.length !== 2 || this.stepMs.length !== this.spec.steps || !summary) return;
    this.stopped = true;
    this.fold.add({ type: 'done', summary: { ...summary, backend: dones[0].summary.backend, medianStepMs: median(this.stepMs) } });
  }
}
