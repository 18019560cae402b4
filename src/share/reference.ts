/**
 * Reference runs: what a shipped preset measured over several seeds, as one compact, versioned
 * JSON file per preset (public/references/PRESET.json, made by `npm run references` from the
 * results of `npm run science -- --save DIR`), drawn dashed behind the live curves so a student
 * sees at once whether a run matches, or shown alone on a machine too slow to train it.
 *
 *   { "format": "cohort-lab-reference", "version": 1, "preset": "collapse",
 *     "createdAt": "2025-…Z", "app": { "name": "cohort-lab", "version": "0.1.0" },
 *     "seeds": [1, 2, …, 8], "backend": "wasm", "medianStepMs": 180,
 *     "band": "sd", "decimals": 3,
 *     "fingerprint": "1x2y3z", "spec": { … },        // the preset's spec (seed: the preset's)
 *     "steps": [1, 2, …, 80], "evalSteps": [10, 20, …, 80],
 *     "base": { "members": [ { "id": "A", "passAt1": { "mean": 0.43, "sd": 0.02 }, … } ],
 *               "pairs": [ { "a": "A", "b": "B", "kappa": {…}, "bothWrongSame": {…}, "pooledMajAtG": {…} } ] },
 *     "arms": [ { "id": "self", "scheme": "self",
 *        "members": [ { "id": "A", "reward": { "mean": [0.5, …], "sd": [0.03, …] }, …,      // per step
 *                       "evalPassAt1": { "mean": [0.44, …], "sd": […] }, … } ],          // per eval step
 *        "pairs": [ { "a": "A", "b": "B", "agreement": {…}, "kappa": {…}, …, "evalKappa": {…}, … } ],
 *        "ensembleMajAtG": { "mean": […], "sd": […] } } ] }                              // per eval step
 *
 * Every value is the mean over the seeds where the metric is defined (a rate can be undefined at
 * a step, e.g. no labeled prompt; a diverged update reports NaN): `mean` is that mean and `sd` the
 * sample standard deviation (n - 1) over the same seeds, so the band is mean ± sd (`band: "sd"`);
 * null where no seed defines the value (sd: fewer than two seeds). Both are rounded to
 * REFERENCE_DECIMALS decimals, which keeps a preset's file well under 100 KB.
 *
 * `fingerprint` is referenceFingerprint(spec): the spec's fingerprint with the seed left out (the
 * seeds are what a reference summarises), so a reference applies to its preset exactly while the
 * preset is unchanged; `npm run references -- --check` fails once a preset has been retuned.
 *
 * A reference file is fetched from the site and read like any untrusted input (run files,
 * bundle.ts): refused unread above MAX_REFERENCE_CHARS, validated by a bounded zod schema, then
 * checked for consistency with its own spec; every failure is a message in words, never a throw.
 */
import { parseStrictJson } from '../core/strictJson';
import { z } from '../core/zod';
import { isPlainObject, quoteText, upgrade, zodIssues } from '../core/persisted';
import { ExperimentSpecSchema, REWARD_SCHEMES, SPEC_VERSION, type ExperimentSpec, type RewardSchemeId } from '../core/experiment/spec';
import { specFingerprint } from './url';
import { RUN_LIMITS } from './runEventsSchema';

export const REFERENCE_FORMAT = 'cohort-lab-reference';
/** The reference format this code writes. Bump it, and add a REFERENCE_MIGRATIONS entry, when it changes. */
export const REFERENCE_VERSION = 1;
/** Largest reference file read, in characters; larger ones are refused unread (the shipped ones are < 100 KB). */
export const MAX_REFERENCE_CHARS = 2 * 1024 * 1024;
/** Decimals every mean and sd is rounded to. */
export const REFERENCE_DECIMALS = 3;
/** The most seeds one reference summarises (the CLIs' limit). */
export const MAX_REFERENCE_SEEDS = 50;

/** Per member, one value per RL step: the metrics the charts draw. */
export const REFERENCE_MEMBER_METRICS = [
  'reward',
  'oracleReward',
  'pseudoLabelAccuracy',
  'ownVoteAccuracy',
  'rescueRate',
  'misleadRate',
  'sharedErrorRate',
  'entropy',
  'length',
] as const;
/** Per member, one value per evaluation step (held out). */
export const REFERENCE_MEMBER_EVAL_METRICS = ['evalPassAt1', 'evalMajAtG'] as const;
/** Per pair of an arm, one value per RL step. */
export const REFERENCE_PAIR_METRICS = ['agreement', 'kappa', 'bothWrongSame'] as const;
/** Per pair of an arm, one value per evaluation step (held out). */
export const REFERENCE_PAIR_EVAL_METRICS = ['evalKappa', 'evalBothWrongSame'] as const;

