/**
 * Saved runs (src/app/runs/): every run is kept in IndexedDB as it trains, survives a reload
 * mid-run and continues from its last checkpoint with its whole history on the charts; runs can
 * be renamed, overlaid on the charts and deleted; storage that is missing, full or damaged is
 * explained in words while the run in memory goes on. wasm throughout: fast and deterministic.
 */
import { type Locator, type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

// serviceWorkers: the reloads are served as users get them, by the service worker.
test.use({ viewport: { width: 1440, height: 900 }, serviceWorkers: 'allow' });

/** The quick preset with a short warm start and `steps` RL steps, at `speed` steps per second. */
async function startQuick(lab: LabPage, steps: number, speed: '1' | 'max' = 'max'): Promise<void> {
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(12);
  await lab.setField('steps', steps);
  await lab.page.getByTestId('speed').selectOption(speed);
  await expect(lab.button('start')).toBeEnabled();
  await lab.button('start').click();
}

async function reload(lab: LabPage): Promise<void> {
  await lab.page.reload();
  await expect(lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
  await expect(lab.page.getByTestId('saved-runs')).toHaveAttribute('data-loaded', 'true');
}

const savedRun = (page: Page): Locator => page.getByTestId('saved-run');

/** Start recording every phase the run status shows; the returned function reads them. */
async function recordPhases(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="run-phase"]')!;
    const seen: string[] = [];
    (window as unknown as { phasesSeen: string[] }).phasesSeen = seen;
    new MutationObserver(() => seen.push(el.getAttribute('data-phase') ?? '')).observe(el, { attributes: true, attributeFilter: ['data-phase'] });
  });
  return () => page.evaluate(() => (window as unknown as { phasesSeen: string[] }).phasesSeen);
}

/** Every step the charts were given, and the last one: equal when no step of the run is missing. */
async function expectWholeHistory(lab: LabPage, steps: number): Promise<void> {
  await expect(lab.stepCounter).toHaveAttribute('data-step', String(steps));
  await expect(lab.stepCounter).toHaveAttribute('data-received', String(steps));
}

test('a run survives a reload mid-run: listed, resumed from its checkpoint, whole history, same numbers', async ({ page }) => {
  test.setTimeout(480_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await expect(page.getByTestId('runs-empty')).toBeVisible();

  // One step a second, so the reload lands mid-run.
  await startQuick(lab, 12, '1');
  const row = savedRun(page);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-live', 'true');
  await expect(row.getByTestId('run-name')).toContainText('Quick look (edited)');
  // A checkpoint every 5 steps: wait until the one of step 5 is saved and the run is past it.
  await expect(row).toHaveAttribute('data-checkpoint-step', '5', { timeout: 240_000 });
  await lab.waitForStep(7);
  expect(await lab.step()).toBeLessThan(12);

  await reload(lab);
  // The last run of this experiment is back on the charts, to be resumed (e2e/reload.spec.ts).
  await expect(page.getByTestId('hero-restored')).toHaveAttribute('data-resumable', 'true');
  await expect(lab.phase).toHaveAttribute('data-phase', 'stopped');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'running');
  await expect(row.getByTestId('run-status')).toHaveText('interrupted');
  const checkpointStep = Number(await row.getAttribute('data-checkpoint-step'));
  expect([5, 10]).toContain(checkpointStep);
  expect(Number(await row.getAttribute('data-steps-done'))).toBeGreaterThanOrEqual(checkpointStep);

  await page.getByTestId('speed').selectOption('max');
  const phases = await recordPhases(page);
  await row.getByRole('button', { name: 'Resume Quick look (edited)' }).click();
  await expect(row).toHaveAttribute('data-live', 'true');
  await lab.waitForPhase('done');
  // From the checkpoint: no warm start again.
  expect(await phases()).not.toContain('warmstart');
  expect(await phases()).toContain('rl');
  // The steps before the reload (replayed) and after (trained now): all 12 on the charts.
  await expectWholeHistory(lab, 12);
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row).toHaveAttribute('data-steps-done', '12');
  const resumed = await lab.stepCounter.getAttribute('data-last-metrics');

  // Finished: after a reload it opens as it was (view only), with the whole history.
  await reload(lab);
  await expect(row.getByTestId('run-status')).toHaveText('finished');
  await expect(row.getByRole('button', { name: /^Resume/ })).toHaveCount(0);
  await row.getByRole('button', { name: 'Open Quick look (edited)' }).click();
  await expect(lab.phase).toHaveAttribute('data-phase', 'done');
  await expectWholeHistory(lab, 12);
  expect(await lab.points('chart-pseudo')).toBeGreaterThan(0);
  expect(await lab.stepCounter.getAttribute('data-last-metrics')).toBe(resumed);
  await expect(page.getByTestId('field-steps')).toHaveValue('12');

  // The same experiment without a reload ends on the same numbers as the resumed one.
  await lab.button('reset').click();
  await lab.button('start').click();
  await lab.waitForPhase('done');
  expect(await lab.stepCounter.getAttribute('data-last-metrics')).toBe(resumed);
  await expect(savedRun(page)).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('rename, overlay on the charts and delete (with a confirmation) a saved run', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await startQuick(lab, 2);
  await lab.waitForPhase('done');
  const row = savedRun(page);
  await expect(row).toHaveAttribute('data-status', 'done');

  await row.getByRole('button', { name: /^Rename/ }).click();
  const input = row.getByRole('textbox', { name: 'Name' });
  await expect(input).toBeFocused();
  await input.fill('  First <b>try</b>  ');
  await input.press('Enter');
  await expect(row.getByTestId('run-name')).toHaveText(/^First <b>try<\/b>/);
  await expect(page.locator('.saved-runs b')).toHaveCount(0); // text, never HTML
  await reload(lab);
  await expect(row.getByTestId('run-name')).toHaveText('First <b>try</b>');
  // Escape leaves the name as it was.
  await row.getByRole('button', { name: /^Rename/ }).click();
  await row.getByRole('textbox', { name: 'Name' }).fill('Not this');
  await row.getByRole('textbox', { name: 'Name' }).press('Escape');
  await expect(row.getByTestId('run-name')).toHaveText('First <b>try</b>');

  // Overlay: a compare layer under the run's name, removed again.
  await row.getByRole('button', { name: 'Overlay First <b>try</b>' }).click();
  const overlay = page.getByTestId('overlay-item');
  await expect(overlay).toHaveCount(1);
  await expect(overlay).toContainText('First <b>try</b>');
  await expect(overlay).toHaveAttribute('data-layer-id', `saved:${await row.getAttribute('data-run-id')}`);
  await page.getByRole('button', { name: 'Remove overlay First <b>try</b>' }).first().click();
  await expect(overlay).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Overlay First <b>try</b>' })).toBeVisible();

  // Delete asks first; Cancel keeps the run.
  await row.getByRole('button', { name: 'Delete First <b>try</b>' }).click();
  await page.getByRole('group', { name: 'Delete First <b>try</b>?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Delete First <b>try</b>' }).click();
  await row.getByTestId('confirm-delete').click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('runs-empty')).toBeVisible();
  await reload(lab);
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('runs-empty')).toBeVisible();
  expect(errors).toEqual([]);
});

