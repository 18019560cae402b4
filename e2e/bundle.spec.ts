/**
 * Run files (src/share/bundle.ts, src/app/run/ExportMenu.tsx, ImportButton.tsx, ImportNotices.tsx):
 * a trained run is exported, the page reloaded, the file opened again with the file picker and
 * with a drop, and the page shows the same numbers without training; bad files are explained as
 * text and change neither the run nor the experiment. wasm throughout: fast and deterministic.
 */
import { readFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { CHARTS, LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });
test.describe.configure({ mode: 'serial' });

/** The run file the first test exports; the others open it again. */
let saved = '';

/** What the page shows about the run: the numbers a student would compare. */
async function shownRun(page: Page) {
  const lab = new LabPage(page);
  const points: Record<string, number> = {};
  for (const id of CHARTS) points[id] = await lab.points(id);
  // The kappa grid and the rollouts are in panels folded by default; the base figures in the run bar's Details.
  await lab.unfold('disagreement');
  await lab.unfold('inspector');
  return {
    phase: (await lab.phase.innerText()).trim(),
    lastMetrics: JSON.parse((await lab.stepCounter.getAttribute('data-last-metrics')) ?? 'null'),
    points,
    basePass: await page.getByTestId('base-pass-A').textContent(),
    baseMaj: await page.getByTestId('base-maj-B').textContent(),
    kappa: (await page.getByTestId('kappa-grid').innerText()).trim(),
    inspector: (await page.getByTestId('inspector').innerText()).trim(),
  };
}

async function experiment(page: Page) {
  return { preset: await page.getByTestId('preset-select').inputValue(), steps: await page.getByTestId('field-steps').inputValue(), seed: await page.getByTestId('field-seed').inputValue() };
}

/** Drop a file on the page as a user's drag from the desktop would (a DataTransfer holding a File). */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ([fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content], fileName, { type: 'application/json' }));
      const target = document.querySelector('.panels') ?? document.body;
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [name, text] as const,
  );
}

async function pickFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-run').click()]);
  await chooser.setFiles(file);
}

