/**
 * A numerical blow-up as a student meets it (docs/RELIABILITY.md, "Numerical blow-ups"): the
 * quick preset with the learning rate, KL weight and temperature pushed to where its loss
 * becomes NaN within a few steps, opened from a share link on wasm (bit-deterministic). The page
 * says why as text, every chart marks the step, no chart table holds a NaN, and the saved run
 * holds none either. Whatever the worker does after the 'nonfinite' event (end the run or pause
 * it), these hold.
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Within the schema's bounds: blows up at step 3 on wasm (src/core/experiment/blowUp.test.ts, cli/experiment/experiment.test.ts). */
const BLOW_UP = { grpo: { learningRate: 0.05, beta: 1, temperature: 0.1 } };

const NON_FINITE = /NaN|Infinity/;

/** Every event of every saved run, read straight from IndexedDB (NaN and Infinity survive there). */
async function savedEvents(page: Page): Promise<{ type: string; [k: string]: unknown }[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('cohort-lab-runs');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const rows = await new Promise<{ event: { type: string } }[]>((resolve, reject) => {
      const req = db.transaction('events', 'readonly').objectStore('events').getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return rows.map((r) => r.event);
  });
}

/** The path of the first NaN or infinity in plain data (null: none). */
function nonFiniteAt(v: unknown, path = ''): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : `${path}: ${v}`;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const found = nonFiniteAt(x, `${path}.${k}`);
      if (found) return found;
    }
  }
  return null;
}

test('a run whose loss becomes NaN: the explanation as text, a marker on every chart, no NaN in the tables or the saved run', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open(`?v=1&preset=quick&s=${b64(BLOW_UP)}&backend=wasm`);
  await expect(page.getByTestId('link-error')).toHaveCount(0);
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  await lab.button('start').click();

  // The explanation, as text in an alert: what, where, when, and what to change.
  const halt = page.getByRole('alert').filter({ has: page.getByTestId('run-halt-explanation') });
  await expect(halt).toBeVisible({ timeout: 180_000 });
  const step = Number(await page.getByTestId('run-halt').getAttribute('data-step'));
  expect(step).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('run-halt-explanation')).toHaveText(
    new RegExp(`^The (loss|gradient norm) of member [AB] in arm \\w+ became (NaN|Infinity|-Infinity) at step ${step}\\. This usually means the learning rate \\(5e-2\\) is too high for this model: lower it \\(try 5e-3\\).*beta \\(1; try 0\\.1\\).*then Start again\\.`),
  );
  await expect(lab.phase).toContainText(`Stopped at step ${step}`);
  // The charts hold the steps before it, and only those.
  await expect(lab.stepCounter).toHaveAttribute('data-step', String(step - 1));
  await expect(lab.stepCounter).toHaveAttribute('data-received', String(step - 1));

  // Every chart marks the step.
  const charts = page.locator('.chart-canvas');
  expect(await charts.count()).toBeGreaterThanOrEqual(6);
  for (const chart of await charts.all()) {
    await expect(chart).toHaveAttribute('data-marker', String(step));
    await expect(chart).toHaveAttribute('data-marker-label', new RegExp(`^step ${step}: (loss|gradient|weight) (NaN|Infinity|-Infinity)$`));
  }

  // No chart table holds a NaN or an infinity, nor a row for the step that blew up.
  for (const panel of ['pseudo', 'disagreement']) await lab.unfold(panel); // folded by default
  const toggles = page.locator('[data-testid$="-table-toggle"]');
  const ids = await toggles.evaluateAll((els) => els.map((e) => (e.getAttribute('data-testid') ?? '').replace(/-table-toggle$/, '')));
  expect(ids.length).toBeGreaterThanOrEqual(6);
  for (const id of ids) {
    await page.getByTestId(`${id}-table-toggle`).click();
    const table = page.getByTestId(`${id}-table`);
    await expect(table).toBeVisible();
    const text = await table.innerText();
    expect(text, id).not.toMatch(NON_FINITE);
    const rowSteps = await table.locator('tbody th').allTextContents();
    expect(rowSteps, id).not.toContain(String(step));
  }

  // The saved run: its steps and the 'nonfinite' event last, no NaN or infinity anywhere.
  const row = page.getByTestId('saved-run');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-steps-done', String(step - 1), { timeout: 30_000 });
  await expect.poll(async () => (await savedEvents(page)).at(-1)?.type, { timeout: 30_000 }).toBe('nonfinite');
  const events = await savedEvents(page);
  expect(events.map((e) => e.type)).toEqual(['base', ...Array.from({ length: step - 1 }, () => 'step'), 'nonfinite']);
  expect(nonFiniteAt(events)).toBeNull();
  expect(events.at(-1)).toMatchObject({ step });

  // Halted, not paused: a resume would halt at the same step, so the row offers Open, not Resume.
  await expect(row).toHaveAttribute('data-status', 'halted');
  await expect(row.getByTestId('run-status')).toHaveText('halted: not finite');

  // Opened again from the list after a reload, it shows the same halt and marker.
  await page.reload();
  await expect(page.getByTestId('saved-runs')).toHaveAttribute('data-loaded', 'true', { timeout: 90_000 });
  await expect(row).toHaveAttribute('data-status', 'halted');
  await expect(row.getByRole('button', { name: /^Resume/ })).toHaveCount(0);
  await row.getByRole('button', { name: /^Open/ }).click();
  await expect(page.getByTestId('run-halt')).toHaveAttribute('data-step', String(step));
  await expect(page.getByTestId('run-halt-explanation')).toContainText(`at step ${step}`);
  await expect(page.locator('.chart-canvas').first()).toHaveAttribute('data-marker', String(step));
  await expect(lab.stepCounter).toHaveAttribute('data-step', String(step - 1));
  expect(errors).toEqual([]);
});
