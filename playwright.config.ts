import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/find-chromium.mjs';

/**
 * E2E tests in the system Chromium (Playwright never downloads a browser here).
 * Run through `npm run test:e2e` (scripts/run-e2e.mjs), which checks for Chromium first.
 *
 * Server: a production build served by `vite preview` (what users get; no dev-server
 * dependency-discovery reloads). Port 4174, not 4173, so a hand-started `npm run preview` with a
 * stale build is never mistaken for this one.
 */
const PORT = Number(process.env.E2E_PORT ?? 4174);
const BASE_URL = `http://127.0.0.1:${PORT}`;

const TRACE =
  process.env.E2E_TRACE === 'full'
    ? ('retain-on-failure' as const)
    : process.env.E2E_TRACE === 'off'
      ? ('off' as const)
      : { mode: 'retain-on-failure' as const, snapshots: false, screenshots: true, sources: true };

const executablePath = findChromium() ?? undefined;
if (!executablePath) {
  console.warn('playwright.config: no Chromium found; run `apt-get install chromium` or set CHROMIUM_PATH.');
}

// The machine has no network: stop Chromium from trying to reach one.
const quietArgs = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'e2e',
  // Playwright empties outputDir at start: keep it apart from unit.json / e2e.json / screenshots.
  outputDir: 'test-results/playwright',
  // Two browsers at once by default: one alone leaves a core idle about a third of the time
  // (waiting on the page); E2E_WORKERS=1 for one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  expect: { timeout: 45_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: BASE_URL,
    headless: true,
    // No service worker unless a spec asks for one: each fresh context would otherwise install it
    // and precache the whole build (55 entries, about 10 MB, warm starts included) beside the page's
    // own loads, about 1.2 CPU-seconds per context (browser and preview server, measured) that no
    // test reads. The specs about what the worker does opt in with test.use({ serviceWorkers:
    // 'allow' }): offline (the worker itself), csp (its script under the policy), layout (its
    // offline notice), reload and savedRuns (a reload served by it).
    serviceWorkers: 'block',
    // A failed test keeps a trace of its actions, console, network and a filmstrip of its pages,
    // without the DOM snapshot at every action and every poll of an expect: those took about a
    // fifth of a spec's CPU time on 2 cores (CPU-seconds of a spec's whole process tree, full
    // trace / this one / none: charts.spec 14.6 / 11.4 / 9.3, classRoom.spec 176 / 139 / 116).
    // E2E_TRACE=full keeps the snapshots (to step through a failure's DOM), E2E_TRACE=off records nothing.
    trace: TRACE,
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'webgpu',
      testIgnore: /.*\.nowebgpu\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath, args: [...quietArgs, '--enable-unsafe-webgpu'] },
      },
    },
    {
      name: 'no-webgpu',
      testMatch: /.*\.nowebgpu\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath, args: quietArgs },
      },
    },
  ],
  webServer: {
    // `vite build` only (no tsc): type errors are the typecheck's job, not a reason for the
    // browser tests to be skipped.
    command: `node node_modules/vite/bin/vite.js build --logLevel warn && node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
