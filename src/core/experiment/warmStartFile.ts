/**
 * The stored warm start as a file: its format (versioned JSON, weights as base64 float32), the
 * decoder that treats it as untrusted input (format, version, sizes, names, shapes, counts, finite
 * values), and the index of the shipped folder. The key, the caches and loading live in
 * warmStartCache.ts. Pure: no DOM, no Node.
 */
import { z } from '../zod';
import type { NamedWeight } from '../models/policy';
import { sortedJson } from '../json';

/** The file format this code writes and reads. */
export const WARM_START_FORMAT_VERSION = 1;
export const WARM_START_FORMAT = 'cohort-lab-warmstart';

/** Most weight tensors in one file, and most values over all of them (16 MiB of float32). */
export const MAX_WARM_START_TENSORS = 256;
export const MAX_WARM_START_VALUES = 4 * 1024 * 1024;
/** Longest file text read: the values in base64 plus room for the rest. */
export const MAX_WARM_START_CHARS = Math.ceil((MAX_WARM_START_VALUES * 4) / 3) * 4 + 1024 * 1024;


/** Everything a member's warm-started weights depend on (hashed into the key). */
export interface WarmStartKeyFields {
  engine: number;
  backend: string;
  seed: number;
  task: { id: string; difficulty: number; scratchpad: string };
  data: { labeledPool: number; rlPool: number; heldOut: number };
  warmStart: { batchSize: number; learningRate: number };
  member: {
    family: string;
    dModel: number;
    layers: number;
    heads: number;
    window: number;
    warmStartSteps: number;
    warmStartTarget: number;
    warmStartExamples: number;
    initSeed: number;
    dataSeed: number;
  };
  maxLen: number;
  vocab: string;
  maxValidation: number;
  /**
   * The overlap dial (dialSpec.ts): the source member's key fields and the share, present only for
   * a member with a dial (so every other key is unchanged).
   */
  dial?: { mode: string; share: number; source: WarmStartKeyFields['member']; sourceWarmStart: { batchSize: number; learningRate: number } };
}

/** A stored warm start, decoded. */
export interface WarmStartFile {
  key: string;
  keyFields: WarmStartKeyFields;
  /** The member it was made for (informative: members with equal key fields share a file). */
  memberId: string;
  /** 'shipped': made by `npm run warmstarts` and served with the site; 'cached': saved by a run. */
  origin: 'shipped' | 'cached';
  /** The backend that computed the weights. */
  backend: string;
  /** Warm-start steps taken (fewer than the spec's when the target stopped it). */
  warmStartSteps: number;
  /**
   * With a target: whether the warm start reached it, and its best and last validation values
   * (docs/WARMSTARTS.md, "The guard"). Optional: files made before the guard lack them, and
   * loadOrBuildMember derives them (`targetRecordOfFile`).
   */
  reachedTarget?: boolean;
  bestValidation?: number;
  lastValidation?: number;
  weights: NamedWeight[];
}


/** 16 hex digits: FNV-1a (64 bit) of the key fields as JSON with sorted keys. */
export function keyOfFields(fields: unknown): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (const byte of new TextEncoder().encode(sortedJson(fields))) {
    h ^= BigInt(byte);
    h = (h * prime) & mask;
  }
  return h.toString(16).padStart(16, '0');
}

export const KEY_PATTERN = /^[0-9a-f]{16}$/;

// ---- the file -------------------------------------------------------------------------------

export class WarmStartFileError extends Error {
  override name = 'WarmStartFileError';
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A weight's name and shape as stored: here, and in checkpoints (checkpoint.ts). */
export const weightName = z.string().regex(/^[A-Za-z0-9_./-]{1,96}$/, 'weight names are 1-96 letters, digits, _ . / or -');
export const weightShape = z.array(z.number().int().min(1).max(1 << 20)).max(4);

const WeightJsonSchema = z.object({
  name: weightName,
  shape: weightShape,
  /** base64 of the float32 values, little-endian, row-major. */
  data: z.string().max(MAX_WARM_START_CHARS),
});

const MemberKeySchema = z.object({
  family: z.string().max(32),
  dModel: z.number().int(),
  layers: z.number().int(),
  heads: z.number().int(),
  window: z.number().int(),
  warmStartSteps: z.number().int(),
  warmStartTarget: z.number(),
  warmStartExamples: z.number().int(),
  initSeed: z.number().int(),
  dataSeed: z.number().int(),
});

const KeyFieldsSchema: z.ZodType<WarmStartKeyFields> = z.object({
  engine: z.number().int().min(0),
  backend: z.string().max(32),
  seed: z.number().int(),
  task: z.object({ id: z.string().max(32), difficulty: z.number().int(), scratchpad: z.string().max(16) }),
  data: z.object({ labeledPool: z.number().int(), rlPool: z.number().int(), heldOut: z.number().int() }),
  warmStart: z.object({ batchSize: z.number().int(), learningRate: z.number() }),
  member: MemberKeySchema,
  maxLen: z.number().int(),
  vocab: z.string().max(256),
  maxValidation: z.number().int(),
  dial: z
    .object({ mode: z.string().max(16), share: z.number(), source: MemberKeySchema, sourceWarmStart: z.object({ batchSize: z.number().int(), learningRate: z.number() }) })
    .optional(),
});

const FileJsonSchema = z.object({
  format: z.literal(WARM_START_FORMAT),
  version: z.literal(WARM_START_FORMAT_VERSION),
  key: z.string().regex(KEY_PATTERN, 'the key is 16 hex digits'),
  keyFields: KeyFieldsSchema,
  memberId: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'member ids are 1-24 letters, digits, - or _'),
  origin: z.enum(['shipped', 'cached']),
  backend: z.string().regex(/^[a-z0-9-]{1,32}$/, 'backend names are 1-32 lower-case letters, digits or -'),
  warmStartSteps: z.number().int().min(0).max(20000),
  reachedTarget: z.boolean().optional(),
  bestValidation: z.number().min(0).max(1).optional(),
  lastValidation: z.number().min(0).max(1).optional(),
  params: z.number().int().min(1).max(MAX_WARM_START_VALUES),
  weights: z.array(WeightJsonSchema).min(1).max(MAX_WARM_START_TENSORS),
});
/** A warm start as stored: JSON, weights in base64. */
export type WarmStartFileJson = z.infer<typeof FileJsonSchema>;

