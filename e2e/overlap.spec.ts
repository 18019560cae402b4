/**
 * The overlap preset in the browser: `?preset=overlap` opens it with its shipped warm
 * starts (seven members, eight arms), it runs, and the panel "Does a more different partner teach
 * more?" gets one point per dial level of the finished run, drawn over the reference block.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('?preset=overlap runs from its shipped warm starts and its panel gets a point per level', async ({ page }) => {
  test.setTimeout(400_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  // Another preset: no overlap panel.
  await lab.open('?backend=wasm&v=1&preset=peers-learn');
  await expect(page.getByTestId('panel-overlap')).toHaveCount(0);
  // Two steps of the preset (an evaluation at each), so the test is short; the levels are the preset's.
  await lab.open(`?backend=wasm&v=1&preset=overlap&s=${b64({ steps: 2, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue('2');
  const panel = page.getByTestId('panel-overlap');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('overlap-plot')).toHaveAttribute('data-points', '0');
  await expect(page.getByTestId('overlap-summary')).toContainText('No finished run yet');
  await lab.button('start').click();
  await lab.waitForPhase('done', 360_000);
  await expect(page.getByTestId('overlap-plot')).toHaveAttribute('data-points', '6');
  await expect(page.getByTestId('overlap-table').locator('tbody tr')).toHaveCount(6);
  await expect(page.getByTestId('overlap-table').locator('tbody tr').first()).toContainText('S');
  await expect(page.getByTestId('overlap-summary')).toContainText('6 points from 1 run');
  // The reference block's points are drawn behind, grey; no line through them (a steady fall over
  // the levels is not shown in RESULTS, so the panel draws none).
  expect(await page.getByTestId('overlap-plot').locator('circle[fill="#bbb"]').count()).toBeGreaterThan(10);
  await expect(page.getByTestId('overlap-plot').locator('polyline, path')).toHaveCount(0);
  await expect(panel).toContainText('no line is drawn through the points');
  expect(errors).toEqual([]);
});
