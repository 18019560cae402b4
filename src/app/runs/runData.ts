/**
 * Saved runs as data (no IndexedDB, no React): what one saved run holds, the checks that
 * stored data is what it should be (it is read back from the browser, so it is untrusted: an
 * older page, another tab or a hand edit may have written it), and the pure steps of saving and
 * resuming: which events a resumed run keeps, the status a worker state means, the list rows.
 *
 * A saved run is three kinds of rows (savedRuns.ts): one SavedRunMeta, its events one row each
 * ({ seq, event }, seq = 0, 1, 2, ... in the order they came), and its latest checkpoint.
 */
import { z } from '../../core/zod';
import { type Checkpoint, checkpointSpecProblem, parseCheckpoint } from '../../core/experiment/checkpoint';
import { zodIssues } from '../../core/persisted';
import { type ExperimentSpec, ExperimentSpecSchema } from '../../core/experiment/spec';
import { getPreset } from '../../core/experiment/presets';
import { nonFiniteNumberAt } from '../../core/json';
import type { RunPhase } from '../../engine/protocol';
import type { RecordedEvent, RunRecord } from '../store/record';

/**
 * 'halted': stopped for good at a step whose numbers were not finite (a resume would rebuild from
 * the last checkpoint and halt at the same step, deterministically), so it is opened, not resumed.
 */
export type SavedRunStatus = 'running' | 'paused' | 'stopped' | 'done' | 'error' | 'halted';
export const SAVED_RUN_STATUSES = ['running', 'paused', 'stopped', 'done', 'error', 'halted'] as const;

/** The row that names and describes a saved run (the list reads only these). */
export interface SavedRunMeta {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  /** The preset the experiment came from, and whether it was edited. */
  presetId: string;
  edited: boolean;
  spec: ExperimentSpec;
  /** The backend it trained on (null: not known yet). */
  backend: string | null;
  status: SavedRunStatus;
  /** Last RL step saved (0: none yet). */
  stepsDone: number;
  /** Events saved: the next event's seq. */
  eventCount: number;
  /** Step of the saved checkpoint (null: none yet; a resume then starts from the beginning). */
  checkpointStep: number | null;
  /** Why it failed, when status is 'error' (plain text). */
  error: string | null;
}

export interface SavedEvent {
  seq: number;
  event: RecordedEvent;
}

/** A saved run read back and checked: what Open, Resume and Overlay work from. */
export interface LoadedRun {
  meta: SavedRunMeta;
  events: RecordedEvent[];
  checkpoint: Checkpoint | null;
}

export const MAX_NAME_CHARS = 80;

// ---------------------------------------------------------------- validation

/** Any number; checkLoadedRun refuses NaN and infinities anywhere in an event (nonFiniteNumberAt). */
const num = z.custom<number>((v) => typeof v === 'number', 'expected a number');
const int = z.number().int().min(0);

export const SavedRunMetaSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are 1-64 letters, digits, - or _'),
  name: z.string().max(MAX_NAME_CHARS),
  createdAt: num,
  updatedAt: num,
  presetId: z.string().max(64),
  edited: z.boolean(),
  spec: ExperimentSpecSchema,
  backend: z.string().max(16).nullable(),
  status: z.enum(SAVED_RUN_STATUSES),
  stepsDone: int,
  eventCount: int,
  checkpointStep: int.nullable(),
  error: z.string().max(2000).nullable(),
});

