/**
 * Share links: an experiment spec as URL search params, versioned, with migrations (tldraw's
 * persisted formats) and only what differs from a preset (Sequence Toy's URLs).
 *
 *   ?v=1&preset=quick&s=eyJzZWVkIjo3LCJzdGVwcyI6Mn0&h=ie432c&backend=wasm
 *
 * is the quick preset with s = base64url('{"seed":7,"steps":2}'); h is the preset's fingerprint
 * when the link was made; backend is not ours and is kept as it is. Long changes (a task of one's
 * own with its data rows) travel compressed instead: z = base64url(deflate-raw(the same JSON)),
 * in a version-2 link; a link without z= is written as version 1, which every copy of the lab reads. Decoding applies the patch onto
 * the preset and validates the result with the spec's zod schema; a link is untrusted input (size
 * limit, strict base64url and JSON, no prototype keys) and every failure is a message in words.
 *
 * The params this codec owns, the one table both `encodeShare` and `decodeShare` follow:
 */
import { getPreset, PRESETS } from '../core/experiment/presets';
import { type ExperimentSpec, parseSpec } from '../core/experiment/spec';
import { type JsonObject, applyMergePatch, checkPatch, mergePatchDiff } from './mergePatch';
import { sortedJson } from '../core/json';
import { migrate, quoteText, versionProblem } from '../core/persisted';
import { deflateSync, inflateSync } from 'fflate';

export const SHARE_PARAMS = {
  /** Link format version: SHARE_VERSION when written; older ones are migrated, newer refused. */
  v: 'v',
  /** Id of the preset the spec starts from (PRESETS). */
  preset: 'preset',
  /** base64url(JSON merge patch from the preset's spec to the shared spec); absent = the preset as is. */
  spec: 's',
  /** The same patch compressed: base64url(deflate-raw(JSON)); version 2 on, instead of s=. */
  packed: 'z',
  /** Fingerprint of the preset's spec the patch was made against: warns when the preset has changed since. */
  presetHash: 'h',
} as const;
const OWNED = new Set<string>(Object.values(SHARE_PARAMS));

/**
 * The newest link format this code reads and writes. Bump it, and add a MIGRATIONS entry, when the
 * format changes. 2 added z= (compressed changes); links without z= are still written as 1.
 */
export const SHARE_VERSION = 2;
/** The version of a link without compressed changes. */
const PLAIN_VERSION = 1;
/** Changes longer than this many base64url characters are compressed when that makes them shorter. */
export const PACK_ABOVE = 1024;
/** Most characters compressed changes may inflate to (a 6 KB deflate stream can claim ~6 MB). */
export const MAX_PATCH_CHARS = 1 << 20;
/** Longest query string (everything after "?") a link may have; longer ones are refused unread. */
export const MAX_QUERY_CHARS = 8192;

/** What a link carries, once read from its params. */
export interface SharePayload {
  v: number;
  preset: string;
  patch: JsonObject;
  presetHash: string | null;
}

/**
 * `MIGRATIONS[n]` turns a version-n payload into a version-(n+1) one. To change the format: bump
 * SHARE_VERSION to n+1 and add `MIGRATIONS[n]`, e.g. for a renamed spec field
 *   1: (p) => ({ ...p, v: 2, patch: renameKey(p.patch, 'evalEvery', 'evaluateEvery') })
 * so every link written before keeps loading (url.test.ts shows a v0 -> v1 example).
 */
export type Migration = (payload: SharePayload) => SharePayload;
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  // Version 2 only added z=, which a version-1 link never has: its payload is read as it is.
  1: (p) => ({ ...p, v: 2 }),
};

export type DecodeResult =
  /** The URL names no experiment: keep what the page has. */
  | { kind: 'none' }
  | { kind: 'ok'; presetId: string; spec: ExperimentSpec; edited: boolean; warnings: string[] }
  | { kind: 'error'; message: string };

/**
 * The params of a link to `spec`, written as changes to preset `presetId`. Deterministic: the spec
 * is parsed first, so equal specs give the same link whatever their key order. Throws for an
 * invalid spec or an unknown preset (callers link valid drafts only).
 */
