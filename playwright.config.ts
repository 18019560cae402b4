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
    trace: 'retain-on-failure',
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