const MetricsSchema = z.record(z.string(), num.nullable().optional());
const BaseEventSchema = z.looseObject({
  type: z.literal('base'),
  members: z.array(z.looseObject({ id: z.string(), family: z.string(), params: num, label: z.string() })),
  base: z.array(z.looseObject({ memberId: z.string(), passAt1: num, majAtG: num })),
  baseKappa: z.array(z.looseObject({ a: z.string(), b: z.string() })),
});
const StepEventSchema = z.looseObject({
  type: z.literal('step'),
  step: z.number().int().min(1),
  steps: z.number().int().min(1),
  arms: z.array(
    z.looseObject({
      armId: z.string(),
      scheme: z.string(),
      members: z.record(z.string(), MetricsSchema),
      pairs: z.array(z.looseObject({ a: z.string(), b: z.string() })),
    }),
  ),
  samples: z.array(z.looseObject({ armId: z.string(), prompt: z.string(), truth: z.string(), members: z.array(z.looseObject({ memberId: z.string() })) })),
  stepMs: num,
  tokens: num,
});
const DoneEventSchema = z.looseObject({
  type: z.literal('done'),
  summary: z.looseObject({ seed: num, arms: z.array(z.looseObject({ id: z.string() })), base: z.array(z.unknown()) }),
});
const NonFiniteEventSchema = z.object({
  type: z.literal('nonfinite'),
  step: z.number().int().min(1),
  armId: z.string(),
  memberId: z.string(),
  quantity: z.enum(['loss', 'gradient', 'weight']),
  value: z.enum(['NaN', 'Infinity', '-Infinity']),
  explanation: z.string().max(2000),
});
export const SavedEventSchema = z.object({
  seq: int,
  event: z.discriminatedUnion('type', [BaseEventSchema, StepEventSchema, DoneEventSchema, NonFiniteEventSchema]),
});

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

export function checkMeta(raw: unknown): Checked<SavedRunMeta> {
  const r = SavedRunMetaSchema.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, problem: zodIssues(r.error) };
}

/**
 * A saved run's stored rows, checked: every event row has the right shape, they are numbered
 * 0 ... n-1 in order (a gap means lost events), the first is 'base', steps count up by one, and
 * the checkpoint is of this experiment at a step the events reach.
 */
export function checkLoadedRun(rawMeta: unknown, rawEvents: unknown[], rawCheckpoint: unknown): Checked<LoadedRun> {
  const meta = checkMeta(rawMeta);
  if (!meta.ok) return { ok: false, problem: `its description is damaged (${meta.problem})` };
  const events: RecordedEvent[] = [];
  let lastStep = 0;
  for (const [i, raw] of rawEvents.entries()) {
    const r = SavedEventSchema.safeParse(raw);
    if (!r.success) return { ok: false, problem: `saved event ${i} is damaged (${zodIssues(r.error)})` };
    if (r.data.seq !== i) return { ok: false, problem: `saved event ${i} is missing` };
    // A run stops at the step that would record a NaN or an infinity: one stored is damage.
    const bad = nonFiniteNumberAt(r.data.event);
    if (bad) return { ok: false, problem: `saved event ${i} is damaged (${bad.path}: ${bad.value} is not a finite number)` };
    const ev = r.data.event as unknown as RecordedEvent;
    const ended = events.at(-1)?.type === 'done' || events.at(-1)?.type === 'nonfinite';
    if ((i === 0) !== (ev.type === 'base') || ended) return { ok: false, problem: `saved event ${i} is out of order` };
    if (ev.type === 'step') {
      if (ev.step !== lastStep + 1) return { ok: false, problem: `saved step ${lastStep + 1} is missing` };
      lastStep = ev.step;
    }
    events.push(ev);
  }
  let checkpoint: Checkpoint | null = null;
  if (rawCheckpoint != null) {
    // The checkpoint format's own checks (core/experiment/checkpoint.ts); the worker and the
    // runner add the shapes of the weights when a resume hands it back.
    const r = parseCheckpoint(rawCheckpoint);
    if (!r.ok) return { ok: false, problem: `its checkpoint is damaged (${r.problem})` };
    checkpoint = r.checkpoint;
    const problem = checkpointSpecProblem(meta.value.spec, checkpoint);
    if (problem) return { ok: false, problem: `its checkpoint does not fit it (${problem})` };
    if (checkpoint.step > lastStep) return { ok: false, problem: `its checkpoint is at step ${checkpoint.step} but its events end at step ${lastStep}` };
  }
  return { ok: true, value: { meta: meta.value, events, checkpoint } };
}

// ---------------------------------------------------------------- saving and resuming

/**
 * The status a worker state means for the saved run (null: none, the run has not started).
 * `halted`: the worker stopped the run at a non-finite step (paused for good).
 */
