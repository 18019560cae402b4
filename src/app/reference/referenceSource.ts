/**
 * Where the page gets reference runs: the site's `<base>references/index.json` (once), then
 * `<base>references/PRESET.json` for a preset the index lists, as the worker gets the shipped warm
 * starts (src/engine/warmStartSource.ts). Everything read is untrusted and validated
 * (src/share/reference.ts); a preset the index does not list is asked for nothing. Never throws.
 */
import { getPreset } from '../../core/experiment/presets';
import {
  MAX_REFERENCE_CHARS,
  MAX_REFERENCE_INDEX_CHARS,
  REFERENCE_INDEX_FILE,
  type ReferenceFile,
  type ReferenceIndex,
  parseReference,
  parseReferenceIndex,
  referenceFingerprint,
} from '../../share/reference';

export type ReferenceLookup =
  | { kind: 'ready'; reference: ReferenceFile }
  /** The site ships no reference run for this preset. */
  | { kind: 'none' }
  /** It ships one, made for an earlier version of the preset: not shown. */
  | { kind: 'stale'; message: string }
  | { kind: 'error'; message: string };

export interface ReferenceSource {
  lookup(presetId: string): Promise<ReferenceLookup>;
}

export interface ReferenceSourceOptions {
  /** URL of the folder of references, ending in '/' (default `${BASE_URL}references/`). */
  baseUrl?: string;
  fetch?: typeof fetch;
}

class FetchError extends Error {}

export function siteReferenceSource(opts: ReferenceSourceOptions = {}): ReferenceSource {
  const base = opts.baseUrl ?? `${import.meta.env.BASE_URL}references/`;
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let index: Promise<ReferenceIndex | string> | null = null;
  const files = new Map<string, Promise<ReferenceLookup>>();

  async function fetchText(url: string, limit: number): Promise<string> {
    let response: Response;
    try {
      response = await doFetch(url, { headers: { Accept: 'application/json' } });
    } catch (e) {
      throw new FetchError(`${url} could not be fetched (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!response.ok) throw new FetchError(`${url}: HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (length > limit) throw new FetchError(`${url} is ${length} bytes; the limit is ${limit}`);
    const text = await response.text();
    if (text.length > limit) throw new FetchError(`${url} is ${text.length} characters long; the limit is ${limit}`);
    return text;
  }

  function readIndex(): Promise<ReferenceIndex | string> {
    return (index ??= (async () => {
      try {
        const r = parseReferenceIndex(await fetchText(`${base}${REFERENCE_INDEX_FILE}`, MAX_REFERENCE_INDEX_CHARS));
        return r.ok ? r.index : r.error;
      } catch (e) {
        index = null; // a network failure may pass: ask again next time
        return `The reference runs could not be loaded: ${e instanceof Error ? e.message : String(e)}.`;
      }
    })());
  }

  async function load(presetId: string): Promise<ReferenceLookup> {
    const preset = getPreset(presetId);
    if (!preset) return { kind: 'none' };
    const idx = await readIndex();
    if (typeof idx === 'string') return { kind: 'error', message: idx };
    const entry = idx.references.find((r) => r.preset === presetId);
    if (!entry) return { kind: 'none' };
    const fingerprint = referenceFingerprint(preset.spec);
    const stale: ReferenceLookup = { kind: 'stale', message: `The shipped reference run of "${presetId}" was made for an earlier version of this preset, so it is not shown.` };
    if (entry.fingerprint !== fingerprint) return stale;
    let text: string;
    try {
      text = await fetchText(`${base}${entry.file}`, MAX_REFERENCE_CHARS);
    } catch (e) {
      return { kind: 'error', message: `The reference run could not be loaded: ${e instanceof Error ? e.message : String(e)}.` };
    }
    const r = parseReference(text);
    if (!r.ok) return { kind: 'error', message: r.error };
    if (r.reference.preset !== presetId || r.reference.fingerprint !== fingerprint) return stale;
    return { kind: 'ready', reference: r.reference };
  }

  return {
    lookup(presetId) {
      let p = files.get(presetId);
      if (!p) {
        p = load(presetId)
          .catch((e: unknown): ReferenceLookup => ({ kind: 'error', message: `The reference run could not be loaded: ${e instanceof Error ? e.message : String(e)}.` }))
          .then((r) => {
            // A failure may pass (the network): the next lookup asks again.
            if (r.kind === 'error') files.delete(presetId);
            return r;
          });
        files.set(presetId, p);
      }
      return p;
    },
  };
}
