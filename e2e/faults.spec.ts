/**
 * Faults survived (docs/RELIABILITY.md, "Faults"): a WebGPU device lost mid-run, and a training
 * worker that dies. The device loss is forced the way a driver reset would do it, by destroying the
 * worker's GPUDevice (`cohortLabFaults.loseDevice()` in src/engine/training.worker.ts, reached
 * through Playwright's handle on the worker); the dead worker by an uncaught error thrown inside it.
 */
import { type Page, type Worker, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

/** Playwright's handle on the training worker (not the wasm backend's thread workers). */
async function trainingWorker(page: Page): Promise<Worker> {
  await expect.poll(() => page.workers().filter((w) => /training\.worker/.test(w.url())).length, { timeout: 30_000 }).toBe(1);
  return page.workers().find((w) => /training\.worker/.test(w.url()))!;
}

async function startQuick(lab: LabPage, steps: number, evalEvery: number): Promise<void> {
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(12);
  await lab.setField('data.heldOut', 8);
  await lab.setField('steps', steps);
  await lab.setField('evalEvery', evalEvery);
  await lab.openSection('GRPO');
  await lab.setField('grpo.promptsPerStep', 2);
  await lab.setField('grpo.groupSize', 4);
  await expect(lab.button('start')).toBeEnabled();
  await lab.button('start').click();
}

test('WebGPU device lost mid-run: the run is rebuilt from its last checkpoint on a fresh device and finishes, history intact', async ({ page }) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  const workerLog: string[] = [];
  page.on('worker', (w) => w.on('console', (m) => workerLog.push(`${m.type()}: ${m.text()}`)));
  await lab.open('?backend=webgpu');
  await expect(lab.backendStatus).toHaveText(/Backend: webgpu/);
  // SwiftShader runs several seconds a step: four steps, one evaluation (at the end).
  await startQuick(lab, 4, 4);

  // A checkpoint of step k (pausing takes one), then a step in flight when the device goes.
  await lab.waitForStep(1, 300_000);
  await lab.button('pause').click();
  // (Paused on the worker's word: nothing in flight, and its last step is the one shown.)
  const k = await lab.waitPausedAt();
  expect(k).toBeLessThan(3);
  await lab.button('resume').click();
  await lab.waitForStep(k + 1);
  const worker = await trainingWorker(page);
  expect(await worker.evaluate(() => (self as unknown as { cohortLabFaults: { loseDevice(): boolean } }).cohortLabFaults.loseDevice())).toBe(true);

  // The page says what happened and from where the run goes on.
  await expect.poll(() => workerLog.join('\n'), { timeout: 120_000 }).toMatch(/WebGPU device lost .*; rebuilding run \d+ from its last checkpoint/);
  await expect(page.getByTestId('run-recovered')).toContainText(`rebuilt from its checkpoint of step ${k} on a fresh device`, { timeout: 120_000 });
  await expect(page.getByTestId('device-lost')).toContainText('WebGPU device lost');
  await lab.waitForPhase('done', 300_000);
  // Every step once: the steps after k were dropped at the loss and computed again.
  await expect(lab.stepCounter).toHaveAttribute('data-step', '4');
  await expect(lab.stepCounter).toHaveAttribute('data-received', '4');
  await expect(lab.backendStatus).toHaveText(/Backend: webgpu/);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  // The saved run holds the whole run too.
  const row = page.getByTestId('saved-run');
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row).toHaveAttribute('data-steps-done', '4');
  // WebGPU reports what the destroyed device was still asked to do; nothing else may fail.
  expect(errors.filter((e) => !/device|destroyed|lost|GPU/i.test(e))).toEqual([]);
});

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
