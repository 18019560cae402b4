/**
 * JSON text from a stranger, parsed once with the one check every reader here needs first:
 * JSON.parse makes a "__proto__" key an own property (no pollution), but zod would then drop it
 * from a record silently, so the readers refuse it in words instead. Used by run files
 * (bundle.ts) and reference runs (reference.ts) in src/share, and task files (tasks/custom/parseFile.ts).
 */
export type StrictJson = { ok: true; value: unknown } | { ok: false; problem: 'not-json' | 'proto-key' };

export function parseStrictJson(text: string): StrictJson {
  let protoKey = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, v) => {
      if (key === '__proto__') protoKey = true;
      return v;
    });
  } catch {
    return { ok: false, problem: 'not-json' };
  }
  return protoKey ? { ok: false, problem: 'proto-key' } : { ok: true, value };
}
