/** The web manifest's icons exist with the sizes it states; every shipped file fits the precache. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { minimatch } from 'minimatch';
import { MAX_PRECACHE_FILE_BYTES, PRECACHE_GLOBS, ROOM_WARM_START_CACHING, pwaOptions } from './pwaOptions';

const PUBLIC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');

/** Width x height from a PNG's IHDR chunk. */
function pngSize(path: string): string {
  const b = readFileSync(path);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
}

describe('the web manifest and the precache', () => {
  it('lists icons that exist, PNGs of 192 and 512 pixels among them, and a maskable one', () => {
    const manifest = pwaOptions.manifest;
    if (!manifest) throw new Error('no manifest');
    const icons = manifest.icons ?? [];
    for (const icon of icons) {
      const path = join(PUBLIC, icon.src);
      expect(statSync(path).isFile()).toBe(true);
      if (icon.type === 'image/png') expect(pngSize(path)).toBe(icon.sizes);
    }
    const pngs = icons.filter((i) => i.type === 'image/png' && i.purpose === 'any').map((i) => i.sizes);
    expect(pngs).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  });

  it('precaches the shipped warm starts, and every one fits under the size limit', () => {
    expect(PRECACHE_GLOBS).toContain('warmstarts/*.json');
    expect(pwaOptions.workbox?.maximumFileSizeToCacheInBytes).toBe(MAX_PRECACHE_FILE_BYTES);
    const dir = join(PUBLIC, 'warmstarts');
    const sizes = readdirSync(dir).map((f) => statSync(join(dir, f)).size);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThan(MAX_PRECACHE_FILE_BYTES);
  });

  it("precaches none of the rooms' seeds' warm starts, and caches them at run time once fetched", () => {
    const dir = join(PUBLIC, 'warmstarts', 'room');
    const names = readdirSync(dir);
    expect(names).toContain('index.json');
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const path = `warmstarts/room/${name}`;
      expect(PRECACHE_GLOBS.some((g) => minimatch(path, g))).toBe(false);
      expect(ROOM_WARM_START_CACHING.some((r) => r.urlPattern.test(`/${path}`))).toBe(true);
    }
    // The precached folder's own files are not caught by the run-time rules.
    expect(ROOM_WARM_START_CACHING.some((r) => r.urlPattern.test('/warmstarts/index.json'))).toBe(false);
    expect(pwaOptions.workbox?.runtimeCaching).toBe(ROOM_WARM_START_CACHING);
  });

  it('precaches the reference runs with their index, so a preset draws its reference offline', () => {
    expect(PRECACHE_GLOBS).toContain('references/*.json');
    expect(readdirSync(join(PUBLIC, 'references'))).toContain('index.json');
  });

  it('serves the page for every navigation and waits for the user before updating', () => {
    expect(pwaOptions.workbox?.navigateFallback).toBe('index.html');
    expect(pwaOptions.workbox?.skipWaiting).toBe(false);
    expect(pwaOptions.registerType).toBe('prompt');
  });
});