export function statusOf(phase: RunPhase, paused: boolean, halted = false): SavedRunStatus | null {
  if (halted) return 'halted';
  switch (phase) {
    case 'preparing':
    case 'warmstart':
    case 'rl':
      return paused ? 'paused' : 'running';
    case 'done':
    case 'stopped':
    case 'error':
      return phase;
    default:
      return null;
  }
}

/**
 * The events up to and including RL step `step` (the base and steps 1..step); later steps and
 * 'done' or 'nonfinite' are dropped. A run resumed from a checkpoint of that step emits them again.
 */
export function eventsThroughStep(events: readonly RecordedEvent[], step: number): RecordedEvent[] {
  const kept: RecordedEvent[] = [];
  for (const ev of events) {
    if (ev.type === 'done' || ev.type === 'nonfinite' || (ev.type === 'step' && ev.step > step)) break;
    kept.push(ev);
  }
  return kept;
}

/** How a saved, unfinished run continues: the events it keeps and the checkpoint it starts from. */
export interface ResumePlan {
  keep: RecordedEvent[];
  /** null: no checkpoint was saved (stopped during the warm start): the run starts again. */
  checkpoint: Checkpoint | null;
}

export function resumePlan(run: LoadedRun): ResumePlan {
  if (!run.checkpoint) return { keep: [], checkpoint: null };
  return { keep: eventsThroughStep(run.events, run.checkpoint.step), checkpoint: run.checkpoint };
}

export function recordOf(run: LoadedRun, events: RecordedEvent[] = run.events): RunRecord {
  return { spec: run.meta.spec, backend: run.meta.backend, events };
}

// ---------------------------------------------------------------- the list

/** What the runs list shows of one saved run. */
export interface RunRow {
  id: string;
  name: string;
  /** "Quick look (edited): 2 members, 3 arms, seed 1". */
  summary: string;
  stepsDone: number;
  steps: number;
  /** Step of the saved checkpoint a resume starts from (null: none, it starts again). */
  checkpointStep: number | null;
  status: SavedRunStatus;
  /** The status in words ("interrupted" for a run that was going when the page closed). */
  statusText: string;
  createdAt: number;
  /** Training in this page now. */
  live: boolean;
  /** Can be continued (not finished, not halted). */
  resumable: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function specSummary(presetId: string, edited: boolean, spec: ExperimentSpec): string {
  const title = getPreset(presetId)?.title ?? presetId;
  return `${title}${edited ? ' (edited)' : ''}: ${plural(spec.members.length, 'member')}, ${plural(spec.arms.length, 'arm')}, seed ${spec.seed}`;
}

export function statusText(status: SavedRunStatus, live: boolean): string {
  switch (status) {
    case 'running':
      return live ? 'running' : 'interrupted';
    case 'paused':
      return 'paused';
    case 'stopped':
      return 'stopped';
    case 'done':
      return 'finished';
    case 'error':
      return 'failed';
    case 'halted':
      return 'halted: not finite';
  }
}

/** The list, newest first. `liveId`: the saved run training in this page now. */
export function listRows(metas: readonly SavedRunMeta[], liveId: string | null): RunRow[] {
  return [...metas]
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
    .map((m) => ({
      id: m.id,
      name: m.name,
      summary: specSummary(m.presetId, m.edited, m.spec),
      stepsDone: m.stepsDone,
      steps: m.spec.steps,
      checkpointStep: m.checkpointStep,
      status: m.status,
      statusText: statusText(m.status, m.id === liveId),
      createdAt: m.createdAt,
      live: m.id === liveId,
      resumable: m.status !== 'done' && m.status !== 'halted',
    }));
}

/** A run's default name: its preset's title (edited or not). */
export function defaultRunName(presetId: string, edited: boolean): string {
  return `${getPreset(presetId)?.title ?? 'Custom experiment'}${edited ? ' (edited)' : ''}`.slice(0, MAX_NAME_CHARS);
}

/** A name typed by the user: trimmed, one line, at most MAX_NAME_CHARS (null: empty). */
export function cleanName(raw: string): string | null {
  const name = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_CHARS);
  return name === '' ? null : name;
}
