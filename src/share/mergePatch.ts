/**
 * JSON merge patches (RFC 7386): the compact diff a share link carries between a preset's spec and
 * the shared one. Objects are patched key by key, a `null` deletes a key, anything else (numbers,
 * strings, whole arrays) replaces the value. `mergePatchDiff(base, target)` writes the smallest such
 * patch, in the target's key order, so the same spec always gives the same link.
 *
 * Patches come from URLs, so `checkPatch` walks one before it is applied: it must be a plain JSON
 * object, not too deep, with no key that could reach an object's prototype.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Keys that reach Object.prototype when assigned (`o['__proto__'] = ...`): never accepted. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** A spec is 4 levels deep (members.0.id); a patch never needs more than this. */
export const MAX_PATCH_DEPTH = 8;

export function isPlainObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** A JSON copy (drops `undefined` keys, as JSON.stringify would). */
function jsonCopy(v: unknown): JsonValue {
  return JSON.parse(JSON.stringify(v)) as JsonValue;
}

/**
 * The merge patch that turns `base` into `target`, or `undefined` when they are equal.
 * Keys whose value is `undefined` count as absent (an optional spec field that is not set).
 */
export function mergePatchDiff(base: unknown, target: unknown): JsonValue | undefined {
  if (!isPlainObject(base) || !isPlainObject(target)) return deepEqual(base, target) ? undefined : jsonCopy(target);
  const patch: JsonObject = {};
  for (const [key, value] of Object.entries(target)) {
    if (value === undefined) continue;
    const d = key in base && base[key] !== undefined ? mergePatchDiff(base[key], value) : jsonCopy(value);
    if (d !== undefined) patch[key] = d;
  }
  for (const key of Object.keys(base)) {
    if (base[key] !== undefined && target[key] === undefined) patch[key] = null;
  }
  return Object.keys(patch).length ? patch : undefined;
}

/** Apply a merge patch (RFC 7386 section 2). Returns new objects; `target` is not modified. */
export function applyMergePatch(target: unknown, patch: JsonValue): unknown {
  if (!isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

/** Why an untrusted value cannot be a patch, or null if it can. */
export function checkPatch(value: unknown): string | null {
  if (!isPlainObject(value)) return 'the changes must be a JSON object';
  return checkValue(value, []);
}

function checkValue(value: unknown, path: string[]): string | null {
  if (path.length >= MAX_PATCH_DEPTH) return `the changes are nested more than ${MAX_PATCH_DEPTH} levels deep`;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : isPlainObject(value) ? Object.entries(value) : [];
  for (const [key, v] of entries) {
    if (FORBIDDEN_KEYS.has(key)) return `the field name "${[...path, key].join('.')}" is not allowed`;
    const problem = checkValue(v, [...path, key]);
    if (problem) return problem;
  }
  return null;
}
