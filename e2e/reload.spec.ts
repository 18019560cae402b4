/**
 * A reload shows the last run of the experiment on screen again: an unfinished
 * one with Resume, a finished one as it ended. Saved runs themselves: e2e/savedRuns.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

// serviceWorkers: the reload is served as users get it, by the service worker.
test.use({ viewport: { width: 1280, height: 720 }, serviceWorkers: 'allow' });

test('after a reload the last run is back on the charts: resumed from the hero, then shown finished', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&v=1&preset=quick');
  await expect(page.getByTestId('hero-restored')).toHaveCount(0); // a fresh browser has none
  await page.getByTestId('speed').selectOption('2');
  await lab.button('start').click();
  await lab.waitForStep(2, 120_000);
  // Saving is asynchronous: reload only once steps are in IndexedDB (under load the first save can
  // come after the step is drawn, and a reload before it has nothing to show).
  const row = page.getByTestId('saved-run');
  await expect.poll(async () => Number((await row.getAttribute('data-steps-done')) ?? 0), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);

  // Closed mid-run: back on the charts, to be resumed.
  await page.reload();
  await expect(page.getByTestId('hero-restored')).toHaveAttribute('data-resumable', 'true', { timeout: 90_000 });
  await expect(page.getByTestId('hero-restored')).toContainText('of 6 RL steps, not finished');
  expect(await lab.points('chart-hero-self')).toBeGreaterThan(0);
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('hero-resume').click();
  await lab.waitForPhase('done', 120_000);

  // Finished: shown as it ended, with what it showed.
  await page.reload();
  await expect(page.getByTestId('hero-restored')).toHaveAttribute('data-resumable', 'false', { timeout: 90_000 });
  await expect(page.getByTestId('hero-restored')).toContainText('6 of 6 RL steps.');
  await expect(lab.phase).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('claim-sentences')).toBeVisible();
  expect(await lab.step()).toBe(6);
  // Start trains it afresh.
  await expect(lab.button('start')).toBeEnabled();
  expect(errors).toEqual([]);
});
