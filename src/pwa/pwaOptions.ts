/**
 * The service worker and web manifest (vite-plugin-pwa, Workbox's generateSW), used by
 * vite.config.ts. What it makes the lab do: after one visit it reloads and trains with the network
 * off, and it can be installed as an app.
 *
 * - Precached at install (one list, revisioned, replaced as a whole by the next build): the page,
 *   its CSS and JS, the training worker and its lazily imported chunks, tfjs's three wasm binaries
 *   (plain, SIMD, threaded SIMD: which one runs depends on the browser), the icons and manifest,
 *   and every shipped warm start (public/warmstarts; its size: docs/WARMSTARTS.md). The warm starts are precached,
 *   not cached at run time, because the worker trusts the index it reads: a preset whose index
 *   entry is cached but whose file is not would stop offline; precached, every preset works. The
 *   presets' reference runs (public/references: docs/LAB.md) are precached for the same reason.
 * - Not precached: the rooms' seeds' warm starts (public/warmstarts/room/, tens of MB: a first
 *   visit downloads none of them). A class's seat fetches its own seed's files when its run
 *   starts, and the worker caches them at run time (`ROOM_WARM_START_CACHING`): a file, named by
 *   its key (a hash of what its weights depend on), never changes, so it is served from the cache
 *   once there; the folder's index goes to the network first. Offline, a seat whose files are
 *   not cached warm-starts its members itself (docs/WARMSTARTS.md, "Room seeds").
 * - Cross-origin isolation (COOP/COEP, wasm threads) survives: the Cache API keeps each response's
 *   headers as the server sent them, so index.html and the worker script come back from the cache
 *   with the headers vite.config.ts sets (e2e/offline.spec.ts checks crossOriginIsolated offline).
 * - Updates wait: a new version installs in the background and the page offers to reload
 *   (src/app/pwa/); it never reloads on its own in the middle of a run. The first install claims
 *   the open page at once (clientsClaim), so that visit is already offline-ready.
 * - Production builds only: the dev server and Vitest never see a service worker.
 */
import type { VitePWAOptions } from 'vite-plugin-pwa';

/**
 * Files of the build (dist/) the service worker precaches; the manifest and its icons are added by
 * the plugin (includeManifestIcons), so they are not globbed twice.
 */
export const PRECACHE_GLOBS = ['**/*.{html,js,css,wasm}', 'warmstarts/*.json', 'references/*.json'];

/** Largest file the precache takes. The training worker bundle (tfjs) is about 2.1 MB, over Workbox's 2 MiB default. */
export const MAX_PRECACHE_FILE_BYTES = 8 * 1024 * 1024;

/** Run-time caching of the rooms' seeds' warm starts (not precached): the files cache first, the index network first. */
export const ROOM_WARM_START_CACHING = [
  {
    urlPattern: /\/warmstarts\/room\/[0-9a-f]{16}\.json$/,
    handler: 'CacheFirst' as const,
    options: { cacheName: 'room-warmstarts', expiration: { maxEntries: 64 } },
  },
  {
    urlPattern: /\/warmstarts\/room\/index\.json$/,
    handler: 'NetworkFirst' as const,
    options: { cacheName: 'room-warmstarts-index', expiration: { maxEntries: 1 } },
  },
];

export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'generateSW',
  registerType: 'prompt',
  // src/main.tsx registers it, in production builds only (src/app/pwa/register.ts).
  injectRegister: false,
  devOptions: { enabled: false },
  manifest: {
    name: 'Cohort Lab',
    short_name: 'Cohort Lab',
    description: 'Train cohorts of tiny language models in the browser with label-free RL, and watch self-reward collapse.',
    // Relative to the manifest, which the build writes at its base: the app, its scope and its icons
    // stay under whatever path the lab is served from (`npm run build -- --base /cohort-lab/`).
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#f6f7f9',
    theme_color: '#2563eb',
    icons: [
      { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: PRECACHE_GLOBS,
    maximumFileSizeToCacheInBytes: MAX_PRECACHE_FILE_BYTES,
    runtimeCaching: ROOM_WARM_START_CACHING,
    // Every navigation (/?v=1&preset=..., /?workshop=1&step=2) is the one page.
    navigateFallback: 'index.html',
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
  },
};