/** The JSON form of a warm start (weights as base64 float32, little-endian). */
export function encodeWarmStartFile(file: WarmStartFile): WarmStartFileJson {
  return {
    format: WARM_START_FORMAT,
    version: WARM_START_FORMAT_VERSION,
    key: file.key,
    keyFields: file.keyFields,
    memberId: file.memberId,
    origin: file.origin,
    backend: file.backend,
    warmStartSteps: file.warmStartSteps,
    ...targetFields(file),
    params: file.weights.reduce((n, w) => n + w.values.length, 0),
    weights: file.weights.map((w) => ({ name: w.name, shape: [...w.shape], data: float32ToBase64(w.values) })),
  };
}

/** The file's text: one weight per line, so a diff of two versions stays readable. */
export function serializeWarmStartFile(file: WarmStartFile): string {
  const { weights, ...head } = encodeWarmStartFile(file);
  const lines = weights.map((w) => `  ${JSON.stringify(w)}`);
  return `${JSON.stringify(head).slice(0, -1)},"weights":[\n${lines.join(',\n')}\n]}\n`;
}

/** Read a warm-start file's text (untrusted): throws WarmStartFileError saying what is wrong. */
export function parseWarmStartText(text: string): WarmStartFile {
  if (text.length > MAX_WARM_START_CHARS) {
    throw new WarmStartFileError(`the warm-start file is ${text.length} characters long; the limit is ${MAX_WARM_START_CHARS}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WarmStartFileError('the warm-start file is not valid JSON');
  }
  return decodeWarmStartFile(data);
}

/** Check and decode a warm start's JSON form (untrusted): throws WarmStartFileError. */
export function decodeWarmStartFile(data: unknown): WarmStartFile {
  const fail = (why: string): never => {
    throw new WarmStartFileError(`the warm-start file ${why}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('is not a JSON object');
  const head = data as { format?: unknown; version?: unknown };
  if (head.format !== WARM_START_FORMAT) fail(`is not a Cohort Lab warm start (format ${JSON.stringify(String(head.format).slice(0, 40))})`);
  if (typeof head.version !== 'number' || !Number.isInteger(head.version)) fail('has no format version');
  const version = head.version as number;
  if (version > WARM_START_FORMAT_VERSION) {
    fail(`was made by a newer Cohort Lab (format v${version}; this version reads v${WARM_START_FORMAT_VERSION})`);
  }
  if (version < WARM_START_FORMAT_VERSION) fail(`has format v${version}, which is no longer read (remake it: npm run warmstarts)`);
  const r = FileJsonSchema.safeParse(data);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`);
    fail(`is not valid: ${issues.join('; ')}`);
  }
  const json = r.data!;
  if (keyOfFields(json.keyFields) !== json.key) fail('has a key that does not match its key fields');
  const names = new Set<string>();
  let total = 0;
  const weights = json.weights.map((w, i): NamedWeight => {
    const where = `weights.${i} ("${w.name}")`;
    if (names.has(w.name)) fail(`holds ${where} twice`);
    names.add(w.name);
    const count = w.shape.reduce((a, b) => a * b, 1);
    total += count;
    if (total > MAX_WARM_START_VALUES) fail(`holds more than ${MAX_WARM_START_VALUES} values`);
    const values = base64ToFloat32(w.data);
    if (values === null) fail(`${where}: the data is not base64 of float32 values`);
    if (values!.length !== count) fail(`${where}: shape [${w.shape.join(', ')}] needs ${count} values, the data holds ${values!.length}`);
    for (let j = 0; j < values!.length; j++) {
      if (!Number.isFinite(values![j])) fail(`${where}: value ${j} is not finite (${values![j]})`);
    }
    return { name: w.name, shape: [...w.shape], values: values! };
  });
  if (total !== json.params) fail(`says it holds ${json.params} values but its weights hold ${total}`);
  return {
    key: json.key,
    keyFields: json.keyFields,
    memberId: json.memberId,
    origin: json.origin,
    backend: json.backend,
    warmStartSteps: json.warmStartSteps,
    ...targetFields(json),
    weights,
  };
}

/** The target record a file holds (only the fields it has: older files have none). */
function targetFields(f: Pick<WarmStartFile, 'reachedTarget' | 'bestValidation' | 'lastValidation'>): Pick<WarmStartFile, 'reachedTarget' | 'bestValidation' | 'lastValidation'> {
  return {
    ...(f.reachedTarget !== undefined ? { reachedTarget: f.reachedTarget } : {}),
    ...(f.bestValidation !== undefined ? { bestValidation: f.bestValidation } : {}),
    ...(f.lastValidation !== undefined ? { lastValidation: f.lastValidation } : {}),
  };
}

/**
 * Why `file` must not stand in for the warm start with these key fields, or null when it may:
 * a stale file (made for other settings, another engine or another backend) names what differs.
 */
export function warmStartFileProblem(file: WarmStartFile, fields: WarmStartKeyFields): string | null {
  const key = keyOfFields(fields);
  const diff = differences(file.keyFields, fields);
  if (diff.length > 0) {
    const shown = diff.slice(0, 4).join(', ') + (diff.length > 4 ? `, and ${diff.length - 4} more` : '');
    return `it is stale: it was made for other settings (${shown} differ)`;
  }
  if (file.key !== key) return `it is stale: its key ${file.key} is not ${key}`;
  if (file.backend !== fields.backend) return `it was made on ${file.backend}, not ${fields.backend}`;
  return null;
}

/** Paths (a.b.c) where two plain JSON values differ. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differences(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return sortedJson(a) === sortedJson(b) ? [] : [path || '(the whole key)'];
}

export function float32ToBase64(values: Float32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** base64 -> float32 values, or null when it is not base64 of a whole number of float32s. */
export function base64ToFloat32(text: string): Float32Array | null {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  if (binary.length % 4 !== 0) return null;
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  const out = new Float32Array(binary.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

// ---- the shipped folder's index -------------------------------------------------------------

export const WARM_START_INDEX_FORMAT = 'cohort-lab-warmstarts';
export const WARM_START_INDEX_FILE = 'index.json';
/** Longest index text read, and most files it may list. */
export const MAX_WARM_START_INDEX_CHARS = 256 * 1024;
export const MAX_WARM_START_INDEX_FILES = 256;

const IndexSchema = z.object({
  format: z.literal(WARM_START_INDEX_FORMAT),
  version: z.literal(WARM_START_FORMAT_VERSION),
  files: z
    .array(
      z.object({
        key: z.string().regex(KEY_PATTERN, 'the key is 16 hex digits'),
        /** Always `<key>.json` (checked): a file name from the index never leaves the folder. */
        file: z.string().regex(/^[0-9a-f]{16}\.json$/, 'file names are <key>.json'),
        bytes: z.number().int().min(1).max(MAX_WARM_START_CHARS),
        /** The preset members it serves, "preset/member" (informative). */
        members: z.array(z.string().max(64)).max(64),
      }),
    )
    .max(MAX_WARM_START_INDEX_FILES),
});
/** public/warmstarts/index.json: which keys the folder holds (a page fetches only those). */
export type WarmStartIndex = z.infer<typeof IndexSchema>;

/** Read the shipped folder's index (untrusted): throws WarmStartFileError saying what is wrong. */
export function parseWarmStartIndex(text: string): WarmStartIndex {
  if (text.length > MAX_WARM_START_INDEX_CHARS) {
    throw new WarmStartFileError(`the warm-start index is ${text.length} characters long; the limit is ${MAX_WARM_START_INDEX_CHARS}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WarmStartFileError('the warm-start index is not valid JSON');
  }
  const version = (data as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > WARM_START_FORMAT_VERSION) {
    throw new WarmStartFileError(`the warm-start index was made by a newer Cohort Lab (format v${version}; this version reads v${WARM_START_FORMAT_VERSION})`);
  }
  const r = IndexSchema.safeParse(data);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`);
    throw new WarmStartFileError(`the warm-start index is not valid: ${issues.join('; ')}`);
  }
  for (const f of r.data.files) {
    if (f.file !== `${f.key}.json`) throw new WarmStartFileError(`the warm-start index names ${f.file} for key ${f.key}`);
  }
  return r.data;
}

/** The index's text (stable: sorted by key, one file per line). */
export function serializeWarmStartIndex(index: WarmStartIndex): string {
  const files = [...index.files].sort((a, b) => (a.key < b.key ? -1 : 1)).map((f) => `  ${JSON.stringify(f)}`);
  return `{"format":${JSON.stringify(index.format)},"version":${index.version},"files":[\n${files.join(',\n')}\n]}\n`;
}
