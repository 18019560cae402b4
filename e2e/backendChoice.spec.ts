import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

// The 'webgpu' project: WebGPU is SwiftShader here (no GPU), which is much slower than wasm.
test('the default link measures the backends, trains on wasm rather than SwiftShader, and a reload reuses the choice', async ({ page }) => {
  test.setTimeout(480_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open();
  const choice = page.getByTestId('backend-choice');
  // Nothing remembered in a fresh browser: the first Start will measure.
  await expect(choice).toHaveAttribute('data-status', 'pending');

  // A small cohort step keeps SwiftShader's share of the measurement (and the run) short.
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(8);
  await lab.setField('steps', 2);
  await lab.openSection('GRPO');
  await lab.setField('grpo.promptsPerStep', 4);
  await lab.setField('grpo.groupSize', 4);
  await expect(lab.button('start')).toBeEnabled();
  const started = Date.now();
  await lab.button('start').click();

  await expect(choice).toHaveAttribute('data-status', 'measured', { timeout: 240_000 });
  const measuredAfterS = (Date.now() - started) / 1000;
  await expect(choice).toHaveAttribute('data-chosen', 'wasm');
  const text = ((await choice.textContent()) ?? '').trim(); // in the run bar's folded Details
  console.log(`measured in ${measuredAfterS.toFixed(1)} s: ${text}`);
  // SwiftShader (WebGPU and WebGL here) is a software emulation, so wasm is the only backend that
  // could win: nothing is timed (machines with a GPU time both; measureBackends.test.ts).
  expect(text).toMatch(/^wasm( \([^)]*\))?: not timed \(nothing else here could beat it\)/);
  expect(text).toMatch(/webgl( \(swiftshader\))?: stopped \(not timed: a software renderer/);
  expect(text).toMatch(/webgpu \(swiftshader\): stopped \(not timed: a software adapter/);
  expect(text).toContain('— chosen: wasm, the only backend here that is not a software emulation');
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  await expect(page.getByTestId('backend-banner')).toHaveCount(0);
  await expect(page.getByTestId('emulation-hint')).toHaveCount(0);
  await lab.waitForPhase('done');
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  const measuredAt = await choice.getAttribute('data-measured-at');
  expect(Number(measuredAt)).toBeGreaterThan(0);
  const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('cohort-lab.backend-choice.v1'))) ?? '[]');
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ chosen: 'wasm', reason: 'the only backend here that is not a software emulation', measuredAt: Number(measuredAt) });
  expect(stored[0].key).toContain('swiftshader');
  for (const r of stored[0].rows) {
    console.log(`  ${r.backend}: ${r.status}, ${r.msPerStep ?? `over ${r.atLeastMs}`} ms/step, set-up + first step ${r.warmupMs} ms, ${r.spentMs} ms in all, ${r.leakedTensors} tensors left`);
    // A step given up mid-flight may leave a tensor on the device that was destroyed to stop it.
    if (r.status === 'ok') expect(r.leakedTensors).toBe(0);
  }
  await lab.screenshot('backend-measured');

  // Reload (the URL holds the edited experiment): the stored choice is used from the start.
  await page.reload();
  await expect(lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
  await expect(choice).toHaveAttribute('data-status', 'remembered');
  await expect(choice).toHaveAttribute('data-measured-at', String(measuredAt));
  await expect(choice).toContainText('chosen: wasm, the only backend here that is not a software emulation (remembered');
  await expect(page.getByTestId('field-steps')).toHaveValue('2');
  // Record every status the line shows from here on: a new measurement would show 'measuring'.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { choiceStatuses: string[] }).choiceStatuses = seen;
    new MutationObserver(() => {
      const s = document.querySelector('[data-testid="backend-choice"]')?.getAttribute('data-status');
      if (s && seen[seen.length - 1] !== s) seen.push(s);
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  await lab.button('start').click();
  await lab.waitForPhase('done');
  expect(await page.evaluate(() => (window as unknown as { choiceStatuses: string[] }).choiceStatuses)).not.toContain('measuring');
  await expect(choice).toHaveAttribute('data-status', 'remembered');
  await expect(choice).toHaveAttribute('data-measured-at', String(measuredAt));
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('cohort-lab.backend-choice.v1'))) ?? '[]')).toEqual(stored);
  expect(errors).toEqual([]);
});

test('?backend= forces a backend: nothing is measured at Start', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  await expect(page.getByTestId('backend-banner')).toHaveText('Using wasm: forced by ?backend=wasm.');
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(4);
  await lab.setField('steps', 1);
  await lab.button('start').click();
  await lab.waitForPhase('done');
  await expect(page.getByTestId('backend-choice')).toHaveCount(0);
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  expect(await page.evaluate(() => localStorage.getItem('cohort-lab.backend-choice.v1'))).toBeNull();
  expect(errors).toEqual([]);
});
