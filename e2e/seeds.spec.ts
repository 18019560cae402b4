/**
 * "Run N seeds": the quick preset over 2 seeds, one after another through the worker;
 * every chart draws the mean and band of the seeds; the claims are counted over the seeds, and each
 * seed's numbers equal those of that seed's own saved run, opened on its own. wasm: fast, exact.
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { CHARTS, LabPage } from './helpers/lab';
import { evaluationBand } from '../src/app/run/changeRule';
import { PRESETS } from '../src/core/experiment/presets';

test.use({ viewport: { width: 1440, height: 900 } });

async function setUpQuick(lab: LabPage): Promise<number> {
  await lab.choosePreset('quick');
  await lab.shortenWarmStart(12);
  await lab.setField('steps', 3);
  await lab.setField('evalEvery', 3);
  await lab.page.getByTestId('speed').selectOption('max');
  return Number(await lab.page.getByTestId('field-seed').inputValue());
}

/** Record every text the seeds' progress shows from now on. */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    const read = () => {
      const t = document.querySelector('[data-testid="seeds-progress"]')?.textContent ?? '';
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    };
    new MutationObserver(read).observe(document.querySelector('[data-testid="run-bar"]')!, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
}

type Diffs = Record<string, number>;

/** The claims' differences, read from the scoreboard of the run on screen (arm means). */
async function scoreboardDiffs(page: Page): Promise<Diffs> {
  const arm = async (id: string) => {
    const row = page.getByTestId(`score-${id}`);
    await expect(row).not.toHaveAttribute('data-now', '');
    return { start: Number(await row.getAttribute('data-start')), end: Number(await row.getAttribute('data-now')) };
  };
  const [self, peer, oracle] = [await arm('self'), await arm('peer'), await arm('oracle')];
  return { a: self.start - self.end, b: peer.end - self.end, learns: peer.end - peer.start, oracle: oracle.end - peer.end };
}

