/**
 * Reference runs (src/app/reference/): a preset with a shipped reference (public/references/) hides
 * it until revealed, the question to predict beside "Reveal the reference run"; then the toggle and what the layer is, and the toggle takes the layer out of the
 * lab's compare layers and puts it back (the reference bar's data-layer: the charts' drawing of
 * compare layers is tested with the charts); a preset without one says so, an edit drops it;
 * "Show the reference only" fills the charts with the reference, under its banner, without
 * training, and Start trains the preset as usual. wasm: fast and the same everywhere.
 */
import { type Locator, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { CHARTS, LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

/** Check or uncheck with a real click, again if a layout shift made the click miss. */
async function setChecked(box: Locator, checked: boolean): Promise<void> {
  await expect(async () => {
    await box.setChecked(checked, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(box).toBeChecked({ checked });
}

test('a preset with a shipped reference: toggle, label, the reference alone, then a run of its own', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  // Every preset ships a reference now; a site whose index leaves ring out stands for a preset
  // without one (the page reads only what the index lists).
  await page.route('**/references/index.json', async (route) => {
    const index = (await (await route.fetch()).json()) as { references: { preset: string }[] };
    await route.fulfill({ json: { ...index, references: index.references.filter((r) => r.preset !== 'ring') } });
  });
  await lab.open('?backend=wasm');
  const bar = page.getByTestId('reference-bar');
  const toggle = page.getByTestId('reference-toggle');
  // The default preset, peers-learn, ships the measured run of its confirmation seeds (docs/RESULTS.md).
  await expect(bar).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('reference-label')).toContainText('reference: 8 seeds, mean (seeds 109-116, trained on wasm)');
  await lab.choosePreset('quick');

  await expect(bar).toHaveAttribute('data-status', 'ready');
  // Predict, then reveal: the measured answer is hidden until it is revealed, the question beside it.
  await expect(toggle).not.toBeChecked();
  await expect(bar).toHaveAttribute('data-layer', 'off');
  await expect(page.getByTestId('reference-predict')).toHaveText('Predict first. Which arm will end above its start, and which below?');
  await expect(bar.getByText('Reveal the reference run')).toBeVisible();
  await setChecked(toggle, true);
  await expect(page.getByTestId('reference-predict')).toBeHidden();
  await expect(bar).toHaveAttribute('data-layer', 'on');
  await expect(page.getByTestId('reference-label')).toHaveText('reference: 8 seeds, mean (seeds 1-8, trained on wasm), drawn dashed behind the live curves');

  // The toggle takes the layer away and brings it back. (Under a loaded CPU a late layout shift
  // once made the pointer miss the box: setChecked retries until the box says it changed.)
  await setChecked(toggle, false);
  await expect(bar).toHaveAttribute('data-layer', 'off');
  await expect(page.getByTestId('reference-label')).toContainText(', hidden');
  await setChecked(toggle, true);
  await expect(bar).toHaveAttribute('data-layer', 'on');

  // A preset without a reference (ring, left out of the index above) says so; an edited
  // experiment drops the reference.
  await lab.choosePreset('ring');
  await expect(page.getByTestId('reference-none')).toHaveText('No reference run shipped for this preset.');
  await expect(bar).toHaveAttribute('data-layer', 'off');
  await lab.choosePreset('quick');
  await expect(bar).toHaveAttribute('data-layer', 'on');
  await lab.setField('steps', 5);
  await expect(page.getByTestId('reference-edited')).toHaveText("Edited experiment: the preset's reference run does not apply.");
  await expect(bar).toHaveAttribute('data-layer', 'off');
  await lab.choosePreset('ring');
  await lab.choosePreset('quick');
  await expect(bar).toHaveAttribute('data-layer', 'on');

  // Nothing trained, the layer off: the charts are empty.
  await setChecked(toggle, false);
  for (const id of CHARTS) expect(await lab.points(id), id).toBe(0);

  // The reference alone: the banner, and every chart filled from the reference.
  await page.getByTestId('reference-only').click();
  const banner = page.getByTestId('reference-banner');
  await expect(page.getByTestId('reference-banner-title')).toHaveText('Reference run (measured, 8 seeds, mean) — not trained on this machine');
  await expect(banner).toContainText('preset quick (seeds 1-8, trained on wasm)');
  await expect(banner).toHaveAttribute('data-reason', 'asked');
  for (const id of CHARTS) await expect.poll(() => lab.points(id), { message: id }).toBeGreaterThan(0);
  expect(await lab.chart('chart-entropy').getAttribute('data-steps')).toBe('6');
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await expect(lab.stepCounter).toHaveAttribute('data-received', '0');
  await lab.screenshot('reference-only');

  // Back: the charts are empty again, the bar is back.
  await page.getByTestId('reference-back').click();
  await expect(banner).toBeHidden();
  await expect(bar).toBeVisible();
  for (const id of CHARTS) await expect.poll(() => lab.points(id), { message: id }).toBe(0);

  // From the reference alone, "Train it here" trains the preset: the banner goes, the run fills the charts.
  await setChecked(toggle, true);
  await page.getByTestId('reference-only').click();
  await expect(banner).toBeVisible();
  await page.getByTestId('reference-train').click();
  await expect(banner).toBeHidden();
  await lab.waitForPhase('done');
  await expect(lab.stepCounter).toHaveAttribute('data-received', '6');
  await expect(bar).toHaveAttribute('data-layer', 'on');
  for (const id of CHARTS) expect(await lab.points(id), id).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
