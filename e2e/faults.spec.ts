/**
 * Faults survived (docs/RELIABILITY.md, "Faults"): a training worker that dies, killed by an
 * uncaught error thrown inside it. (A WebGPU device lost mid-run is forced in e2e/lab.spec.ts's
 * WebGPU test, which has a run on SwiftShader going already.)
 */
import { expect, test } from '@playwright/test';
import { collectErrors, trainingWorker } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

test('the training worker dies mid-run: the page says so, and the run resumes from its checkpoint to the end', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(12);
  await lab.setField('steps', 12);
  await page.getByTestId('speed').selectOption('1');
  await lab.button('start').click();
  await lab.waitForStep(6);
  const worker = await trainingWorker(page);
  await worker.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated crash');
    }, 0);
  });

  await expect(page.getByTestId('run-error')).toContainText('The training worker stopped');
  await expect(page.getByTestId('run-error')).toContainText('simulated crash');
  await expect(lab.phase).toHaveAttribute('data-phase', 'error');
  const row = page.getByTestId('saved-run');
  await expect(row).toHaveAttribute('data-status', 'stopped');
  const checkpoint = Number(await row.getAttribute('data-checkpoint-step'));
  expect(checkpoint).toBeGreaterThanOrEqual(5);

  // A fresh worker took over: Resume continues from the checkpoint to the end.
  await page.getByTestId('speed').selectOption('max');
  await page.getByTestId('resume-after-crash').click();
  await lab.waitForPhase('done');
  await expect(lab.stepCounter).toHaveAttribute('data-step', '12');
  await expect(lab.stepCounter).toHaveAttribute('data-received', '12');
  await expect(row).toHaveAttribute('data-status', 'done');
  expect(errors.filter((e) => !/simulated crash/.test(e))).toEqual([]);
});
