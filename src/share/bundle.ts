/**
 * Run files: a whole run (src/share/record.ts: the spec, the backend and the runner events) as
 * one versioned JSON document a student can download, keep, send and open again in the lab:
 *
 *   { "format": "cohort-lab-run", "version": 2, "name": "collapse, seed 1", "createdAt": "2025-…Z",
 *     "app": { "name": "cohort-lab", "version": "0.1.0" }, "preset": "collapse",
 *     "record": { "spec": { … }, "backend": "wasm", "events": [ base, step 1, …, done ] } }
 *
 * Since version 2 a file may hold several runs of one experiment: `seeds`, one record per seed
 * (a class room's browsers, each its own seed; "Run N seeds"), with `record` the first of them.
 * The lab opens such a file as it shows "Run N seeds": bands and claims over the seeds. A run in
 * `seeds` may be unfinished (a browser that was still training); it must hold one RL step.
 * Version 1 files (one run) open unchanged: the migration only renumbers them.
 *
 * Like share links (url.ts), a run file is untrusted input: it is refused unread above
 * MAX_BUNDLE_CHARS, must be JSON of this format, is upgraded from older versions by
 * BUNDLE_MIGRATIONS (a newer one asks for a reload), and is validated by the spec's schema and the
 * event schemas (runEventsSchema.ts), then checked for consistency with its spec. Every failure is
 * a message in words (shown as text), never a throw.
 */
import { parseStrictJson } from '../core/strictJson';
import { version as appVersion } from '../../package.json';
import { getPreset } from '../core/experiment/presets';
import { ExperimentSpecSchema, SPEC_VERSION } from '../core/experiment/spec';
import type { RecordedEvent, RunRecord } from './record';
import { RecordedEventsSchema, RUN_LIMITS } from './runEventsSchema';
import { z } from '../core/zod';
import { isPlainObject, quoteText, upgrade, zodIssues } from '../core/persisted';

export const BUNDLE_FORMAT = 'cohort-lab-run';
/** The run file format this code writes. Bump it, and add a BUNDLE_MIGRATIONS entry, when it changes. */
export const BUNDLE_VERSION = 2;
/** Largest run file read, in characters (about bytes: the file is ASCII JSON); larger ones are refused unread. */
export const MAX_BUNDLE_CHARS = 25 * 1024 * 1024;
/** Longest run name. */
export const MAX_NAME_CHARS = 120;
/** Runs in one file's `seeds`, at most (a class room's seats: src/room/protocol.ts ROOM_LIMITS.seats). */
export const MAX_BUNDLE_SEEDS = 200;
/** Rollout samples (the inspector's) are kept for this many last steps, as the live page keeps them. */
export const BUNDLE_SAMPLE_STEPS = 200;

export interface RunBundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  name: string;
  /** ISO 8601 time the file was written. */
  createdAt: string;
  /** The app that wrote it (absent: not known). */
  app?: { name: string; version: string };
  /** The preset the experiment started from, when it is one this page knows (absent: none). */
  preset?: string;
  record: RunRecord;
  /** Several runs of the experiment, one per seed (absent: the file holds one run, `record`). */
  seeds?: RunRecord[];
}

export type BundleErrorKind = 'too-large' | 'not-json' | 'wrong-format' | 'newer-version' | 'old-version' | 'invalid';
export type ParseBundleResult = { ok: true; bundle: RunBundle } | { ok: false; kind: BundleErrorKind; error: string };

/**
 * `BUNDLE_MIGRATIONS[n]` turns a version-n document (parsed JSON, not yet validated) into a
 * version-(n+1) one, e.g. for a renamed field
 *   1: (doc) => ({ ...doc, version: 2, record: { ...(doc.record as object), events: renamed(…) } })
 * so every file written before keeps opening (bundle.test.ts shows a v0 -> v1 example).
 */
export type BundleMigration = (doc: Record<string, unknown>) => Record<string, unknown>;
export const BUNDLE_MIGRATIONS: Readonly<Record<number, BundleMigration>> = {
  // v2 added `seeds` (optional): a v1 file is a v2 file of one run.
  1: (doc) => ({ ...doc, version: 2 }),
};

