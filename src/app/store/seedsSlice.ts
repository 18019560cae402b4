/**
 * Seeds slice: "Run N seeds" trains the experiment once per seed (spec.seed, spec.seed + 1, ...),
 * one after another (src/app/seedRuns.ts drives it). Each finished seed's RunRecord is kept here
 * with its chart columns (replayed once) and run summary, for the seed bands on the charts and the
 * claims counted over seeds. Reset clears it, and so does a plain Start.
 */
import type { BaseEvaluation, RunSummary } from '../../core/experiment/events';
import { type RunRecord, replayRecord } from './record';
import type { RunSeries } from './series';
import type { LabSlice } from './types';

/** How many seeds "Run N seeds" may run. */
export const MIN_SEEDS = 2;
export const MAX_SEEDS = 8;
export const DEFAULT_SEEDS = 3;

export interface SeedResult {
  seed: number;
  record: RunRecord;
  series: RunSeries;
  /** The run's base evaluation, one per member (the scoreboard's "base" column). */
  base: BaseEvaluation[];
  /**
   * The runner's summary (the record's 'done' event); for an unfinished run (a class room's
   * browser still training) the summary so far, folded from its events.
   */
  summary: RunSummary | null;
  /** Whether the run ended with 'done' (an unfinished one counts "so far"). */
  finished: boolean;
}

export interface SeedPlan {
  firstSeed: number;
  count: number;
  /** 0-based: the seed training now is firstSeed + index. */
  index: number;
  /** The run of that seed (0 while it is being started). */
  runId: number;
}

export interface SeedsState {
  /** The sequence in progress (null: none). */
  plan: SeedPlan | null;
  /** Finished seeds, in order. */
  results: SeedResult[];
  /** Why the sequence ended before its last seed: a seed's error in words (a warm start's miss), else null. */
  stopped: string | null;
}

export function initialSeedsState(): SeedsState {
  return { plan: null, results: [], stopped: null };
}

export function clampSeeds(n: number): number {
  return Number.isFinite(n) ? Math.min(MAX_SEEDS, Math.max(MIN_SEEDS, Math.round(n))) : DEFAULT_SEEDS;
}

/** A seed's result: its columns as a live run would have drawn them, and its summary (so far). */
export function seedResult(record: RunRecord): SeedResult {
  const done = record.events.at(-1);
  const replayed = replayRecord(record, 0);
  const finished = done?.type === 'done';
  return { seed: record.spec.seed, record, series: replayed.series, base: replayed.base, summary: finished ? done.summary : replayed.summary, finished };
}

export interface SeedsSlice {
  seeds: SeedsState;
  /** A new sequence; forgets earlier results. */
  beginSeeds(firstSeed: number, count: number): void;
  seedStarted(index: number, runId: number): void;
  addSeedResult(record: RunRecord): void;
  /** The sequence is over (finished, stopped or cancelled); its results stay. `stopped`: a seed's error that ended it. */
  endSeeds(stopped?: string): void;
  clearSeeds(): void;
}

export const createSeedsSlice: LabSlice<SeedsSlice> = (set) => ({
  seeds: initialSeedsState(),
  beginSeeds: (firstSeed, count) => set({ seeds: { plan: { firstSeed, count: clampSeeds(count), index: 0, runId: 0 }, results: [], stopped: null } }),
  seedStarted: (index, runId) => set((s) => (s.seeds.plan ? { seeds: { ...s.seeds, plan: { ...s.seeds.plan, index, runId } } } : {})),
  addSeedResult: (record) => set((s) => ({ seeds: { ...s.seeds, results: [...s.seeds.results, seedResult(record)] } })),
  endSeeds: (stopped) => set((s) => (s.seeds.plan ? { seeds: { ...s.seeds, plan: null, stopped: stopped ?? null } } : {})),
  clearSeeds: () => set((s) => (s.seeds.plan || s.seeds.results.length ? { seeds: initialSeedsState() } : {})),
});
