/** JSON with object keys sorted (stable across key order); undefined members are dropped. Used to fingerprint specs. */
export function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
