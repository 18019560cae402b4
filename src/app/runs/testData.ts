/**
 * Saved runs for the unit tests: a run's events, a checkpoint of the same experiment (tiny,
 * plain data) and an in-memory RunStore that behaves as savedRuns.ts's IndexedDB one does
 * (one write lands whole or not at all) and can be told to fail like a full disk.
 * (Test data only; the app never uses it.)
 */
import { PRESETS } from '../../core/experiment/presets';
import type { Checkpoint } from '../../core/experiment/runner';
import type { RunSummary } from '../../core/experiment/events';
import type { RecordedEvent } from '../store/record';
import { armMetrics, stepEvent } from '../store/fixtures';
import type { SavedRunMeta } from './runData';
import { type RawRun, RunGoneError, type RunStore, type RunWrite } from './savedRuns';

export const spec = { ...structuredClone(PRESETS.quick.spec), steps: 8 };

export const base: RecordedEvent = {
  type: 'base',
  members: [{ id: 'A', family: 'mlp', params: 10, label: 'A' }],
  base: [{ memberId: 'A', passAt1: 0.4, majAtG: 0.6 }],
  baseKappa: [],
};

export function step(n: number): RecordedEvent {
  return stepEvent(n, [armMetrics('self', 'self', { A: { reward: n / 10 } })], { steps: spec.steps });
}

const summary: RunSummary = { seed: spec.seed, arms: [], base: [], baseKappa: [], medianStepMs: 1, backend: 'wasm' };

export function done(): RecordedEvent {
  return { type: 'done', summary };
}

/** base, steps 1..n, and 'done' when n is the last step. */
export function eventsThrough(n: number): RecordedEvent[] {
  const evs = [base, ...Array.from({ length: n }, (_, i) => step(i + 1))];
  return n === spec.steps ? [...evs, done()] : evs;
}

/** A checkpoint of `spec` at `atStep` as the page stores it: every member and arm, tiny weights. */
export function checkpoint(atStep: number, over: Partial<Checkpoint> = {}): Checkpoint {
  const w = () => ({ name: 'w', shape: [2, 2], values: new Float32Array([1, 2, 3, 4]) });
  const ids = spec.members.map((m) => m.id);
  return {
    version: 1,
    spec,
    step: atStep,
    members: ids.map((id) => ({ id, family: 'mlp', params: 4, label: id })),
    references: Object.fromEntries(ids.map((id) => [id, [w()]])),
    arms: spec.arms.map((a) => ({
      id: a.id,
      members: a.members.map((id) => ({ id, weights: [w()], optimizer: { step: atStep, m: [new Float32Array(4)], v: [new Float32Array(4)] } })),
    })),
    summary: {
      ...summary,
      arms: spec.arms.map((a) => ({ id: a.id, scheme: a.scheme, members: a.members.map((id) => ({ id, family: 'mlp', params: 4, history: [], collapseStep: null })), pairs: [], ensemble: [] })),
    },
    ...over,
  };
}

export function meta(over: Partial<SavedRunMeta> = {}): SavedRunMeta {
  return {
    id: 'run-1',
    name: 'Quick look',
    createdAt: 1000,
    updatedAt: 1000,
    presetId: 'quick',
    edited: false,
    spec,
    backend: 'wasm',
    status: 'running',
    stepsDone: 0,
    eventCount: 0,
    checkpointStep: null,
    error: null,
    ...over,
  };
}

/** A quota error as browsers throw it. */
export function quotaError(): Error {
  const e = new Error('The quota has been exceeded.');
  e.name = 'QuotaExceededError';
  return e;
}

export class MemoryRunStore implements RunStore {
  readonly runs = new Map<string, SavedRunMeta>();
  readonly events = new Map<string, Map<number, unknown>>();
  readonly checkpoints = new Map<string, unknown>();
  /** Set to make every write throw it (and change nothing). */
  failWith: Error | null = null;
  writes: RunWrite[] = [];

  async list(): Promise<unknown[]> {
    return [...this.runs.values()].map((m) => structuredClone(m));
  }
  async load(id: string): Promise<RawRun | null> {
    const meta = this.runs.get(id);
    if (!meta) return null;
    const evs = [...(this.events.get(id) ?? new Map()).entries()].sort(([a], [b]) => a - b).map(([seq, event]) => ({ seq, event }));
    return structuredClone({ meta, events: evs, checkpoint: this.checkpoints.get(id) ?? null });
  }
  async write(w: RunWrite): Promise<void> {
    if (this.failWith) throw this.failWith;
    const stored = this.runs.get(w.id);
    if (!stored && !w.create) throw new RunGoneError(w.id);
    this.writes.push(structuredClone(w));
    this.runs.set(w.id, structuredClone({ ...(stored ?? w.create!), ...w.patch, id: w.id }));
    const evs = this.events.get(w.id) ?? new Map<number, unknown>();
    if (w.truncateFrom !== undefined) for (const seq of [...evs.keys()]) if (seq >= w.truncateFrom) evs.delete(seq);
    for (const e of w.events ?? []) evs.set(e.seq, structuredClone(e.event));
    this.events.set(w.id, evs);
    if (w.checkpoint) this.checkpoints.set(w.id, structuredClone(w.checkpoint));
  }
  async delete(id: string): Promise<void> {
    this.runs.delete(id);
    this.events.delete(id);
    this.checkpoints.delete(id);
  }
}
