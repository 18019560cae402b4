/**
 * Stored warm starts in the page's worker: a WarmStartCache (src/core/experiment/warmStartCache.ts)
 * that reads
 *
 *   1. the shipped files, fetched from the site: `<base>warmstarts/index.json` once, then
 *      `<base>warmstarts/<key>.json` for the keys the index lists (so a custom spec asks nothing
 *      of the server but the indexes);
 *   2. the rooms' seeds' files (`<base>warmstarts/room/`, src/core/experiment/roomSeeds.ts), the
 *      same way from their own index, read only for a key the first index lacks: not precached
 *      by the service worker, so a seat fetches its own seed's files on demand (and the service
 *      worker keeps them: src/pwa/pwaOptions.ts);
 *   3. IndexedDB (the `idb` package), where runs keep the warm starts they trained, so the
 *      second run of a custom spec skips its warm start.
 *
 * Everything read is untrusted and validated by the core's decoder. IndexedDB may be missing
 * (some private modes) or full (quota): reading then finds nothing and saving throws a short
 * message, which the run shows as a note and goes on without caching.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  KEY_PATTERN,
  MAX_WARM_START_CHARS,
  MAX_WARM_START_INDEX_CHARS,
  WARM_START_INDEX_FILE,
  WarmStartFileError,
  decodeWarmStartFile,
  encodeWarmStartFile,
  parseWarmStartIndex,
  parseWarmStartText,
  type WarmStartCache,
  type WarmStartFile,
  type WarmStartFileJson,
} from '../core/experiment/warmStartCache';

/** Where warm starts trained in the page are kept (the JSON form, with the time it was saved). */
export interface WarmStartStore {
  get(key: string): Promise<unknown>;
  put(key: string, file: WarmStartFileJson): Promise<void>;
}

/** Warm starts kept in IndexedDB at most; the oldest go first. */
export const MAX_CACHED_WARM_STARTS = 24;
const DB_NAME = 'cohort-lab';
const STORE = 'warmstarts';

interface CacheDB extends DBSchema {
  warmstarts: { key: string; value: { file: WarmStartFileJson; savedAt: number }; indexes: { savedAt: number } };
}

/** The browser's words for storage failures, as a short reason. */
export function storageErrorText(e: unknown): string {
  const name = (e as { name?: string } | null)?.name ?? '';
  const message = e instanceof Error ? e.message : String(e);
  if (name === 'QuotaExceededError' || /quota/i.test(message)) return "the browser's storage for this site is full";
  if (name === 'InvalidStateError' || name === 'SecurityError' || /indexeddb|private|not allowed/i.test(message)) {
    return `the browser keeps no data for this page (private browsing?): ${message}`;
  }
  return message;
}

/** An IndexedDB store, or null where the browser has no IndexedDB. Opened on first use. */
export function idbWarmStartStore(factory: IDBFactory | undefined = globalThis.indexedDB): WarmStartStore | null {
  if (!factory) return null;
  let db: Promise<IDBPDatabase<CacheDB>> | null = null;
  const open = () =>
    (db ??= openDB<CacheDB>(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore(STORE).createIndex('savedAt', 'savedAt');
      },
    }).catch((e) => {
      db = null; // try again next time (e.g. after the user freed space)
      throw e;
    }));
  return {
    async get(key) {
      return (await (await open()).get(STORE, key))?.file;
    },
    async put(key, file) {
      const d = await open();
      const tx = d.transaction(STORE, 'readwrite');
      await tx.store.put({ file, savedAt: Date.now() }, key);
      // Keep the newest MAX_CACHED_WARM_STARTS.
      let extra = (await tx.store.count()) - MAX_CACHED_WARM_STARTS;
      for (let cursor = await tx.store.index('savedAt').openCursor(); cursor && extra > 0; cursor = await cursor.continue()) {
        if (cursor.primaryKey !== key) {
          await cursor.delete();
          extra--;
        }
      }
      await tx.done;
    },
  };
}

export interface BrowserWarmStartOptions {
  /** URL of the folder of shipped files, ending in '/' (default '/warmstarts/'). */
  baseUrl?: string;
  /** URL of the rooms' seeds' folder, ending in '/' (default `<baseUrl>room/`); null: none. */
  roomUrl?: string | null;
  fetch?: typeof fetch;
  /** null: keep nothing (default: IndexedDB where there is one). */
  store?: WarmStartStore | null;
  /** Where to say what went wrong without failing the run (default console.warn). */
  warn?: (message: string) => void;
}

export function browserWarmStartCache(opts: BrowserWarmStartOptions = {}): WarmStartCache {
  const base = opts.baseUrl ?? '/warmstarts/';
  const roomBase = opts.roomUrl === undefined ? `${base}room/` : opts.roomUrl;
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const store = opts.store === undefined ? idbWarmStartStore() : opts.store;
  const warn = opts.warn ?? ((m: string) => console.warn(`Cohort Lab: ${m}`));
  const indexes = new Map<string, Promise<Map<string, string>>>();

  async function fetchText(url: string, limit: number): Promise<string> {
    const response = await doFetch(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new WarmStartFileError(`${url}: HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (length > limit) throw new WarmStartFileError(`${url} is ${length} bytes; the limit is ${limit}`);
    const text = await response.text();
    if (text.length > limit) throw new WarmStartFileError(`${url} is ${text.length} characters long; the limit is ${limit}`);
    return text;
  }

  /** key -> file name of the warm starts in `folder`; empty (with a warning) when it has no index. */
  function listed(folder: string): Promise<Map<string, string>> {
    let index = indexes.get(folder);
    if (!index) {
      index = (async () => {
        const url = `${folder}${WARM_START_INDEX_FILE}`;
        try {
          const parsed = parseWarmStartIndex(await fetchText(url, MAX_WARM_START_INDEX_CHARS));
          return new Map(parsed.files.map((f) => [f.key, f.file]));
        } catch (e) {
          warn(`no shipped warm starts (${url}: ${e instanceof Error ? e.message : String(e)}); members warm-start themselves`);
          return new Map<string, string>();
        }
      })();
      indexes.set(folder, index);
    }
    return index;
  }

  /** The URL of the shipped file of `key`: the presets' folder first, then the rooms' seeds' one. */
  async function shippedUrl(key: string): Promise<string | null> {
    for (const folder of roomBase === null ? [base] : [base, roomBase]) {
      const name = (await listed(folder)).get(key);
      if (name) return `${folder}${name}`;
    }
    return null;
  }

  return {
    async load(key) {
      if (!KEY_PATTERN.test(key)) return null;
      const url = await shippedUrl(key);
      if (url) {
        try {
          return parseWarmStartText(await fetchText(url, MAX_WARM_START_CHARS));
        } catch (e) {
          throw new WarmStartFileError(`shipped ${url}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      if (!store) return null;
      let stored: unknown;
      try {
        stored = await store.get(key);
      } catch (e) {
        warn(`cached warm starts cannot be read: ${storageErrorText(e)}`);
        return null;
      }
      if (stored === undefined || stored === null) return null;
      try {
        return decodeWarmStartFile(stored);
      } catch (e) {
        throw new WarmStartFileError(`cached: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    async save(file: WarmStartFile) {
      if (!store) throw new Error('this browser offers no IndexedDB to keep it in');
      try {
        await store.put(file.key, encodeWarmStartFile(file));
      } catch (e) {
        const why = storageErrorText(e);
        warn(`the warm start of member ${file.memberId} was not cached: ${why}`);
        throw new Error(why);
      }
    },
  };
}
