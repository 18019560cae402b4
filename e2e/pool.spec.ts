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
      // Nested workers are not in page.workers(): ask the browser for its targets while the run
      // trains (the pool's workers end with the run).
      const cdp = await context.newCDPSession(page);
      let partWorkers = 0;
      let training = true;
      const watching = (async () => {
        while (training) {
          const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { url: string }[] };
          partWorkers = Math.max(partWorkers, targetInfos.filter((t) => /training\.worker/.test(t.url)).length - 1);
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
  // The training worker runs one part, a nested worker (its own script again) the other.
  expect(two.partWorkers).toBe(1);
  const m = one.metrics as { step: number; arms: Record<string, Record<string, { loss: number | null }>> };
  expect(m.step).toBe(3);
  expect(Object.keys(m.arms)).toEqual(['oracle', 'self', 'peer']);
  expect(typeof m.arms.peer.B.loss).toBe('number');
  expect(two.metrics).toEqual(one.metrics);
});