test('a trained run exported, reloaded and opened with the file picker shows the same numbers', async ({ page }, info) => {
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await expect(page.getByTestId('export-toggle')).toBeDisabled(); // no run yet
  await lab.button('start').click();
  await lab.waitForPhase('done');
  const before = await shownRun(page);
  expect(before.phase).toBe('Done: 6 of 6 RL steps');
  expect(before.lastMetrics.step).toBe(6);

  // A bad file dropped on a finished live run: a message, and nothing else changes.
  await dropFile(page, 'cut.json', '{"format":"cohort-lab-run","version":1,"name":"cut');
  await expect(page.getByTestId('import-message')).toHaveText('cut.json: This run file could not be loaded: it is not valid JSON (cut short, or not a run file).');
  expect(await shownRun(page)).toEqual(before);

  // Export: the run file and the member metrics.
  await page.getByTestId('export-toggle').click();
  const name = page.getByTestId('export-name');
  await expect(name).toHaveValue('quick, seed 1, 6 of 6 steps');
  await name.fill('My quick run');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-bundle').click()]);
  expect(download.suggestedFilename()).toBe('cohort-lab-my-quick-run.json');
  const path = info.outputPath('run.json');
  await download.saveAs(path);
  saved = readFileSync(path, 'utf8');
  const file = JSON.parse(saved);
  expect(file).toMatchObject({ format: 'cohort-lab-run', version: 2, name: 'My quick run', preset: 'quick', record: { backend: 'wasm' } });
  expect(file.record.events.map((e: { type: string }) => e.type)).toEqual(['base', 'step', 'step', 'step', 'step', 'step', 'step', 'done']);

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-members-csv').click()]);
  const rows = readFileSync(await csv.path(), 'utf8').trimEnd().split('\r\n');
  expect(rows[0].split(',').slice(0, 6)).toEqual(['step', 'arm', 'scheme', 'member', 'reward', 'oracleReward']);
  expect(rows).toHaveLength(1 + 6 * 3 * 2); // steps x arms x members
  const selfA6 = rows.find((r) => r.startsWith('6,self,self,A,'))!.split(',');
  expect(Number(selfA6[4])).toBe(before.lastMetrics.arms.self.A.reward);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-panel')).toHaveCount(0);

  // A fresh page on another experiment, then the file. (A reload shows the last run again;
  // Reset clears it.)
  await page.reload();
  await expect(lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
  await expect(page.getByTestId('hero-restored')).toBeVisible({ timeout: 90_000 });
  await lab.button('reset').click();
  await lab.choosePreset('collapse');
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  await pickFile(page, path);
  await expect(page.getByTestId('import-ready')).toContainText('Run file My quick run (run.json): 6 of 6 RL steps on wasm');
  await page.getByTestId('import-show').click();
  await expect(page.getByTestId('imported-banner')).toContainText('Imported run My quick run — not trained here (trained on wasm)');
  await expect(lab.phase).toHaveAttribute('data-phase', 'done');
  expect(await shownRun(page)).toEqual(before);
  expect(await experiment(page)).toEqual({ preset: 'quick', steps: '6', seed: '1' });
  await expect(page.getByTestId('preset-about')).not.toContainText('edited');

  // The imported run exports again as the same run.
  await page.getByTestId('export-toggle').click();
  await expect(page.getByTestId('export-name')).toHaveValue('My quick run');
  await lab.screenshot('bundle-imported-run');
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-bundle').click()]);
  expect(JSON.parse(readFileSync(await again.path(), 'utf8')).record).toEqual(file.record);
  await page.getByTestId('export-toggle').click();

  // Back to the experiment that was on screen.
  await page.getByTestId('imported-back').click();
  await expect(page.getByTestId('imported-banner')).toHaveCount(0);
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  expect((await experiment(page)).preset).toBe('collapse');
  expect(errors).toEqual([]);
});

test('a run file dropped on the page can be overlaid or shown', async ({ page }) => {
  test.setTimeout(180_000);
  expect(saved).not.toBe('');
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.setField('seed', 42);
  const mine = await experiment(page);
  expect(mine.seed).toBe('42');
  await dropFile(page, 'dropped.json', saved);
  await expect(page.getByTestId('import-ready-name')).toHaveText('My quick run');

  // Overlay: drawn behind, the page's own (empty) run and experiment untouched.
  await page.getByTestId('import-overlay').click();
  await expect(page.getByTestId('import-overlaid')).toContainText('My quick run is drawn behind the current run');
  await expect(lab.phase).toHaveAttribute('data-phase', 'idle');
  expect(await experiment(page)).toEqual(mine);

  // Shown: the numbers of the file.
  await dropFile(page, 'dropped.json', saved);
  await page.getByTestId('import-show').click();
  await expect(page.getByTestId('imported-name')).toHaveText('My quick run');
  const shown = await shownRun(page);
  expect(shown.phase).toBe('Done: 6 of 6 RL steps');
  expect(shown.lastMetrics.step).toBe(6);
  for (const id of CHARTS) expect(shown.points[id], id).toBeGreaterThan(0);
  expect((await experiment(page)).preset).toBe('quick');
  await page.getByTestId('imported-back').click();
  expect(await experiment(page)).toEqual(mine);
  expect(errors).toEqual([]);
});

test('bad run files are explained as text and change neither the run nor the experiment', async ({ page }) => {
  test.setTimeout(180_000);
  expect(saved).not.toBe('');
  const errors = collectErrors(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');

  // A valid file whose name is markup: shown, as text.
  const markup = '<img src=x onerror=alert(1)><script>window.pwned=1</script>';
  const named = JSON.stringify({ ...JSON.parse(saved), name: markup });
  await pickFile(page, { name: 'markup.json', mimeType: 'application/json', buffer: Buffer.from(named) });
  await expect(page.getByTestId('import-ready-name')).toHaveText(markup);
  await page.getByTestId('import-show').click();
  await expect(page.getByTestId('imported-name')).toHaveText(markup);
  const run = await shownRun(page);
  const exp = await experiment(page);

  const spec = JSON.parse(saved);
  spec.record.spec.steps = 1e9;
  const cases = [
    { name: 'truncated.json', text: saved.slice(0, saved.length / 2), says: 'it is not valid JSON' },
    { name: 'steps.json', text: JSON.stringify(spec), says: 'it holds invalid values: record.spec.steps: Too big' },
    { name: 'newer.json', text: JSON.stringify({ ...JSON.parse(saved), version: 3 }), says: 'made by a newer Cohort Lab (run file format v3' },
    { name: 'other.json', text: JSON.stringify({ format: 'something-else' }), says: 'it is not a Cohort Lab run file' },
    { name: `${markup}.json`, text: 'not json', says: 'it is not valid JSON' },
  ];
  for (const c of cases) {
    await pickFile(page, { name: c.name, mimeType: 'application/json', buffer: Buffer.from(c.text) });
    const message = page.getByTestId('import-message');
    await expect(message).toContainText(`${c.name}: This run file could not be loaded: `);
    await expect(message).toContainText(c.says);
    await expect(page.getByTestId('import-error')).toHaveAttribute('role', 'alert');
    expect(await shownRun(page)).toEqual(run);
    expect(await experiment(page)).toEqual(exp);
    await expect(page.getByTestId('imported-name')).toHaveText(markup);
  }
  // Text, never HTML: no element came from a file, no script ran.
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await page.getByTestId('import-error').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('import-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});