test('Run 2 seeds: one after another, mean and band on the charts, claims counted over the seeds as the seeds give them', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  const seed = await setUpQuick(lab);

  await page.getByLabel('Seeds', { exact: true }).fill('2');
  const run = page.getByRole('button', { name: 'Run 2 seeds' });
  await expect(run).toBeEnabled();
  const progress = await recordProgress(page);
  await run.click();

  const shown = page.getByTestId('seeds-progress');
  await expect(shown).toHaveText('2 seeds done', { timeout: 180_000 });
  const texts = await progress();
  expect(texts.filter((t) => t.startsWith('seed ')).map((t) => t.replace(/ \(seed \d+\)$/, ''))).toEqual(['seed 1 of 2', 'seed 2 of 2']);
  expect(texts).toContain(`seed 2 of 2 (seed ${seed + 1})`);
  await lab.waitForPhase('done');

  // Every chart: the two seeds drawn faint, the mean over a band, named in the legend.
  for (const id of CHARTS) await expect(lab.chart(id)).toHaveAttribute('data-seeds', '2');
  const pass = lab.chart('chart-pass1');
  const means = ((await pass.getAttribute('data-seed-means')) ?? '').split('|');
  expect(means).toEqual(['oracle · A', 'oracle · B', 'self · A', 'self · B', 'peer · A', 'peer · B'].map((l) => `mean of 2 seeds · ${l}`));
  // Per line: 2 seeds and the mean; one band per arm (its members' envelope: 2 edges each); then the
  // 6 live lines and the 2 base pass@1 guides.
  await expect(pass).toHaveAttribute('data-drawn', String(6 * 3 + 3 * 2 + 6 + 2));
  await expect(pass).toHaveAttribute('data-bands', '3');
  // The legend stands for the means, the live lines and the guides (not the seeds or band edges),
  // in two short keys: the arm colours and the base guide's grey; the members' styles and the labelled band.
  expect(await lab.legend('chart-pass1')).toHaveLength(6 + 6 + 2);
  expect(await lab.legend('chart-pass1')).toContain('mean of 2 seeds · self · A');
  const keys = await lab.legendKeys('chart-pass1');
  expect(keys.colours).toEqual(['oracle', 'self', 'peer', 'base pass@1']);
  expect(keys.lines).toContain('min–max over 2 seeds');

  // The claims, counted over the 2 seeds.
  const claims = page.getByTestId('seed-claims');
  await expect(claims).toHaveAttribute('data-seeds', '2');
  await expect(claims).toContainText('One seed is not evidence');
  await expect(page.getByTestId('seed-claims-tie')).toContainText('counts as not held');
  const ids = ['a', 'b', 'learns', 'oracle'];
  const shownCounts: Record<string, number> = {};
  for (const id of ids) {
    const li = page.getByTestId(`seed-claim-${id}`);
    await expect(li).toContainText(/\d of 2 seeds/);
    shownCounts[id] = Number(await li.getAttribute('data-held'));
  }
  const rows = page.getByTestId('seed-claims-row');
  await expect(rows).toHaveCount(2);
  expect([await rows.nth(0).getAttribute('data-seed'), await rows.nth(1).getAttribute('data-seed')]).toEqual([String(seed), String(seed + 1)]);
  const perSeed: Diffs[] = [];
  for (let i = 0; i < 2; i++) {
    const d: Diffs = {};
    for (const id of ids) d[id] = Number(await rows.nth(i).locator(`td[data-claim="${id}"]`).getAttribute('data-diff'));
    perSeed.push(d);
  }

  // Each seed was saved as a run of its own: open each and read its scoreboard.
  const saved = page.getByTestId('saved-run');
  await expect(saved).toHaveCount(2);
  // The last seed is the run on screen; the first is opened from the list.
  await expect(page.locator('[data-testid="saved-run"][data-live="true"]')).toHaveCount(1);
  await expect(page.getByTestId('scoreboard')).toHaveAttribute('data-seed', String(seed + 1));
  const second = await scoreboardDiffs(page);
  await page.locator('[data-testid="saved-run"][data-live="false"]').getByRole('button', { name: /^Open/ }).click();
  await expect(page.getByTestId('scoreboard')).toHaveAttribute('data-seed', String(seed));
  await lab.waitForPhase('done');
  const opened = [await scoreboardDiffs(page), second];
  // Opening a saved run keeps the seeds' result on the charts.
  await expect(pass).toHaveAttribute('data-seeds', '2');
  // The same numbers, seed for seed.
  for (let i = 0; i < 2; i++) for (const id of ids) expect(perSeed[i][id], `seed ${seed + i}, claim ${id}`).toBeCloseTo(opened[i][id], 9);
  // Held by the page's one rule (src/app/run/changeRule.ts): at least the band one evaluation of the
  // quick preset's 64 held-out problems varies by (0.04), as each run's sentences read it.
  const band = evaluationBand(PRESETS.quick.spec.data.heldOut);
  for (const id of ids) expect(shownCounts[id]).toBe(opened.filter((o) => o[id] >= band).length);

  // Reset clears the seeds' result: no band, no claims.
  await lab.button('reset').click();
  await expect(claims).toHaveCount(0);
  await expect(pass).toHaveAttribute('data-seeds', '0');
  await expect(shown).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Reset during "Run N seeds" cancels the seeds still to run', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await setUpQuick(lab);
  await page.getByRole('button', { name: 'Run 3 seeds' }).click();
  await expect(page.getByTestId('seeds-progress')).toHaveText(/^seed 1 of 3/);
  await lab.button('reset').click();
  await expect(page.getByTestId('seeds-progress')).toHaveCount(0);
  await lab.waitForPhase('idle');
  // A plain Start afterwards trains one run only: nothing of the cancelled seeds comes back.
  await lab.button('start').click();
  await lab.waitForPhase('done');
  await expect(page.getByTestId('saved-run')).toHaveCount(2);
  await expect(page.getByTestId('seeds-progress')).toHaveCount(0);
  await expect(page.getByTestId('seed-claims')).toHaveCount(0);
  await expect(lab.chart('chart-pass1')).toHaveAttribute('data-seeds', '0');
  expect(errors).toEqual([]);
});