export type ReferenceMemberMetric = (typeof REFERENCE_MEMBER_METRICS)[number] | (typeof REFERENCE_MEMBER_EVAL_METRICS)[number];
export type ReferencePairMetric = (typeof REFERENCE_PAIR_METRICS)[number] | (typeof REFERENCE_PAIR_EVAL_METRICS)[number];

/** Seed-mean and sample sd of a metric along the steps (or the evaluation steps); null: undefined there. */
export interface SeriesStat {
  mean: (number | null)[];
  sd: (number | null)[];
}

/** Seed-mean and sample sd of one number (the base evaluation). */
export interface ScalarStat {
  mean: number | null;
  sd: number | null;
}

export type ReferenceMember = { id: string } & Record<ReferenceMemberMetric, SeriesStat>;
export type ReferencePair = { a: string; b: string } & Record<ReferencePairMetric, SeriesStat>;

export interface ReferenceArm {
  id: string;
  scheme: RewardSchemeId;
  members: ReferenceMember[];
  pairs: ReferencePair[];
  /** The compute-matched control (first two members pooled by maj@G), per evaluation step; absent for one-member arms. */
  ensembleMajAtG?: SeriesStat;
}

export interface ReferenceFile {
  format: typeof REFERENCE_FORMAT;
  version: typeof REFERENCE_VERSION;
  /** The preset it is the reference of. */
  preset: string;
  /** ISO 8601 time it was made. */
  createdAt: string;
  app?: { name: string; version: string };
  /** The seeds it summarises, in the order of the result file. */
  seeds: number[];
  /** The backend the runs trained on. */
  backend: string;
  /** Median over the seeds of each run's median GRPO step time (ms), on the machine that made it. */
  medianStepMs: number | null;
  /** What the band around the mean is: mean ± sd (sample standard deviation over the seeds). */
  band: 'sd';
  decimals: number;
  fingerprint: string;
  spec: ExperimentSpec;
  /** RL step numbers, strictly increasing: every per-step column has this length. */
  steps: number[];
  /** The evaluation steps (a subset of `steps`): every eval column has this length. */
  evalSteps: number[];
  base: {
    members: { id: string; passAt1: ScalarStat; majAtG: ScalarStat }[];
    pairs: { a: string; b: string; kappa: ScalarStat; bothWrongSame: ScalarStat; pooledMajAtG: ScalarStat }[];
  };
  arms: ReferenceArm[];
}

/** The index of shipped references (public/references/index.json): which presets have one, so the page asks for nothing else. */
export const REFERENCE_INDEX_FORMAT = 'cohort-lab-references';
export const REFERENCE_INDEX_FILE = 'index.json';
export const MAX_REFERENCE_INDEX_CHARS = 64 * 1024;

export interface ReferenceIndexEntry {
  preset: string;
  file: string;
  fingerprint: string;
  seeds: number[];
  bytes: number;
}

export interface ReferenceIndex {
  format: typeof REFERENCE_INDEX_FORMAT;
  version: typeof REFERENCE_VERSION;
  references: ReferenceIndexEntry[];
}

/** The spec's fingerprint (share links' specFingerprint) with the seed left out: what a reference is valid for. */
export function referenceFingerprint(spec: ExperimentSpec): string {
  return specFingerprint({ ...spec, seed: 0 });
}

/** A value rounded to REFERENCE_DECIMALS decimals (-0 written as 0); null for null, NaN and ±Infinity. */
export function roundValue(v: number | null | undefined, decimals = REFERENCE_DECIMALS): number | null {
  if (v == null || !Number.isFinite(v)) return null;
  const f = 10 ** decimals;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r;
}

/**
 * Seed-mean and sample sd of the defined values (null, NaN and ±Infinity are undefined), rounded.
 * No defined value: both null; one: sd null.
 */
export function meanSd(values: readonly (number | null | undefined)[], decimals = REFERENCE_DECIMALS): ScalarStat {
  const xs = values.filter((v): v is number => v != null && Number.isFinite(v));
  if (xs.length === 0) return { mean: null, sd: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean: roundValue(mean, decimals), sd: roundValue(sd, decimals) };
}

// ---- reading ------------------------------------------------------------------------------------

