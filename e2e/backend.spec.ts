import { expect, test } from '@playwright/test';
import { collectErrors, waitForProbe } from './helpers';

// Without a GPU, Chromium's WebGPU adapter is SwiftShader; on a GPU machine set E2E_EXPECT_ADAPTER.
const expectedAdapter = process.env.E2E_EXPECT_ADAPTER ?? 'swiftshader';

test('runs tfjs on WebGPU (SwiftShader adapter) in the worker, no console errors', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/');
  await expect(page).toHaveTitle('Cohort Lab');
  await expect(page.getByRole('heading', { name: 'Cohort Lab' })).toBeVisible();

  const view = await waitForProbe(page);
  await page.screenshot({ path: 'test-results/screenshots/backend-webgpu.png', fullPage: true });
  expect(view.error).toBeNull();
  // Loaded, not yet chosen: an unforced Start times each backend and keeps the fastest (the label flipped webgl -> wasm).
  expect(view.status).toBe(`Backend: webgpu (${expectedAdapter}) until Start, which times each backend and keeps the fastest`);
  expect(view.result).toMatch(/^Probe ok: loss [\d.]+ → [\d.]+ after one step/);
  expect(view.banner).toBeNull();
  // Cross-origin isolation headers are in place (threaded wasm needs them).
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(errors).toEqual([]);
});

test('?backend=wasm forces the wasm backend and says so', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/?backend=wasm');
  const view = await waitForProbe(page);
  await page.screenshot({ path: 'test-results/screenshots/backend-forced-wasm.png', fullPage: true });
  expect(view.error).toBeNull();
  expect(view.status).toBe('Backend: wasm');
  expect(view.result).toMatch(/^Probe ok/);
  expect(view.banner).toContain('forced by ?backend=wasm');
  expect(errors).toEqual([]);
});

test('an unknown ?backend= value is ignored with a message, not rendered as HTML', async ({ page }) => {
  await page.goto('/?backend=%3Cimg%20src%3Dx%3E');
  const view = await waitForProbe(page);
  expect(view.error).toBeNull();
  expect(view.status).toMatch(/^Backend: webgpu/);
  expect(view.warning).toContain('unknown backend "<img src=x>" ignored');
  expect(await page.locator('img[src="x"]').count()).toBe(0);
});
