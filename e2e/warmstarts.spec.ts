import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

// Real IndexedDB and the site's shipped files (public/warmstarts), on wasm, where they were made.
test('a preset starts from its shipped warm start; a custom spec trains once, then loads it from IndexedDB', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.button('start').click();
  for (const id of ['A', 'B']) {
    await expect(page.getByTestId(`base-source-${id}`)).toHaveText('shipped (made on wasm)', { timeout: 120_000 });
  }
  await lab.waitForPhase('done');

  // Another seed has no shipped file: the first run trains and stores it, the second loads it.
  await lab.button('reset').click();
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await lab.setField('seed', 7);
  await lab.setField('steps', 1);
  await lab.shortenWarmStart(8);
  await lab.button('start').click();
  await expect(page.getByTestId('base-source-A')).toHaveText('trained in this run', { timeout: 120_000 });
  await lab.waitForPhase('done');
  const trained = (await page.getByTestId('base-pass-A').textContent()) ?? ''; // in the run bar's folded Details

  await lab.button('reset').click();
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await lab.button('start').click();
  await expect(page.getByTestId('base-source-A')).toHaveText('cached (made on wasm)', { timeout: 120_000 });
  await expect(page.getByTestId('base-source-B')).toHaveText('cached (made on wasm)');
  await lab.waitForPhase('done');
  // The same weights: the same held-out evaluation.
  await expect(page.getByTestId('base-pass-A')).toHaveText(trained);
  await expect(page.getByTestId('base-note-A')).toHaveCount(0);
  expect(errors).toEqual([]);
});
