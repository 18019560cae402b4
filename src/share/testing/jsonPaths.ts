/**
 * Test helpers for the fuzz tests of untrusted documents (run files, reference runs, share links,
 * spec files): every path to a value in a JSON document, and a copy with one value replaced or
 * removed, so that mutations reach deep into the schemas instead of failing at the top.
 */
export type JsonPath = (string | number)[];

/** Every path to a value in `v`, the root ([]) first. */
export function jsonPaths(v: unknown, prefix: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => jsonPaths(x, [...prefix, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) jsonPaths(x, [...prefix, k], out);
  return out;
}

/** A copy of `root` with the value at `path` set to `value`, or removed; the root replaced for []. */
export function setAt<T>(root: T, path: JsonPath, value: unknown, remove = false): T {
  if (path.length === 0) return (remove ? undefined : value) as T;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy as T;
}