const name = z
  .string()
  .max(MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`)
  .refine((s) => s.trim().length > 0, 'a run needs a name');

const RecordSchema = z.object({
  spec: ExperimentSpecSchema,
  backend: z.string().max(RUN_LIMITS.label).nullable(),
  events: RecordedEventsSchema,
});

const BundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  name,
  createdAt: z.iso.datetime({ offset: true }),
  app: z.object({ name: z.string().max(40), version: z.string().max(40) }).optional(),
  preset: z.string().max(40).optional(),
  record: RecordSchema,
  seeds: z.array(RecordSchema).min(1).max(MAX_BUNDLE_SEEDS, `at most ${MAX_BUNDLE_SEEDS} runs`).optional(),
});

/**
 * The run file of a record, as compact JSON. Warm-start progress is not in a record; rollout
 * samples are kept for the last BUNDLE_SAMPLE_STEPS steps only (what the inspector holds live).
 */
export function serializeBundle(record: RunRecord, runName: string, opts: { createdAt?: Date; preset?: string; seeds?: readonly RunRecord[] } = {}): string {
  const bundle: RunBundle = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    name: cleanName(runName),
    createdAt: (opts.createdAt ?? new Date()).toISOString(),
    app: { name: 'cohort-lab', version: appVersion },
    ...(opts.preset && getPreset(opts.preset) ? { preset: opts.preset } : {}),
    record: trimmed(record),
    ...(opts.seeds?.length ? { seeds: opts.seeds.map(trimmed) } : {}),
  };
  return JSON.stringify(bundle);
}

/** Several runs of one experiment (a class room's, one per seat) as one file; the first is `record`. */
export function serializeSeedsBundle(seeds: readonly RunRecord[], runName: string, opts: { createdAt?: Date; preset?: string } = {}): string {
  if (seeds.length === 0) throw new Error('a run file of seeds needs at least one run');
  return serializeBundle(seeds[0], runName, { ...opts, seeds });
}

function trimmed(record: RunRecord): RunRecord {
  const steps = record.events.filter((e) => e.type === 'step');
  const firstSampled = steps.length > BUNDLE_SAMPLE_STEPS ? steps[steps.length - BUNDLE_SAMPLE_STEPS].step : 0;
  const events = record.events.map((e): RecordedEvent => (e.type === 'step' && e.step < firstSampled ? { ...e, samples: [] } : e));
  return { spec: record.spec, backend: record.backend, events };
}

/** A name a run file can hold: one line, trimmed, cut to MAX_NAME_CHARS; 'Cohort Lab run' when empty. */
export function cleanName(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it removes
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, MAX_NAME_CHARS).trim();
  return line || 'Cohort Lab run';
}

/** Read a run file (untrusted). Never throws: a bad file is a message in words, to show as text. */
export function parseBundle(text: string, migrations: Readonly<Record<number, BundleMigration>> = BUNDLE_MIGRATIONS): ParseBundleResult {
  try {
    return parseUnsafe(text, migrations);
  } catch {
    // Every check above returns its own message; this is the net under them (and under migrations).
    return fail('invalid', 'it could not be read');
  }
}

function parseUnsafe(text: string, migrations: Readonly<Record<number, BundleMigration>>): ParseBundleResult {
  if (typeof text !== 'string') return fail('not-json', 'it is not text');
  if (text.length > MAX_BUNDLE_CHARS) return fail('too-large', `it is ${megabytes(text.length)}; the limit is ${megabytes(MAX_BUNDLE_CHARS)}`);
  const json = parseStrictJson(text);
  if (!json.ok) return json.problem === 'not-json' ? fail('not-json', 'it is not valid JSON (cut short, or not a run file)') : fail('invalid', 'it contains a "__proto__" key');
  const value = json.value;
  if (!isPlainObject(value) || value.format !== BUNDLE_FORMAT) {
    const what = isPlainObject(value) && typeof value.format === 'string' ? `its format is ${quoteText(value.format)}` : 'it has no "format" field';
    return fail('wrong-format', `it is not a Cohort Lab run file (${what}; expected "${BUNDLE_FORMAT}")`);
  }

  const up = upgrade(value, BUNDLE_VERSION, migrations, { what: 'run file format' });
  if (!up.ok) return fail(up.kind, up.why);
  const doc = up.doc;

  const specVersion = isPlainObject(doc.record) && isPlainObject(doc.record.spec) ? doc.record.spec.version : undefined;
  if (typeof specVersion === 'number' && specVersion > SPEC_VERSION) {
    return fail('newer-version', `its experiment was written by a newer Cohort Lab (spec version ${specVersion}; this page reads up to ${SPEC_VERSION}). Reload the page to get the latest version`);
  }
  const parsed = BundleSchema.safeParse(doc);
  if (!parsed.success) return fail('invalid', `it holds invalid values: ${zodIssues(parsed.error)}`);
  const bundle = parsed.data as RunBundle;
  const problem = recordProblem(bundle.record);
  if (problem) return fail('invalid', problem);
  for (const [i, seed] of (bundle.seeds ?? []).entries()) {
    const p = recordProblem(seed) ?? sameExperiment(bundle.record, seed);
    if (p) return fail('invalid', `seeds.${i}: ${p}`);
  }
  if (bundle.preset !== undefined && !getPreset(bundle.preset)) delete bundle.preset;
  return { ok: true, bundle };
}

/**
 * What the schemas cannot see: the events must be a run of this spec, in order (what the reducer
 * and the panels take for granted). Null when they are.
 */
export function recordProblem(record: RunRecord): string | null {
  const { spec, events } = record;
  if (events[0]?.type !== 'base') return 'its events do not start with the base evaluation';
  const arms = new Map(spec.arms.map((a) => [a.id, new Set(a.members)]));
  const memberIds = new Set(spec.members.map((m) => m.id));
  let last = 0;
  for (let i = 1; i < events.length; i++) {
    const ev = events[i];
    const at = `record.events.${i}`;
    if (ev.type === 'base') return `${at}: a second base evaluation`;
    if (ev.type === 'done') {
      if (i !== events.length - 1) return `${at}: events after the end of the run`;
      const unknown = ev.summary.arms.find((a) => !arms.has(a.id));
      if (unknown) return `${at}.summary: arm ${quoteText(unknown.id)} is not in the experiment`;
      continue;
    }
    if (ev.type === 'nonfinite') {
      // The step that blew up never came: it is the one after the last, and it ends the run.
      if (i !== events.length - 1) return `${at}: events after the end of the run`;
      if (ev.step !== last + 1 || ev.step > spec.steps) return `${at}: the run stopped at step ${ev.step} but its last step was ${last}`;
      if (!arms.get(ev.armId)?.has(ev.memberId)) return `${at}: arm ${quoteText(ev.armId)} has no member ${quoteText(ev.memberId)}`;
      continue;
    }
    if (ev.step <= last) return `${at}: step ${ev.step} comes after step ${last}`;
    if (ev.step > spec.steps || ev.steps !== spec.steps) return `${at}: step ${ev.step} of ${ev.steps} does not fit an experiment of ${spec.steps} steps`;
    last = ev.step;
    for (const arm of ev.arms) {
      const members = arms.get(arm.armId);
      if (!members) return `${at}: arm ${quoteText(arm.armId)} is not in the experiment`;
      const stranger = Object.keys(arm.members).find((m) => !members.has(m));
      if (stranger) return `${at}: arm ${arm.armId} has no member ${quoteText(stranger)}`;
      const pair = arm.pairs.find((p) => !members.has(p.a) || !members.has(p.b));
      if (pair) return `${at}: arm ${arm.armId} has no pair ${quoteText(`${pair.a}-${pair.b}`)}`;
    }
    if (ev.samples.some((s) => !arms.has(s.armId) || s.members.some((m) => !memberIds.has(m.memberId)))) return `${at}: a rollout sample names an arm or member not in the experiment`;
  }
  if (last === 0) return 'it holds no RL step';
  return null;
}

/** The runs of a file's `seeds` are one experiment: the same arms and members (seeds may differ). */
function sameExperiment(first: RunRecord, other: RunRecord): string | null {
  const shape = (r: RunRecord) => JSON.stringify(r.spec.arms.map((a) => [a.id, a.scheme, a.members]));
  return shape(first) === shape(other) ? null : 'its arms or members are not those of the first run';
}

function fail(kind: BundleErrorKind, why: string): ParseBundleResult {
  return { ok: false, kind, error: `This run file could not be loaded: ${why}.` };
}

export function megabytes(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