test('full storage: saving stops with a message, the run goes on, what was saved stays and resumes', async ({ page }) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  // The page's IndexedDB refuses events and checkpoints once the test says so, as a full disk does.
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if ((window as unknown as { failSaves?: boolean }).failSaves && this.name !== 'runs') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await startQuick(lab, 12, '1');
  const row = savedRun(page);
  await expect(row).toHaveAttribute('data-checkpoint-step', '5', { timeout: 240_000 });
  await lab.waitForStep(6);
  await page.evaluate(() => ((window as unknown as { failSaves?: boolean }).failSaves = true));
  await expect(page.getByTestId('runs-problem')).toHaveText(/^Saving failed: the browser's storage for this site is full .*The run goes on in this page; what was saved before is kept\.$/, { timeout: 60_000 });
  await page.getByTestId('speed').selectOption('max');
  await lab.waitForPhase('done');
  await expectWholeHistory(lab, 12);
  // Nothing after the failure was written, nothing before it was lost.
  await expect(row).toHaveAttribute('data-checkpoint-step', '5');
  expect(Number(await row.getAttribute('data-steps-done'))).toBeLessThan(12);

  await reload(lab);
  await expect(page.getByTestId('runs-problem')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-status', 'running');
  await expect(row).toHaveAttribute('data-checkpoint-step', '5');
  await row.getByRole('button', { name: /^Resume/ }).click();
  await lab.waitForPhase('done');
  await expectWholeHistory(lab, 12);
  await expect(row).toHaveAttribute('data-status', 'done');
  expect(errors).toEqual([]);
});

test('no IndexedDB: the list says runs are not saved and runs still train', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true }));
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await expect(page.getByTestId('runs-problem')).toHaveText(/^Runs are not saved: this browser offers no storage for this page/);
  await startQuick(lab, 2);
  await lab.waitForPhase('done');
  await expectWholeHistory(lab, 2);
  await expect(savedRun(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('damaged stored data is reported in words; the page goes on', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await startQuick(lab, 2);
  await lab.waitForPhase('done');
  const row = savedRun(page);
  await expect(row).toHaveAttribute('data-steps-done', '2');
  const id = (await row.getAttribute('data-run-id')) ?? '';

  // Another page (or a hand edit) left a row that is not a run, and damaged a step of this one.
  await page.evaluate(async (runId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('cohort-lab-runs');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const tx = db.transaction(['runs', 'events'], 'readwrite');
    tx.objectStore('runs').put({ id: 'broken', name: 42 });
    const events = tx.objectStore('events');
    const get = events.get([runId, 1]);
    get.onsuccess = () => events.put({ ...get.result, event: { ...get.result.event, arms: '<img src=x onerror=alert(1)>' } });
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, id);

  await reload(lab);
  await expect(page.getByTestId('saved-run-bad')).toContainText('A saved run (broken) cannot be read: name:');
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Open/ }).click();
  await expect(page.getByTestId('runs-notice')).toContainText('cannot be opened: saved event 1 is damaged (event.arms:');
  await expect(page.locator('img')).toHaveCount(0);
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await expect(lab.button('start')).toBeEnabled();
  await page.getByRole('button', { name: 'Delete unreadable run broken' }).click();
  await expect(page.getByTestId('saved-run-bad')).toHaveCount(0);
  expect(errors).toEqual([]);
});
