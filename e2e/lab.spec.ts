import { expect, test } from '@playwright/test';
import { collectErrors, trainingWorker } from './helpers';
import { CHARTS, LabPage } from './helpers/lab';

// A laptop-sized window, so the screenshots show the main view as students see it.
test.use({ viewport: { width: 1440, height: 900 } });

const adapter = process.env.E2E_EXPECT_ADAPTER ?? 'swiftshader';

test('quick preset on WebGPU: live charts, pause, single step, inspector, a lost device, reset', async ({ page }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  // Forced: by default the first Start measures the backends and, on SwiftShader, picks wasm.
  await lab.open('?backend=webgpu');

  // Opens on the default preset, with its explanation.
  await expect(page.getByTestId('preset-select')).toHaveValue('peers-learn');
  await expect(page.getByTestId('preset-about')).toContainText('Self-reward collapses');
  await lab.choosePreset('quick');
  await expect(page.getByTestId('preset-about')).toContainText('Quick look');
  await expect(lab.backendStatus).toHaveText(`Backend: webgpu (${adapter})`);
  await expect(page.getByTestId('backend-banner')).toHaveText('Using webgpu: forced by ?backend=webgpu.');

  // SwiftShader is slow (seconds per RL step on a busy 2-core machine): a short warm start, two
  // prompts per step of four samples each, a small held-out set, and an evaluation every other step.
  await lab.shortenWarmStart(4);
  await lab.setField('data.heldOut', 4);
  await lab.setField('steps', 8);
  await lab.setField('evalEvery', 2);
  await lab.openSection('GRPO');
  await lab.setField('grpo.promptsPerStep', 2);
  await lab.setField('grpo.groupSize', 4);
  await expect(lab.button('start')).toBeEnabled();
  await lab.button('start').click();
  await expect(page.getByTestId('warm-progress')).toBeVisible({ timeout: 180_000 });

  // Step 2 is the first evaluation step: every chart has points by then.
  await lab.waitForStep(2, 420_000);
  // The warm-started cohort's base accuracies, measured on WebGPU before RL.
  for (const m of ['A', 'B']) {
    await expect(page.getByTestId(`base-pass-${m}`)).toHaveText(/^\d+%$/);
    await expect(page.getByTestId(`base-maj-${m}`)).toHaveText(/^\d+%$/);
    await expect(page.getByTestId(`base-steps-${m}`)).toHaveText(/^\d+ steps$/);
  }
  for (const id of CHARTS) expect(await lab.points(id), id).toBeGreaterThan(0);
  for (const arm of ['oracle', 'self', 'peer']) expect(await lab.points(`chart-collapse-${arm}`), arm).toBeGreaterThan(0);
  await expect(page.getByTestId('kappa-grid')).not.toHaveAttribute('data-cells', '0');
  await expect(lab.stepCounter).toContainText('steps/s');
  await expect(lab.backendStatus).toHaveText(`Backend: webgpu (${adapter})`);
  await expect(page.getByTestId('backend-choice')).toHaveCount(0); // forced: nothing measured
  await expect(lab.phase).toContainText(/RL step \d of 8/);

  // Pause: the worker says it stopped pulling after step k, and step k is what the page shows.
  await lab.button('pause').click();
  const k = await lab.waitPausedAt();
  const instances = await lab.instances('chart-pseudo');

  // Step: exactly one more, then paused again (on the worker's word).
  await lab.button('step').click();
  expect(await lab.waitPausedAt(k + 1)).toBe(k + 1);
  // The chart was updated with setData, not re-created.
  expect(await lab.instances('chart-pseudo')).toBe(instances);

  // Inspector: each member's G = 4 completions, with votes and rewards.
  await lab.unfold('inspector'); // folded by default
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-step', String(k + 1));
  await expect(inspector.getByTestId('completion-row')).toHaveCount(8);
  await expect(inspector.getByTestId('votes').first()).toContainText('Votes:');
  for (const reward of await inspector.getByTestId('reward').allTextContents()) expect(reward).toMatch(/^-?\d+\.\d\d$/);
  await page.getByRole('tab', { name: 'peer' }).click();
  await expect(inspector.getByTestId('inspector-prompt')).toHaveText(/=$/);
  await page.getByTestId('inspector-slider').fill('0');
  await expect(inspector).not.toHaveAttribute('data-step', String(k + 1));

  await lab.screenshot('lab-webgpu');

  // The GPU device is lost with a step in flight (destroyed as a driver reset would: the worker's
  // cohortLabFaults.loseDevice()): the run is rebuilt from its last checkpoint (the pause after
  // Step took one at k + 1) on a fresh device and finishes, every step once (docs/RELIABILITY.md,
  // "Faults"). In this test rather than its own, so SwiftShader's warm start is paid once.
  await lab.button('resume').click();
  await lab.waitForStep(k + 2);
  const worker = await trainingWorker(page);
  expect(await worker.evaluate(() => (self as unknown as { cohortLabFaults: { loseDevice(): boolean } }).cohortLabFaults.loseDevice())).toBe(true);
  const recovered = page.getByTestId('run-recovered');
  await expect(recovered).toContainText('on a fresh device', { timeout: 120_000 });
  // The last checkpoint: the pause's (k + 1), or step 5's if the run got there (one every 5 steps).
  const from = Number((await recovered.innerText()).match(/rebuilt from its checkpoint of step (\d+)/)?.[1]);
  expect(from === k + 1 || (from > k + 1 && from % 5 === 0)).toBe(true);
  await expect(page.getByTestId('device-lost')).toContainText('WebGPU device lost');
  await lab.waitForPhase('done', 300_000);
  await expect(lab.stepCounter).toHaveAttribute('data-step', '8');
  await expect(lab.stepCounter).toHaveAttribute('data-received', '8');
  await expect(lab.backendStatus).toHaveText(`Backend: webgpu (${adapter})`);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('saved-run')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('saved-run')).toHaveAttribute('data-steps-done', '8');

  // Reset clears the run and every chart.
  await lab.button('reset').click();
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  expect(await lab.step()).toBe(0);
  for (const id of CHARTS) expect(await lab.points(id), id).toBe(0);
  await expect(page.getByTestId('inspector-empty')).toBeVisible();

  // WebGPU reports what the destroyed device was still asked to do; nothing else may fail.
  expect(errors.filter((e) => !/device|destroyed|lost|GPU/i.test(e))).toEqual([]);
});

