import { expect, test } from '@playwright/test';
import { collectErrors, waitForProbe } from './helpers';

// Runs in the 'no-webgpu' project: Chromium without --enable-unsafe-webgpu has no WebGPU adapter.
test('without WebGPU the banner says so and a fallback backend computes', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  const view = await waitForProbe(page);
  await page.screenshot({ path: 'test-results/screenshots/fallback-no-webgpu.png', fullPage: true });
  expect(view.error).toBeNull();
  // Before Start the lab names the fallback it would run, and that Start times the backends.
  expect(view.status).toMatch(/^Backend: (webgl|wasm)( until Start, which times each backend and keeps the fastest)?$/);
  expect(view.banner).toContain('WebGPU unavailable');
  expect(view.banner).toMatch(/no WebGPU adapter|navigator\.gpu is missing/);
  expect(view.result).toMatch(/^Probe ok: loss [\d.]+ → [\d.]+ after one step/);
  expect(errors).toEqual([]);
});
