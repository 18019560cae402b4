import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { CHARTS, LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

// Runs in the 'no-webgpu' project: Chromium without --enable-unsafe-webgpu has no WebGPU adapter.
test('without WebGPU the banner says why and the lab trains on a fallback backend', async ({ page }) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open();
  await expect(lab.backendStatus).toHaveText(/^Backend: (webgl|wasm)( until Start, which times each backend and keeps the fastest)?$/);
  const banner = page.getByTestId('backend-banner');
  await expect(banner).toContainText('WebGPU unavailable');
  await expect(banner).toContainText(/no WebGPU adapter|navigator\.gpu is missing/);

  await lab.choosePreset('quick');
  await lab.shortenWarmStart(12);
  await lab.setField('steps', 3);
  await lab.button('start').click();
  await lab.waitForPhase('done', 360_000);
  // After the run it names the fallback that ran.
  await expect(lab.backendStatus).toHaveText(/^Backend: (webgl|wasm)$/);
  for (const id of CHARTS) expect(await lab.points(id), id).toBeGreaterThan(0);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await lab.screenshot('lab-fallback-no-webgpu');
  expect(errors).toEqual([]);
});
