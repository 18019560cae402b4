import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPreset } from '../core/experiment/presets';
import { encodeWarmStartFile, parseWarmStartText, warmStartInputs, warmStartKey, type WarmStartFileJson } from '../core/experiment/warmStartCache';
import { SHIPPED_WARM_START_DIR } from './warmStartNode';
import { browserWarmStartCache, storageErrorText, type WarmStartStore } from './warmStartSource';

/** A fetch that serves public/warmstarts under /warmstarts/ and records what was asked. */
function siteFetch(overrides: Record<string, string | number> = {}) {
  const asked: string[] = [];
  const fn = (async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(url);
    if (url in overrides) {
      const o = overrides[url];
      return typeof o === 'number' ? new Response('nope', { status: o }) : new Response(o);
    }
    const name = url.replace(/^\/warmstarts\//, '');
    try {
      return new Response(readFileSync(join(SHIPPED_WARM_START_DIR, name), 'utf8'));
    } catch {
      return new Response('not found', { status: 404 });
    }
  }) as typeof fetch;
  return { fn, asked };
}

function memoryStore(fail?: { get?: Error; put?: Error }): WarmStartStore & { map: Map<string, WarmStartFileJson> } {
  const map = new Map<string, WarmStartFileJson>();
  return {
    map,
    async get(key) {
      if (fail?.get) throw fail.get;
      return map.get(key);
    },
    async put(key, file) {
      if (fail?.put) throw fail.put;
      map.set(key, file);
    },
  };
}

const quick = getPreset('quick')!.spec;
const quickKey = warmStartKey(quick, quick.members[0], warmStartInputs(quick).maxLen, 'wasm');

describe('browserWarmStartCache', () => {
  it('fetches a shipped file the index lists, and asks the server for nothing else', async () => {
    const site = siteFetch();
    const cache = browserWarmStartCache({ fetch: site.fn, store: memoryStore(), warn: () => {} });
    const file = await cache.load(quickKey, 'A');
    expect(file).toMatchObject({ key: quickKey, origin: 'shipped', backend: 'wasm', memberId: 'A' });
    // A preset's key never asks for the rooms' seeds' index; a key neither index lists asks for it once.
    expect(site.asked).toEqual(['/warmstarts/index.json', `/warmstarts/${quickKey}.json`]);
    expect(await cache.load('0123456789abcdef', 'A')).toBeNull();
    expect(await cache.load('0123456789abcdee', 'A')).toBeNull();
    expect(await cache.load('../index', 'A')).toBeNull();
    expect(site.asked).toEqual(['/warmstarts/index.json', `/warmstarts/${quickKey}.json`, '/warmstarts/room/index.json']);
  });

  it("fetches a room seed's file from the rooms' folder, on demand", async () => {
    const site = siteFetch();
    const cache = browserWarmStartCache({ fetch: site.fn, store: null, warn: () => {} });
    const spec = { ...getPreset('peers-learn')!.spec, seed: 111 };
    const key = warmStartKey(spec, spec.members[1], warmStartInputs(spec).maxLen, 'wasm');
    expect(await cache.load(key, 'B')).toMatchObject({ key, origin: 'shipped', memberId: 'B' });
    expect(site.asked).toEqual(['/warmstarts/index.json', '/warmstarts/room/index.json', `/warmstarts/room/${key}.json`]);
    // Without the rooms' folder the member warm-starts itself.
    const none = browserWarmStartCache({ fetch: siteFetch().fn, store: null, roomUrl: null, warn: () => {} });
    expect(await none.load(key, 'B')).toBeNull();
  });

  it('keeps and finds trained warm starts in its store', async () => {
    const store = memoryStore();
    const cache = browserWarmStartCache({ fetch: siteFetch().fn, store, warn: () => {} });
    const shipped = (await cache.load(quickKey, 'A'))!;
    await cache.save({ ...shipped, origin: 'cached' });
    expect(store.map.get(shipped.key)).toMatchObject({ origin: 'cached' });
    const other = browserWarmStartCache({ fetch: siteFetch({ '/warmstarts/index.json': 404 }).fn, store, warn: () => {} });
    expect(await other.load(quickKey, 'A')).toMatchObject({ origin: 'cached', key: quickKey });
  });

  it('without an index (404, or the page instead of JSON) there are no shipped files, with one warning', async () => {
    for (const index of [404, '<!doctype html><html></html>']) {
      const warnings: string[] = [];
      const cache = browserWarmStartCache({ fetch: siteFetch({ '/warmstarts/index.json': index }).fn, store: null, warn: (m) => warnings.push(m) });
      expect(await cache.load(quickKey, 'A')).toBeNull();
      expect(await cache.load(quickKey, 'B')).toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^no shipped warm starts \(\/warmstarts\/index.json: .*\); members warm-start themselves$/);
    }
  });

  it('refuses a bad shipped file with a message naming it', async () => {
    const url = `/warmstarts/${quickKey}.json`;
    const text = readFileSync(join(SHIPPED_WARM_START_DIR, `${quickKey}.json`), 'utf8');
    const cases: [string | number, string][] = [
      [text.replace('"version":1', '"version":7'), 'was made by a newer Cohort Lab (format v7'],
      [text.slice(0, 1000), 'is not valid JSON'],
      [500, 'HTTP 500'],
    ];
    for (const [body, says] of cases) {
      const cache = browserWarmStartCache({ fetch: siteFetch({ [url]: body }).fn, store: null, warn: () => {} });
      await expect(cache.load(quickKey, 'A')).rejects.toThrow(`shipped ${url}: `);
      await expect(cache.load(quickKey, 'A')).rejects.toThrow(says);
    }
  });

  it('a store that cannot be read finds nothing; one that cannot write says why in words', async () => {
    const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    const privateMode = Object.assign(new Error('A mutation operation was attempted on a database that did not allow mutations.'), { name: 'InvalidStateError' });
    const warnings: string[] = [];
    const file = parseWarmStartText(readFileSync(join(SHIPPED_WARM_START_DIR, `${quickKey}.json`), 'utf8'));
    const noIndex = siteFetch({ '/warmstarts/index.json': 404 }).fn;
    const broken = browserWarmStartCache({ fetch: noIndex, store: memoryStore({ get: privateMode, put: quota }), warn: (m) => warnings.push(m) });
    expect(await broken.load(quickKey, 'A')).toBeNull();
    await expect(broken.save(file)).rejects.toThrow("the browser's storage for this site is full");
    expect(warnings.at(-1)).toBe("the warm start of member A was not cached: the browser's storage for this site is full");
    expect(storageErrorText(privateMode)).toMatch(/^the browser keeps no data for this page \(private browsing\?\)/);
    const none = browserWarmStartCache({ fetch: noIndex, store: null, warn: () => {} });
    await expect(none.save(file)).rejects.toThrow('this browser offers no IndexedDB to keep it in');
    // A corrupt stored entry is refused, not used.
    const store = memoryStore();
    store.map.set(quickKey, { ...encodeWarmStartFile(file), params: 1 });
    const corrupt = browserWarmStartCache({ fetch: noIndex, store, warn: () => {} });
    await expect(corrupt.load(quickKey, 'A')).rejects.toThrow('cached: the warm-start file says it holds 1 values');
  });
});
