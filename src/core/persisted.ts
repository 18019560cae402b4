/**
 * Persisted formats (tldraw's model): a document carries its format version; this code writes
 * the current one, reads an older one through a chain of migrations (`migrations[n]` turns a
 * version-n document into a version-(n+1) one) and refuses a newer one in words. Share links
 * (src/share/url.ts), run files (bundle.ts), reference runs (reference.ts), checkpoints
 * (experiment/checkpoint.ts) and result files (experiment/resultFile.ts) all go through here,
 * with the words for what is wrong with a document a stranger, an older page or a hand edit made.
 * Pure: no DOM, no Node.
 */
import type { z } from './zod';

/** `migrations[n]`: a version-n document -> a version-(n+1) one. */
export type Migrations<T> = Readonly<Record<number, (doc: T) => T>>;

/** How a format is named in messages. */
export interface FormatWords {
  /** What the version numbers count: "run file format" gives "run file format v2". */
  what: string;
  /** Who reads it: "this page" (default) or, in the CLIs, "this version". */
  reader?: string;
  /** Said after a newer version is refused (default: "Reload the page to get the latest version"). */
  newer?: string;
}

export type VersionProblemKind = 'invalid' | 'newer-version' | 'old-version';
export type VersionProblem = { kind: VersionProblemKind; why: string };
export type Upgraded<T> = { ok: true; doc: T } | ({ ok: false } & VersionProblem);

/** Why a document of version `v` cannot be read (not a whole number, or newer than `current`); null when it can. */
export function versionProblem(v: unknown, current: number, words: FormatWords): VersionProblem | null {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return { kind: 'invalid', why: `its format version ${quoteText(String(v))} is not a whole number` };
  if (v > current) {
    const newer = words.newer ?? 'Reload the page to get the latest version';
    return { kind: 'newer-version', why: `it was made by a newer Cohort Lab (${words.what} v${v}; ${words.reader ?? 'this page'} reads up to v${current}). ${newer}` };
  }
  return null;
}

/**
 * `doc` (its version at `doc[key]`, already checked by versionProblem) brought to version
 * `current` by `migrations`. A version with no migration, and a migration that throws or does
 * not raise the version, are refusals in words: a migration is our code, but what it reads is not.
 */
export function migrate<T extends object>(doc: T, key: string, current: number, migrations: Migrations<T>, words: FormatWords): Upgraded<T> {
  let at = doc;
  for (;;) {
    const from = (at as Record<string, unknown>)[key] as number;
    if (!(from < current)) return { ok: true, doc: at };
    const step = Object.prototype.hasOwnProperty.call(migrations, from) ? migrations[from] : undefined;
    if (!step) return { ok: false, kind: 'old-version', why: `${words.what} v${from} is no longer supported (${words.reader ?? 'this page'} reads v${current})` };
    let next: unknown = null;
    try {
      next = step(at);
    } catch {
      // refused below
    }
    const v = isPlainObject(next) ? next[key] : undefined;
    if (!(typeof v === 'number' && v > from)) return { ok: false, kind: 'old-version', why: `it could not be upgraded from ${words.what} v${from}` };
    at = next as T;
  }
}

/** versionProblem, then migrate: a parsed JSON document at the current version, or why not. */
export function upgrade(
  doc: Record<string, unknown>,
  current: number,
  migrations: Migrations<Record<string, unknown>>,
  words: FormatWords,
  key = 'version',
): Upgraded<Record<string, unknown>> {
  const problem = versionProblem(doc[key], current, words);
  return problem ? { ok: false, ...problem } : migrate(doc, key, current, migrations, words);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Untrusted text quoted for a message (shown as text, never HTML), cut to a readable length. */
export function quoteText(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** The first few zod issues in words: "path: message; ...". */
export function zodIssues(error: z.ZodError, count = 3): string {
  return error.issues
    .slice(0, count)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}
