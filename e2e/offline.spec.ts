/**
 * Offline (src/pwa/pwaOptions.ts, src/app/pwa/): after one visit the service worker controls the
 * page; with the network off the lab reloads from its cache, is still cross-origin isolated (the
 * page and the training worker: wasm threads need it), and trains: a preset from its shipped warm
 * start, then an edited experiment that warm-starts itself. wasm throughout. A new browser
 * context (what every other test gets) starts without the service worker.
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ serviceWorkers: 'allow', viewport: { width: 1440, height: 900 } });

/** crossOriginIsolated in the page and in the training worker. */
async function isolation(page: Page): Promise<{ page: boolean; worker: boolean | null }> {
  const worker = page.workers().find((w) => w.url().includes('training.worker'));
  return {
    page: await page.evaluate(() => self.crossOriginIsolated),
    worker: worker ? await worker.evaluate(() => self.crossOriginIsolated) : null,
  };
}

/** What a request the service worker has not cached gets: 'failed' when the network is off. */
function fetchUncached(page: Page): Promise<string> {
  return page.evaluate(() => fetch(`/not-cached-${Date.now()}.txt`).then((r) => `HTTP ${r.status}`, () => 'failed'));
}

test('after one visit the lab reloads and trains with the network off', async ({ page, context, browser }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  // Which loads failed (the console names the resource): only the test's own uncached probes may.
  const failedLoads: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().startsWith('Failed to load resource')) failedLoads.push(new URL(m.location().url).pathname);
  });
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&v=1&preset=quick');
  expect(await isolation(page)).toEqual({ page: true, worker: true });

  // The first visit installs the service worker; it takes control of this page at once.
  await expect(page.getByTestId('offline-ready')).toBeVisible({ timeout: 120_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });

  await context.setOffline(true);
  // Really offline: a request the service worker does not answer from its cache fails.
  expect(await fetchUncached(page)).toBe('failed');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  await expect(lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
  await expect(page.getByTestId('preset-select')).toHaveValue('quick');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // Responses from the cache still carry COOP/COEP: the page and its worker stay isolated.
  expect(await isolation(page)).toEqual({ page: true, worker: true });

  // quick's reference run comes from the cache too.
  await expect(page.getByTestId('reference-bar')).toHaveAttribute('data-status', 'ready');

  // A preset: its warm starts come from the cached site files; RL steps arrive.
  await lab.button('start').click();
  for (const id of ['A', 'B']) await expect(page.getByTestId(`base-source-${id}`)).toHaveText('shipped (made on wasm)', { timeout: 120_000 });
  await lab.waitForStep(2);
  await lab.waitForPhase('done');
  await expect(page.getByTestId('run-error')).toHaveCount(0);

  // An edited experiment has no shipped warm start: it warm-starts itself, offline.
  await lab.button('reset').click();
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await lab.setField('seed', 7);
  await lab.setField('steps', 2);
  await lab.shortenWarmStart(8);
  await lab.button('start').click();
  await expect(page.getByTestId('base-source-A')).toHaveText('trained in this run', { timeout: 120_000 });
  await lab.waitForStep(1);
  await lab.waitForPhase('done');
  await expect(page.getByTestId('run-error')).toHaveCount(0);

  // Still offline at the end (the reload did not bring the network back).
  expect(await fetchUncached(page)).toBe('failed');

  // Another context (every Playwright test gets its own) starts without this service worker: the
  // other specs never see one left over from here.
  const fresh = await browser.newContext({ serviceWorkers: 'allow' });
  const other = await fresh.newPage();
  await other.addInitScript(() => Object.assign(window, { controlledAtStart: navigator.serviceWorker.controller !== null }));
  await other.goto(new URL('/?backend=wasm', page.url()).href);
  await expect(other.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  expect(await other.evaluate(() => (window as unknown as { controlledAtStart: boolean }).controlledAtStart)).toBe(false);
  await fresh.close();
  await page.addInitScript(() => Object.assign(window, { controlledAtStart: navigator.serviceWorker.controller !== null }));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { controlledAtStart: boolean }).controlledAtStart)).toBe(true);

  expect(failedLoads.length).toBe(2);
  expect(failedLoads.filter((path) => !path.startsWith('/not-cached-'))).toEqual([]);
  expect(errors.filter((e) => !e.startsWith('console: Failed to load resource'))).toEqual([]);
});
