/**
 * The scoreboard, charts that do not mislead, compare layers and PNG export, as a student uses
 * them: the scoreboard's numbers are the charts' last values (read through each chart's Table),
 * smoothing adds smoothed columns without touching the raw ones, a compare layer put in the store
 * is drawn and listed in the legend, and the PNG buttons download PNG files. wasm: fast and exact.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const ARMS = ['oracle', 'self', 'peer'];

/** A chart's table (opened with its Table toggle) as header and rows of text. */
async function chartTable(page: Page, testId: string): Promise<{ head: string[]; rows: string[][] }> {
  const toggle = page.getByTestId(`${testId}-table-toggle`);
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  const table = page.getByTestId(`${testId}-table`);
  await expect(table).toBeVisible();
  const head = await table.locator('thead th').allTextContents();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
  return { head, rows };
}

/** The last value of a column in a table (the last row that has one). */
function lastOf(t: { head: string[]; rows: string[][] }, column: string): number {
  const i = t.head.indexOf(column);
  expect(i, `column ${column} in ${t.head.join(', ')}`).toBeGreaterThan(0);
  for (let r = t.rows.length - 1; r >= 0; r--) if (t.rows[r][i] !== '—') return Number(t.rows[r][i]);
  throw new Error(`no value in ${column}`);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function pngDownload(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('scoreboard equals the charts; smoothing, tables, compare layers and PNG export', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  // quick's shipped reference run is a compare layer of its own (e2e/reference.spec.ts), hidden
  // until revealed: the tables and legends below hold this run and the layer this test adds.
  await expect(page.getByTestId('reference-bar')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('reference-bar')).toHaveAttribute('data-layer', 'off');

  // Raw lines first (smoothing is on by default; this test turns it on below).
  await page.getByTestId('smoothing').fill('0');
  await expect(page.getByTestId('smoothing-value')).toHaveText('off');

  // Before the run: one line per arm, no numbers yet.
  for (const arm of ARMS) await expect(page.getByTestId(`score-${arm}-now`)).toHaveText('—');
  await lab.button('start').click();
  await lab.waitForPhase('done', 120_000);

  // The scoreboard's numbers are the charts' last values (mean over the arm's members A and B).
  const pass = await chartTable(page, 'chart-pass1');
  for (const arm of ARMS) {
    const row = page.getByTestId(`score-${arm}`);
    const now = Number(await row.getAttribute('data-now'));
    const start = Number(await row.getAttribute('data-start'));
    expect(Math.abs(now - mean([lastOf(pass, `${arm} · A`), lastOf(pass, `${arm} · B`)])), arm).toBeLessThanOrEqual(0.0011);
    expect(Math.abs(start - mean([lastOf(pass, 'base pass@1 · A'), lastOf(pass, 'base pass@1 · B')])), arm).toBeLessThanOrEqual(0.0011);
    await expect(page.getByTestId(`score-${arm}-now`)).toHaveText(now.toFixed(2));
    await expect(page.getByTestId(`score-${arm}-start`)).toHaveText(start.toFixed(2));
    await expect(page.getByTestId(`score-${arm}-change`)).toHaveText(/^([+−]\d\.\d\d|0\.00)$/);
    const collapse = await chartTable(page, `chart-collapse-${arm}`);
    const reward = Number(await row.getAttribute('data-reward'));
    expect(Math.abs(reward - mean([lastOf(collapse, 'reward · A'), lastOf(collapse, 'reward · B')])), arm).toBeLessThanOrEqual(0.0011);
    await expect(page.getByTestId(`score-${arm}-reward`)).toHaveText(reward.toFixed(2));
    await expect(page.getByTestId(`score-${arm}-collapsed`)).toHaveText(/^(no|yes: [A-Z] at step \d+(; [A-Z] at step \d+)*)$/);
  }
  await expect(page.getByTestId('collapse-definition')).toContainText('more than 0.10 below its best');

  // Rate axes are [0, 1]: a table of the same numbers sits under every chart; a flat chart says so.
  const length = await chartTable(page, 'chart-length');
  const values = length.rows.flatMap((r) => r.slice(1)).filter((v) => v !== '—');
  const flat = new Set(values).size === 1;
  if (flat) await expect(page.getByTestId('chart-length-constant')).toHaveText(`Flat: constant at ${Number(values[0]).toFixed(2)}.`);
  else await expect(page.getByTestId('chart-length-constant')).toHaveCount(0);

  // Smoothing: smoothed columns join the raw ones; the raw numbers and the legend stay as they were.
  const legend = await lab.legend('chart-entropy');
  const rawEntropy = await chartTable(page, 'chart-entropy');
  await page.getByTestId('smoothing').fill('0.6');
  await expect(page.getByTestId('smoothing-value')).toHaveText('0.60');
  const smoothEntropy = await chartTable(page, 'chart-entropy');
  expect(smoothEntropy.head).toEqual(['RL step', ...legend.flatMap((l) => [l, `${l} (smoothed)`])]);
  for (const l of legend) expect(lastOf(smoothEntropy, l)).toBe(lastOf(rawEntropy, l));
  expect(await lab.legend('chart-entropy')).toEqual(legend);
  // Held-out pass@1 (dots) is never smoothed, and the scoreboard keeps the raw values.
  expect((await chartTable(page, 'chart-pass1')).head).toEqual(pass.head);
  await page.getByTestId('smoothing').fill('0');

  // A compare layer (as saved runs and bundles will add): drawn dashed behind, named in the legend.
  await page.evaluate(() => {
    const store = (window as unknown as { cohortLab: { useLab: { getState(): { run: { series: unknown }; addCompare(l: unknown): void } } } }).cohortLab.useLab;
    const series = structuredClone(store.getState().run.series) as { arms: { members: Record<string, { evalPassAt1: (number | null)[] }> }[] };
    for (const arm of series.arms) for (const m of Object.values(arm.members)) m.evalPassAt1 = m.evalPassAt1.map((v) => (v == null ? null : v / 2));
    store.getState().addCompare({ id: 'e2e', label: 'earlier run', series });
  });
  await expect(lab.chart('chart-pass1')).toHaveAttribute('data-compare', /earlier run · self · A/);
  expect(await lab.legend('chart-pass1')).toContain('earlier run · peer · B');
  expect(await lab.series('chart-pass1')).toEqual(['oracle · A', 'oracle · B', 'self · A', 'self · B', 'peer · A', 'peer · B']);
  const layered = await chartTable(page, 'chart-pass1');
  expect(lastOf(layered, 'earlier run · self · A')).toBeCloseTo(lastOf(pass, 'self · A') / 2, 2);
  await expect(lab.chart('chart-collapse-self')).toHaveAttribute('data-compare', /earlier run · reward · A/);

  // PNG: one chart, then the whole report.
  const chart = await pngDownload(page, () => page.getByRole('button', { name: 'Download PNG of Held-out pass@1 per arm and member' }).click());
  expect(chart.name).toBe('cohort-lab-held-out-pass-1-per-arm-and-member.png');
  expect(chart.bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  const report = await pngDownload(page, () => page.getByTestId('report-png').click());
  expect(report.name).toBe('cohort-lab-report.png');
  expect(report.bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  // The report stacks every chart: taller than one chart (PNG height: bytes 20-23 of IHDR).
  expect(report.bytes.readUInt32BE(20)).toBeGreaterThan(3 * chart.bytes.readUInt32BE(20));
  // Kept for a look by eye.
  mkdirSync('test-results/screenshots', { recursive: true });
  writeFileSync('test-results/screenshots/export-chart.png', chart.bytes);
  writeFileSync('test-results/screenshots/export-report.png', report.bytes);

  await page.evaluate(() => (window as unknown as { cohortLab: { useLab: { getState(): { removeCompare(id: string): void } } } }).cohortLab.useLab.getState().removeCompare('e2e'));
  await expect(lab.chart('chart-pass1')).toHaveAttribute('data-compare', '');
  await lab.screenshot('charts-scoreboard');
  expect(errors).toEqual([]);
});