export type ReferenceErrorKind = 'too-large' | 'not-json' | 'wrong-format' | 'newer-version' | 'old-version' | 'invalid';
export type ParseReferenceResult = { ok: true; reference: ReferenceFile } | { ok: false; kind: ReferenceErrorKind; error: string };
export type ParseIndexResult = { ok: true; index: ReferenceIndex } | { ok: false; kind: ReferenceErrorKind; error: string };

/** `REFERENCE_MIGRATIONS[n]` turns a version-n document into a version-(n+1) one (as BUNDLE_MIGRATIONS, bundle.ts). */
export type ReferenceMigration = (doc: Record<string, unknown>) => Record<string, unknown>;
export const REFERENCE_MIGRATIONS: Readonly<Record<number, ReferenceMigration>> = {};

const L = RUN_LIMITS;
const id = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'ids are 1-24 letters, digits, - or _, starting with a letter');
const presetId = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'preset ids are 1-40 lowercase letters, digits or -');
const value = z.number().min(-1e9).max(1e9).nullable();
const column = z.array(value).max(L.steps);
const seriesStat = z.object({ mean: column, sd: column });
const scalarStat = z.object({ mean: value, sd: value });
const stepNumber = z.number().int().min(1).max(L.steps);
const seed = z.number().int().min(0).max(2 ** 31 - 1);

const memberShape = Object.fromEntries([...REFERENCE_MEMBER_METRICS, ...REFERENCE_MEMBER_EVAL_METRICS].map((m) => [m, seriesStat])) as Record<ReferenceMemberMetric, typeof seriesStat>;
const pairShape = Object.fromEntries([...REFERENCE_PAIR_METRICS, ...REFERENCE_PAIR_EVAL_METRICS].map((m) => [m, seriesStat])) as Record<ReferencePairMetric, typeof seriesStat>;

const ReferenceSchema = z.object({
  format: z.literal(REFERENCE_FORMAT),
  version: z.literal(REFERENCE_VERSION),
  preset: presetId,
  createdAt: z.iso.datetime({ offset: true }),
  app: z.object({ name: z.string().max(40), version: z.string().max(40) }).optional(),
  seeds: z.array(seed).min(1).max(MAX_REFERENCE_SEEDS),
  backend: z.string().max(L.label),
  medianStepMs: z.number().min(0).max(1e9).nullable(),
  band: z.literal('sd'),
  decimals: z.number().int().min(0).max(12),
  fingerprint: z.string().max(40),
  spec: ExperimentSpecSchema,
  steps: z.array(stepNumber).min(1).max(L.steps),
  evalSteps: z.array(stepNumber).max(L.steps),
  base: z.object({
    members: z.array(z.object({ id, passAt1: scalarStat, majAtG: scalarStat })).max(L.members),
    pairs: z.array(z.object({ a: id, b: id, kappa: scalarStat, bothWrongSame: scalarStat, pooledMajAtG: scalarStat })).max(L.pairs),
  }),
  arms: z
    .array(
      z.object({
        id,
        scheme: z.enum(REWARD_SCHEMES),
        members: z.array(z.object({ id, ...memberShape })).max(L.members),
        pairs: z.array(z.object({ a: id, b: id, ...pairShape })).max(L.pairs),
        ensembleMajAtG: seriesStat.optional(),
      }),
    )
    .min(1)
    .max(L.arms),
});

const IndexSchema = z.object({
  format: z.literal(REFERENCE_INDEX_FORMAT),
  version: z.literal(REFERENCE_VERSION),
  references: z
    .array(
      z.object({
        preset: presetId,
        file: z.string().regex(/^[a-z][a-z0-9-]{0,39}\.json$/, 'a file name like collapse.json'),
        fingerprint: z.string().max(40),
        seeds: z.array(seed).min(1).max(MAX_REFERENCE_SEEDS),
        bytes: z.number().int().min(0).max(MAX_REFERENCE_CHARS),
      }),
    )
    .max(100),
});

