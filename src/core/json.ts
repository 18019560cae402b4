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

/**
 * The first NaN or infinity anywhere in plain data (objects and arrays; typed arrays are not
 * looked into), with its path ("arms.0.members.A.loss"). A run never records one: it stops at
 * the step that would have (docs/RELIABILITY.md, "Numerical blow-ups"), so one found in stored
 * events (IndexedDB keeps NaN and Infinity, which JSON cannot) is damage. Iterative, so hostile
 * nesting cannot overflow the stack.
 */
export function nonFiniteNumberAt(value: unknown): { path: string; value: string } | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path, value: String(v) };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], path ? `${path}.${entries[i][0]}` : entries[i][0]]);
    }
  }
  return null;
}
