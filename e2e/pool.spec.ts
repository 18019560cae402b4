/**
 * Every core (src/engine/workerPool.ts): on wasm the training worker trains the arms on a pool of
 * workers, and the run is the same bit for bit whatever the pool's size. `?workers=N` sets the size
 * (the default is one worker per core).
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('a run on two workers equals the run on one, bit for bit (wasm)', async ({ browser }) => {
  test.setTimeout(300_000);
  // quick for 3 steps: three arms, an evaluation at step 3, every member's loss and reward.
  const query = `?backend=wasm&v=1&preset=quick&s=${b64({ steps: 3 })}`;

  async function run(workers: number): Promise<{ metrics: unknown; partWorkers: number }> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page: Page = await context.newPage();
      const errors = collectErrors(page);
      const lab = new LabPage(page);
      await lab.open(`${query}&workers=${workers}`);
      await expect(page.getByTestId('field-steps')).toHaveValue('3');
      // The pool's nested workers run the training worker's script and end with the run: count
      // them while it trains.
      let partWorkers = 0;
      let training = true;
      const watching = (async () => {
        while (training) {
          partWorkers = Math.max(partWorkers, page.workers().filter((w) => /training\.worker/.test(w.url())).length - 1);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      await lab.button('start').click();
      await lab.waitForPhase('done');
      training = false;
      await watching;
      const json = await lab.stepCounter.getAttribute('data-last-metrics');
      expect(errors).toEqual([]);
      return { metrics: JSON.parse(json ?? 'null'), partWorkers };
    } finally {
      await context.close();
    }
  }

  const one = await run(1);
  const two = await run(2);
  expect(one.partWorkers).toBe(0);
  // The training worker runs one part, a nested worker (its own script again) the other (and
  // one more is started ahead for the next run).
  expect(two.partWorkers).toBeGreaterThanOrEqual(1);
  const m = one.metrics as { step: number; arms: Record<string, Record<string, { loss: number | null }>> };
  expect(m.step).toBe(3);
  expect(Object.keys(m.arms)).toEqual(['oracle', 'self', 'peer']);
  expect(typeof m.arms.peer.B.loss).toBe('number');
  expect(two.metrics).toEqual(one.metrics);
});

test('a pool worker that dies stops the run with the reason, as any failed step does', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&workers=2');
  await lab.choosePreset('quick');
  await page.getByTestId('speed').selectOption('1');
  await lab.button('start').click();
  await lab.waitForStep(2);
  // The second training.worker is the pool's: the training worker is listed first, a spare
  // started ahead for the next run after it.
  const part = page.workers().filter((w) => /training\.worker/.test(w.url()))[1];
  await part.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated crash');
    }, 0);
  });
  await lab.waitForPhase('error', 30_000);
  await expect(page.getByTestId('run-error')).toContainText('a worker of the pool failed: Uncaught Error: simulated crash');
  expect(errors.filter((e) => !/simulated crash/.test(e))).toEqual([]);
});