/** Read a reference file (untrusted). Never throws: a bad file is a message in words, to show as text. */
export function parseReference(text: string, migrations: Readonly<Record<number, ReferenceMigration>> = REFERENCE_MIGRATIONS): ParseReferenceResult {
  try {
    const doc = readDocument(text, REFERENCE_FORMAT, MAX_REFERENCE_CHARS, migrations);
    if (!doc.ok) return doc;
    const specVersion = isPlainObject(doc.value.spec) ? doc.value.spec.version : undefined;
    if (typeof specVersion === 'number' && specVersion > SPEC_VERSION) {
      return fail('newer-version', `its experiment was written by a newer Cohort Lab (spec version ${specVersion}; this page reads up to ${SPEC_VERSION}). Reload the page to get the latest version`);
    }
    const parsed = ReferenceSchema.safeParse(doc.value);
    if (!parsed.success) return fail('invalid', `it holds invalid values: ${zodIssues(parsed.error)}`);
    const reference = parsed.data as ReferenceFile;
    const problem = referenceProblem(reference);
    return problem ? fail('invalid', problem) : { ok: true, reference };
  } catch {
    // Every check above returns its own message; this is the net under them (and under migrations).
    return fail('invalid', 'it could not be read');
  }
}

/** Read the index of shipped references (untrusted). Never throws. */
export function parseReferenceIndex(text: string): ParseIndexResult {
  try {
    const doc = readDocument(text, REFERENCE_INDEX_FORMAT, MAX_REFERENCE_INDEX_CHARS, {});
    if (!doc.ok) return { ...doc, error: doc.error.replace('This reference run', 'The index of reference runs') };
    const parsed = IndexSchema.safeParse(doc.value);
    if (!parsed.success) return { ok: false, kind: 'invalid', error: `The index of reference runs could not be read: it holds invalid values: ${zodIssues(parsed.error)}.` };
    const presets = parsed.data.references.map((r) => r.preset);
    if (new Set(presets).size !== presets.length) return { ok: false, kind: 'invalid', error: 'The index of reference runs could not be read: it names a preset twice.' };
    return { ok: true, index: parsed.data as ReferenceIndex };
  } catch {
    return { ok: false, kind: 'invalid', error: 'The index of reference runs could not be read.' };
  }
}

/**
 * What the schema cannot see: the columns must be as long as the steps they follow, the steps in
 * order, the arms, members and pairs those of its own spec, the fingerprint its spec's. Null when
 * they are.
 */
export function referenceProblem(ref: ReferenceFile): string | null {
  const { spec } = ref;
  if (referenceFingerprint(spec) !== ref.fingerprint) return `its fingerprint ${quoteText(ref.fingerprint)} is not its spec's (${referenceFingerprint(spec)})`;
  if (new Set(ref.seeds).size !== ref.seeds.length) return 'a seed is listed twice';
  if (!increasing(ref.steps)) return 'its steps are not strictly increasing';
  if (ref.steps[ref.steps.length - 1] > spec.steps) return `its steps go beyond the experiment's ${spec.steps}`;
  if (!increasing(ref.evalSteps)) return 'its evaluation steps are not strictly increasing';
  const stepSet = new Set(ref.steps);
  if (ref.evalSteps.some((s) => !stepSet.has(s))) return 'an evaluation step is not one of its steps';
  const n = ref.steps.length;
  const e = ref.evalSteps.length;
  const specMembers = new Set(spec.members.map((m) => m.id));
  for (const [i, b] of ref.base.members.entries()) if (!specMembers.has(b.id)) return `base.members.${i}: member ${quoteText(b.id)} is not in the experiment`;
  for (const [i, p] of ref.base.pairs.entries()) if (!specMembers.has(p.a) || !specMembers.has(p.b)) return `base.pairs.${i}: pair ${quoteText(`${p.a}-${p.b}`)} is not in the experiment`;
  const armIds = new Set<string>();
  for (const [i, arm] of ref.arms.entries()) {
    const at = `arms.${i}`;
    const specArm = spec.arms.find((a) => a.id === arm.id);
    if (!specArm) return `${at}: arm ${quoteText(arm.id)} is not in the experiment`;
    if (specArm.scheme !== arm.scheme) return `${at}: arm ${arm.id} has scheme ${arm.scheme}, the experiment ${specArm.scheme}`;
    if (armIds.has(arm.id)) return `${at}: arm ${arm.id} is listed twice`;
    armIds.add(arm.id);
    const members = new Set<string>();
    for (const m of arm.members) {
      if (!specArm.members.includes(m.id)) return `${at}: arm ${arm.id} has no member ${quoteText(m.id)}`;
      if (members.has(m.id)) return `${at}: member ${m.id} is listed twice`;
      members.add(m.id);
      for (const k of REFERENCE_MEMBER_METRICS) if (!fits(m[k], n)) return `${at}.members.${m.id}.${k}: ${n} values expected (one per step)`;
      for (const k of REFERENCE_MEMBER_EVAL_METRICS) if (!fits(m[k], e)) return `${at}.members.${m.id}.${k}: ${e} values expected (one per evaluation step)`;
    }
    for (const p of arm.pairs) {
      if (!specArm.members.includes(p.a) || !specArm.members.includes(p.b)) return `${at}: arm ${arm.id} has no pair ${quoteText(`${p.a}-${p.b}`)}`;
      for (const k of REFERENCE_PAIR_METRICS) if (!fits(p[k], n)) return `${at}.pairs.${p.a}-${p.b}.${k}: ${n} values expected (one per step)`;
      for (const k of REFERENCE_PAIR_EVAL_METRICS) if (!fits(p[k], e)) return `${at}.pairs.${p.a}-${p.b}.${k}: ${e} values expected (one per evaluation step)`;
    }
    if (arm.ensembleMajAtG && !fits(arm.ensembleMajAtG, e)) return `${at}.ensembleMajAtG: ${e} values expected (one per evaluation step)`;
  }
  return null;
}

