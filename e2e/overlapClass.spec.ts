/**
 * The class measures the dose-response together: a room of the overlap
 * preset on the real room server (cli/room.ts, a child process), two students in their own browser
 * contexts, each seat its own seed (base + join order). Each finished seat's run adds one point per
 * dial level to the panel "Does a more different partner teach more?" on the presenter's page, and
 * the same points are in the projector view. Two RL steps (an evaluation at each), as in
 * overlap.spec.ts, so three browsers on a shared machine finish in minutes.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

const STEPS = 2;
/** The overlap preset's dial levels and its cross-family partner: one point each per finished run. */
const LEVELS = 6;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const perTest = roomServerPerTest<Student>();


test("a room of the overlap preset: the presenter's panel and the projector fill with two seats' points", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  const presenter = new Presenter(page);
  await presenter.lab.open(`?backend=wasm&v=1&preset=overlap&s=${b64({ steps: STEPS, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue(String(STEPS));
  const baseSeed = 31;
  await presenter.lab.setField('seed', baseSeed);
  const link = await presenter.createRoom(perTest.server.url);

  const plot = page.getByTestId('overlap-plot');
  await expect(page.getByTestId('panel-overlap')).toBeVisible();
  await expect(plot).toHaveAttribute('data-points', '0');

  for (let i = 0; i < 2; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: baseSeed + i });
    await expect(s.page.getByTestId('preset-select')).toHaveValue('overlap');
    await expect(s.page.getByTestId('field-steps')).toHaveValue(String(STEPS));
  }
  await presenter.startForEverybody();
  await presenter.waitAllDone(2, STEPS, 480_000);

  // The presenter's browser trained nothing: every point is a seat's, one per level and seat.
  await expect(plot).toHaveAttribute('data-points', String(2 * LEVELS), { timeout: 60_000 });
  await expect(page.getByTestId('overlap-summary')).toContainText(`${2 * LEVELS} points from 2 runs`);
  const table = page.getByTestId('overlap-table');
  await expect(table.locator('caption')).toHaveText("The class's points (a run per browser)");
  const seeds = await table.locator('tbody tr td:first-child').allTextContents();
  expect([...new Set(seeds)].sort()).toEqual([String(baseSeed), String(baseSeed + 1)]);
  expect(await plot.locator('circle[data-arm="peer-S"]').count()).toBe(2);

  // The projector view: the same class's points beside its charts.
  await page.getByTestId('room-projector').click();
  await expect(page.getByTestId('projector-class')).toBeVisible({ timeout: 30_000 });
  const projector = page.getByTestId('projector');
  await expect(projector.getByTestId('overlap-plot')).toHaveAttribute('data-points', String(2 * LEVELS));
  await expect(projector.getByTestId('overlap-summary')).toContainText('from 2 runs');
  // No more than RESULTS: no fitted line through the points, the ends' difference in words.
  expect(await projector.getByTestId('overlap-plot').locator('line[data-testid]').count()).toBe(0);
  await expect(projector.getByTestId('overlap-summary')).toContainText("A's gain next to S minus next to T");
  await expect(projector.getByTestId('panel-overlap')).toContainText('a steady fall over the five levels was not shown');
  // One colour per partner everywhere: the panel's legend has each arm's colour of the scoreboard.
  const colours = await page.evaluate(() => {
    const out: Record<string, [string, string]> = {};
    for (const li of document.querySelectorAll<HTMLElement>('[data-testid="overlap-legend-item"]')) {
      const arm = li.dataset.arm!;
      const swatch = document.querySelector<HTMLElement>(`[data-testid="score-mean-${arm}"] .arm-swatch`);
      out[arm] = [getComputedStyle(li.querySelector('span')!).color, swatch ? getComputedStyle(swatch).backgroundColor : 'none'];
    }
    return out;
  });
  expect(Object.keys(colours)).toHaveLength(LEVELS);
  for (const [arm, [legend, board]] of Object.entries(colours)) expect(legend, arm).toBe(board);
  // The panel fits a 1080 px projector.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: test.info().outputPath('overlap-projector-1920.png') });
  const box = await projector.getByTestId('panel-overlap').boundingBox();
  expect(box!.y + box!.height, 'the overlap panel ends on a 1080 px screen').toBeLessThanOrEqual(1080);
  // The room panel's first probe for a room server on the page's own origin (the preview server, no
  // room there) is the one expected failure; anything else is an error.
  const origin = new URL(page.url()).host;
  expect(errors.filter((e) => !e.includes(`WebSocket connection to 'ws://${origin}/room' failed`))).toEqual([]);
});
