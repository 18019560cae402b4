/**
 * The page does not take the training worker's core: folded or off-screen
 * charts are not drawn while a run trains, a chart unfolded later draws then, and the page counts
 * its own main-thread time per RL step (window.cohortLab.perf(); printed here, never asserted
 * against a clock). The browser's own count of main-thread task time (CDP Performance.getMetrics,
 * TaskDuration) is printed beside it.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1280, height: 720 } });

interface Perf {
  storeMs: number;
  chartMs: number;
  flushes: number;
  draws: number;
  steps: number;
  perStepMs: number | null;
  longTasks: number;
  longTaskMs: number;
}

test('folded charts wait; the page times its own work per RL step', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.setField('steps', 12);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0);
  await page.evaluate(() => (window as unknown as { cohortLab: { resetPerf(): void } }).cohortLab.resetPerf());
  const task0 = await taskSeconds();
  await lab.button('start').click();
  await lab.waitForPhase('done', 180_000);
  const task1 = await taskSeconds();
  const perf = await page.evaluate(() => (window as unknown as { cohortLab: { perf(): Perf } }).cohortLab.perf());
  const steps = await lab.step();
  console.log(
    `main thread per RL step (${steps} steps, quick preset, wasm): page's own ${perf.perStepMs?.toFixed(2)} ms ` +
      `(store and React ${perf.storeMs.toFixed(1)} ms in ${perf.flushes} batches, charts ${perf.chartMs.toFixed(1)} ms in ${perf.draws} draws); ` +
      `all main-thread tasks ${(((task1 - task0) * 1000) / steps).toFixed(1)} ms (CDP TaskDuration, warm start included); ` +
      `long tasks ${perf.longTasks} (${perf.longTaskMs.toFixed(0)} ms)`,
  );
  expect(perf.steps).toBe(steps);
  expect(perf.perStepMs).not.toBeNull();

  // The folded pseudo-label panel: its chart has the run's points but was never drawn with them.
  expect(await lab.points('chart-pseudo')).toBeGreaterThan(0);
  await expect(lab.chart('chart-pseudo')).not.toHaveAttribute('data-draws', /./);
  // The hero was drawn as the steps came.
  await expect(lab.chart('chart-hero-self')).toHaveAttribute('data-draws', /^[1-9]\d*$/);
  // Unfolded, it draws what it holds.
  await lab.unfold('pseudo');
  await expect(lab.chart('chart-pseudo')).toHaveAttribute('data-draws', '1');
  expect(errors).toEqual([]);
});