test('editing the cohort and the arms changes what runs and what is drawn', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  // wasm keeps this one fast; the WebGPU path is covered above.
  await lab.open('?backend=wasm');
  await expect(page.getByTestId('backend-banner')).toContainText('forced by ?backend=wasm');
  await lab.choosePreset('quick');

  // Add a GRU member: it joins the oracle and self arms (the peer pair is full).
  await page.getByTestId('add-member-gru').click();
  await expect(page.getByTestId('member-2-family')).toHaveValue('gru');
  await expect(page.getByTestId('arm-self-member-C')).toBeChecked();
  await expect(page.getByTestId('arm-peer-member-C')).not.toBeChecked();

  // Remove B: the peer arm is one short, and Start says why.
  await page.getByTestId('remove-member-B').click();
  await expect(page.getByTestId('problem-arms.2.members')).toContainText('peer reward needs exactly 2 members');
  await expect(lab.button('start')).toBeDisabled();
  await expect(page.getByTestId('start-reason')).toContainText('peer reward needs exactly 2 members');

  // Pair A with the GRU instead; drop the oracle arm; add an entropy arm (RENT).
  await page.getByTestId('arm-peer-member-C').check();
  await page.getByTestId('remove-arm-oracle').click();
  await page.getByTestId('add-arm').selectOption('entropy');
  await lab.shortenWarmStart(20);
  await lab.setField('steps', 3);
  await expect(lab.button('start')).toBeEnabled();
  await lab.button('start').click();
  await lab.waitForPhase('done');

  const expected = ['self · A', 'self · C', 'peer · A', 'peer · C', 'entropy · A', 'entropy · C'];
  expect(await lab.series('chart-entropy')).toEqual(expected);
  expect(await lab.legend('chart-entropy')).toEqual(expected);
  // Pseudo-labels exist for vote-based arms only.
  expect(await lab.series('chart-pseudo')).toEqual(['self · A', 'self · C', 'peer · A', 'peer · C']);
  expect(await lab.series('chart-disagreement')).toEqual(['self · A–C', 'peer · A–C', 'entropy · A–C']);
  await expect(page.getByTestId('chart-collapse-oracle')).toHaveCount(0);
  await expect(page.getByTestId('chart-collapse-entropy')).toHaveCount(1);
  for (const id of CHARTS) expect(await lab.points(id), id).toBeGreaterThan(0);
  await lab.unfold('inspector'); // folded by default
  await expect(page.getByTestId('rollouts-C')).toBeVisible();
  await expect(page.getByTestId('rollouts-B')).toHaveCount(0);

  await lab.screenshot('lab-edited-cohort-wasm');
  expect(errors).toEqual([]);
});

test('the full quick preset, light and dark, laptop and presenter size (README screenshot)', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  // wasm: the preset exactly as shipped finishes in well under a minute.
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.button('start').click();
  await lab.waitForPhase('done');
  await expect(lab.phase).toHaveText('Done: 6 of 6 RL steps');
  for (const id of CHARTS) expect(await lab.points(id), id).toBeGreaterThan(0);
  await lab.screenshot('lab-quick-wasm', 'docs/screenshot.png');

  // Theme and type size re-create the charts (once), keeping every point.
  const before = await lab.instances('chart-pseudo');
  const points = await lab.points('chart-pseudo');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('presenter-toggle').click();
  await expect(page.locator('html')).toHaveClass(/presenter/);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('20px');
  await expect.poll(() => lab.instances('chart-pseudo')).toBeGreaterThan(before);
  expect(await lab.points('chart-pseudo')).toBe(points);
  await lab.screenshot('lab-quick-dark-presenter');
  expect(errors).toEqual([]);
});
