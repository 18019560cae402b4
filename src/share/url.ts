/**
 * Share links: an experiment spec as URL search params, versioned, with migrations (tldraw's
 * persisted formats) and only what differs from a preset (Sequence Toy's URLs).
 *
 *   ?v=1&preset=quick&s=eyJzZWVkIjo3LCJzdGVwcyI6Mn0&h=ie432c&backend=wasm
 *
 * is the quick preset with s = base64url('{"seed":7,"steps":2}'); h is the preset's fingerprint
 * when the link was made; backend is not ours and is kept as it is. Decoding applies the patch onto
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

export const SHARE_PARAMS = {
  /** Link format version: SHARE_VERSION when written; older ones are migrated, newer refused. */
  v: 'v',
  /** Id of the preset the spec starts from (PRESETS). */
  preset: 'preset',
  /** base64url(JSON merge patch from the preset's spec to the shared spec); absent = the preset as is. */
  spec: 's',
  /** Fingerprint of the preset's spec the patch was made against: warns when the preset has changed since. */
  presetHash: 'h',
} as const;
const OWNED = new Set<string>(Object.values(SHARE_PARAMS));

/** The link format this code writes. Bump it, and add a MIGRATIONS entry, when the format changes. */
export const SHARE_VERSION = 1;
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
export const MIGRATIONS: Readonly<Record<number, Migration>> = {};

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
  params.set(SHARE_PARAMS.v, String(SHARE_VERSION));
  params.set(SHARE_PARAMS.preset, presetId);
  const patch = mergePatchDiff(preset.spec, spec);
  if (patch !== undefined) params.set(SHARE_PARAMS.spec, toBase64Url(JSON.stringify(patch)));
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
  if (v === null && presetId === null && s === null) return { kind: 'none' };

  // A hand-written ?preset=quick needs no version; changes (s=) always come with one.
  if (v === null && s !== null) return fail('it has changes (s=) but no format version (v=)');
  const version = v === null ? SHARE_VERSION : /^\d{1,4}$/.test(v) ? Number(v) : Number.NaN;
  if (Number.isNaN(version)) return fail(`the format version v=${quote(v)} is not a number`);
  const newer = versionProblem(version, SHARE_VERSION, LINK_WORDS);
  if (newer) return fail(newer.why);
  if (presetId === null) return fail('it names no preset (preset=)');

  let patch: JsonObject = {};
  if (s !== null) {
    const read = readPatch(s);
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

const LINK_WORDS = { what: 'link format' };

function fail(why: string): DecodeResult {
  return { kind: 'error', message: `This shared link could not be loaded: ${why}.` };
}

/** Untrusted text quoted for a message (shown as text, never HTML), cut to a readable length. */
const quote = (text: string | null): string => quoteText(text ?? '');

/** s= -> a checked patch object, or why not. */
function readPatch(s: string): JsonObject | string {
  const text = fromBase64Url(s);
  if (text === null) return 'the changes (s=) are not valid base64url text';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the changes (s=) are not valid JSON';
  }
  const problem = checkPatch(value);
  return problem ? `${problem} (s=)` : (value as JsonObject);
}

/** UTF-8 text -> base64url without padding (RFC 4648 section 5). */
export function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) -> UTF-8 text, or null for anything that is not exactly that. */
export function fromBase64Url(encoded: string): string | null {
  const s = encoded.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
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