const fits = (s: SeriesStat, n: number) => s.mean.length === n && s.sd.length === n;
const increasing = (xs: readonly number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);

/** JSON text -> an object of `format` at the current version (migrated), or a message. */
function readDocument(
  text: string,
  format: string,
  limit: number,
  migrations: Readonly<Record<number, ReferenceMigration>>,
): { ok: true; value: Record<string, unknown> } | { ok: false; kind: ReferenceErrorKind; error: string } {
  if (typeof text !== 'string') return fail('not-json', 'it is not text');
  if (text.length > limit) return fail('too-large', `it is ${text.length} characters long; the limit is ${limit}`);
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return parsed.problem === 'not-json' ? fail('not-json', 'it is not valid JSON (cut short, or not a reference file)') : fail('invalid', 'it contains a "__proto__" key');
  const value = parsed.value;
  if (!isPlainObject(value) || value.format !== format) {
    const what = isPlainObject(value) && typeof value.format === 'string' ? `its format is ${quoteText(value.format)}` : 'it has no "format" field';
    return fail('wrong-format', `it is not a Cohort Lab reference (${what}; expected "${format}")`);
  }
  const up = upgrade(value, REFERENCE_VERSION, migrations, { what: 'reference format' });
  return up.ok ? { ok: true, value: up.doc } : fail(up.kind, up.why);
}

function fail(kind: ReferenceErrorKind, why: string): { ok: false; kind: ReferenceErrorKind; error: string } {
  return { ok: false, kind, error: `This reference run could not be loaded: ${why}.` };
}

// ---- writing ------------------------------------------------------------------------------------

/**
 * A reference as compact JSON: one line per arm and base, the columns unindented (most of the
 * bytes are numbers; indentation would double them).
 */
export function serializeReference(ref: ReferenceFile): string {
  const { arms, base, spec, ...head } = ref;
  const lines = [
    `{${Object.entries(head)
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(',')},`,
    `"spec":${JSON.stringify(spec)},`,
    `"base":${JSON.stringify(base)},`,
    `"arms":[`,
    arms.map((a) => JSON.stringify(a)).join(',\n'),
    ']}',
  ];
  return `${lines.join('\n')}\n`;
}

export function serializeReferenceIndex(index: ReferenceIndex): string {
  const rows = index.references.map((r) => `  ${JSON.stringify(r)}`);
  return `{"format":${JSON.stringify(index.format)},"version":${index.version},"references":[\n${rows.join(',\n')}\n]}\n`;
}

/** The index entry of a reference written as `text`. */
export function indexEntry(ref: ReferenceFile, text: string): ReferenceIndexEntry {
  return { preset: ref.preset, file: `${ref.preset}.json`, fingerprint: ref.fingerprint, seeds: ref.seeds, bytes: text.length };
}

/** "8 seeds, mean" (the compare layer's label says what it is). */
export function referenceLabel(ref: Pick<ReferenceFile, 'seeds'>): string {
  const n = ref.seeds.length;
  return `reference: ${n} ${n === 1 ? 'seed' : 'seeds'}, mean`;
}

/** "seeds 1-8", "seeds 1, 3, 5", "seed 4". */
export function seedsText(seeds: readonly number[]): string {
  if (seeds.length === 1) return `seed ${seeds[0]}`;
  const sorted = [...seeds].sort((a, b) => a - b);
  const run = sorted.every((s, i) => i === 0 || s === sorted[i - 1] + 1);
  return run && sorted.length > 2 ? `seeds ${sorted[0]}-${sorted[sorted.length - 1]}` : `seeds ${sorted.join(', ')}`;
}