export function encodeShare(presetId: string, input: ExperimentSpec): URLSearchParams {
  const preset = getPreset(presetId);
  if (!preset) throw new Error(`encodeShare: no preset "${presetId}"`);
  const parsed = parseSpec(input);
  if (!parsed.ok) throw new Error(`encodeShare: invalid spec: ${parsed.errors.join('; ')}`);
  const spec = parsed.spec;
  const params = new URLSearchParams();
  const patch = mergePatchDiff(preset.spec, spec);
  const json = patch === undefined ? null : JSON.stringify(patch);
  const plain = json === null ? null : toBase64Url(json);
  const packed = plain !== null && plain.length > PACK_ABOVE ? bytesToBase64Url(deflateSync(new TextEncoder().encode(json!), { level: 9 })) : null;
  const compress = packed !== null && packed.length < plain!.length;
  params.set(SHARE_PARAMS.v, String(compress ? SHARE_VERSION : PLAIN_VERSION));
  params.set(SHARE_PARAMS.preset, presetId);
  if (compress) params.set(SHARE_PARAMS.packed, packed);
  else if (plain !== null) params.set(SHARE_PARAMS.spec, plain);
  params.set(SHARE_PARAMS.presetHash, specFingerprint(preset.spec));
  return params;
}

/** `currentSearch` with the share params replaced by a link to `spec`; other params (?backend=) kept. */
export function shareSearch(currentSearch: string, presetId: string, spec: ExperimentSpec): string {
  const params = encodeShare(presetId, spec);
  for (const [key, value] of new URLSearchParams(currentSearch)) if (!OWNED.has(key)) params.append(key, value);
  return `?${params.toString()}`;
}

/** Read a link (untrusted). Never throws: a bad link is an error message, in words, to show as text. */
export function decodeShare(search: string, migrations: Readonly<Record<number, Migration>> = MIGRATIONS): DecodeResult {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query.length > MAX_QUERY_CHARS) return fail(`it is ${query.length} characters long; the limit is ${MAX_QUERY_CHARS}`);
  const params = new URLSearchParams(query);
  const v = params.get(SHARE_PARAMS.v);
  const presetId = params.get(SHARE_PARAMS.preset);
  const s = params.get(SHARE_PARAMS.spec);
  const z = params.get(SHARE_PARAMS.packed);
  if (v === null && presetId === null && s === null && z === null) return { kind: 'none' };

  // A hand-written ?preset=quick needs no version; changes (s= or z=) always come with one.
  if (v === null && (s !== null || z !== null)) return fail(`it has changes (${s !== null ? 's=' : 'z='}) but no format version (v=)`);
  const version = v === null ? SHARE_VERSION : /^\d{1,4}$/.test(v) ? Number(v) : Number.NaN;
  if (Number.isNaN(version)) return fail(`the format version v=${quote(v)} is not a number`);
  const newer = versionProblem(version, SHARE_VERSION, LINK_WORDS);
  if (newer) return fail(newer.why);
  if (presetId === null) return fail('it names no preset (preset=)');
  if (s !== null && z !== null) return fail('it has changes twice (s= and z=)');
  if (z !== null && version < 2) return fail(`compressed changes (z=) need format version 2 or later; the link says v=${version}`);

  let patch: JsonObject = {};
  if (s !== null || z !== null) {
    const read = s !== null ? readPatch(fromBase64Url(s), 's=') : readPatch(inflatePatch(z!), 'z=');
    if (typeof read === 'string') return fail(read);
    patch = read;
  }

  const up = migrate<SharePayload>({ v: version, preset: presetId, patch, presetHash: params.get(SHARE_PARAMS.presetHash) }, SHARE_PARAMS.v, SHARE_VERSION, migrations, LINK_WORDS);
  if (!up.ok) return fail(up.why);
  const payload = up.doc;

  const preset = getPreset(payload.preset);
  if (!preset) return fail(`there is no preset ${quote(payload.preset)} (known: ${Object.keys(PRESETS).join(', ')})`);
  const parsed = parseSpec(applyMergePatch(structuredClone(preset.spec), payload.patch));
  if (!parsed.ok) return fail(`the experiment is not valid: ${parsed.errors.slice(0, 3).join('; ')}`);

  const warnings: string[] = [];
  if (payload.presetHash !== null && payload.presetHash !== specFingerprint(preset.spec)) {
    warnings.push(
      `The preset "${preset.id}" has changed since this link was made: settings the link does not change follow the current preset, so the results may differ from the original run.`,
    );
  }
  const edited = mergePatchDiff(preset.spec, parsed.spec) !== undefined;
  return { kind: 'ok', presetId: preset.id, spec: parsed.spec, edited, warnings };
}

