/**
 * Keyboard shortcuts as a keyboard user meets them: ? lists them (Escape closes the list), Space
 * starts, pauses and resumes the run, the right arrow steps a paused run by one, and typing in a
 * field triggers none of them. wasm, at 2 steps per second so there is time to pause.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

test('?, Escape, Space and the right arrow; nothing while typing', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.setField('steps', 40);
  await page.getByTestId('speed').selectOption('2');
  const blur = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  // ? opens the list as a modal dialog; Escape closes it.
  await blur();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Start a run, pause it, or resume it');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Typing in a field: Space and ? go into the field, the run does not start.
  await page.getByTestId('field-seed').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('?');
  await expect(dialog).toBeHidden();
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');

  // Space starts the run...
  await blur();
  await page.keyboard.press('Space');
  await expect(lab.phase).not.toHaveAttribute('data-phase', 'idle');
  await lab.waitForStep(1, 120_000);
  // ... and pauses it.
  await blur();
  await page.keyboard.press('Space');
  await lab.waitPaused();
  const k = await lab.step();

  // The right arrow: exactly one step, still paused.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => lab.step(), { timeout: 60_000 }).toBe(k + 1);
  await lab.waitPaused();

  // Space resumes.
  await page.keyboard.press('Space');
  await expect(lab.phase).toHaveAttribute('data-paused', 'false');
  await lab.waitForStep(k + 2, 60_000);
  await lab.button('reset').click();
  expect(errors).toEqual([]);
});