/**
 * The task definition a link's changes hold, if any: read, not checked, so the page can check it
 * off its main thread (src/app/taskCheck.ts) before decodeShare validates the experiment.
 */
export function linkTaskDefinitions(search: string): unknown[] {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query.length > MAX_QUERY_CHARS) return [];
  const params = new URLSearchParams(query);
  const s = params.get(SHARE_PARAMS.spec);
  const z = params.get(SHARE_PARAMS.packed);
  if ((s === null) === (z === null)) return [];
  const patch = s !== null ? readPatch(fromBase64Url(s), 's=') : readPatch(inflatePatch(z!), 'z=');
  if (typeof patch === 'string') return [];
  const task = patch.task;
  const def = task !== null && typeof task === 'object' && !Array.isArray(task) ? task.definition : undefined;
  return def !== null && typeof def === 'object' ? [def] : [];
}

const LINK_WORDS = { what: 'link format' };

function fail(why: string): DecodeResult {
  return { kind: 'error', message: `This shared link could not be loaded: ${why}.` };
}

/** Untrusted text quoted for a message (shown as text, never HTML), cut to a readable length. */
const quote = (text: string | null): string => quoteText(text ?? '');

/** The text of s= or z= (null: not readable, or a string saying why) -> a checked patch object, or why not. */
function readPatch(text: string | null | { why: string }, param: 's=' | 'z='): JsonObject | string {
  if (text === null) return `the changes (${param}) are not valid base64url text`;
  if (typeof text !== 'string') return `the changes (${param}) ${text.why}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `the changes (${param}) are not valid JSON`;
  }
  const problem = checkPatch(value);
  return problem ? `${problem} (${param})` : (value as JsonObject);
}

/** z= -> the UTF-8 text it inflates to: null when it is not base64url, `why` when it does not inflate within MAX_PATCH_CHARS. */
function inflatePatch(z: string): string | null | { why: string } {
  const bytes = base64UrlToBytes(z);
  if (bytes === null) return null;
  let out: Uint8Array;
  try {
    // Bounded: the query limit bounds the input to ~6 KB, which deflate cannot stretch past ~6 MB.
    out = inflateSync(bytes);
  } catch {
    return { why: 'are not valid compressed data' };
  }
  if (out.length > MAX_PATCH_CHARS) return { why: `inflate to ${out.length} bytes; the limit is ${MAX_PATCH_CHARS}` };
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch {
    return { why: 'are not UTF-8 text' };
  }
}

/** UTF-8 text -> base64url without padding (RFC 4648 section 5). */
export function toBase64Url(text: string): string {
  return bytesToBase64Url(new TextEncoder().encode(text));
}

function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) -> bytes, or null for anything that is not exactly that. */
function base64UrlToBytes(encoded: string): Uint8Array | null {
  const s = encoded.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** base64url (padding optional) -> UTF-8 text, or null for anything that is not exactly that. */
export function fromBase64Url(encoded: string): string | null {
  const bytes = base64UrlToBytes(encoded);
  if (bytes === null) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** FNV-1a (32 bit) of the spec's JSON with sorted keys, in base 36: changes whenever a value does. */
export function specFingerprint(spec: ExperimentSpec): string {
  let h = 0x811c9dc5;
  for (const ch of sortedJson(spec)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}
