/**
 * The class measures the dose-response together: a room of the overlap preset on the real room
 * server (cli/room/room.ts, a child process), students in their own browser contexts. The room hands
 * out partner levels in turn (src/room/levels.ts): to pairs in a paired room, to each seat alone in
 * an unpaired one. Each finished run adds one point, in its partner's colour, to the panel "Does a
 * more different partner teach more?" on the presenter's page and the projector. Two RL steps (an
 * evaluation at each), as in overlap.spec.ts, so the browsers on a shared machine finish in minutes.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

const STEPS = 2;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const perTest = roomServerPerTest<Student>();

test("a paired room of the overlap preset: a pair and an odd student train different partners, the class ends, and the panel holds one point each", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  const presenter = new Presenter(page);
  await presenter.lab.open(`?backend=wasm&v=1&preset=overlap&s=${b64({ steps: STEPS, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue(String(STEPS));
  const baseSeed = 41;
  await presenter.lab.setField('seed', baseSeed);
  const link = await presenter.createRoom(perTest.server.url, { pairing: true });

  const students: Student[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    students.push(s);
  }
  // Pair 0 trains A with S (the least overlapping partner), pair 1 A with T (the most): the two ends first.
  await expect(students[0].seatLine).toContainText('pair 0: you train A with partner S (a sibling from its own seeds); your partner at seat 1 trains S');
  await expect(students[1].seatLine).toContainText('pair 0: you train S (a sibling from its own seeds), the partner of A; your partner at seat 0 trains A');
  await expect(students[2].seatLine).toContainText('pair 1: you train A with partner T');
  await expect(presenter.seat(0)).toHaveAttribute('data-level', 'peer-S');
  await expect(presenter.seat(2)).toHaveAttribute('data-level', 'peer-T');
  await expect(presenter.seat(2).getByTestId('room-seat-level')).toHaveText('A with partner T');

  // The third student has no partner when the room starts: it trains A and T itself, and counts.
  await presenter.startForEverybody();
  await expect(presenter.seat(2)).toHaveAttribute('data-alone', 'true');
  await expect(students[2].seatLine).toContainText("pair 1: no partner, so you train both A with partner T (A's twin: the same weights, its own samples) yourself; your run counts for the class as your pair's");
  await presenter.waitAllDone(3, STEPS, 480_000);
  await expect(presenter.status).toHaveText('Online: the class run is over.');

  // One point per pair: S's and T's, each in its arm's colour.
  const plot = page.getByTestId('overlap-plot');
  await expect(plot).toHaveAttribute('data-points', '2', { timeout: 60_000 });
  expect(await plot.locator('circle[data-arm="peer-S"]').count()).toBe(1);
  expect(await plot.locator('circle[data-arm="peer-T"]').count()).toBe(1);
  const summary = page.getByTestId('overlap-summary');
  await expect(summary).toContainText('2 points from 2 runs');
  // The two ends come from different seeds here: the panel gives both and claims nothing from them.
  await expect(summary).toContainText("A's gain next to S:");
  await expect(summary).toContainText('in different seeds (too few runs to tell from noise');
  await expect(page.getByTestId('overlap-table').locator('caption')).toHaveText("The class's points (a run per pair)");
  // The odd student trained A and T alone (no overlap experiment by itself): its page keeps the room's panel, its own point in it.
  await expect(students[2].page.getByTestId('overlap-plot').locator('circle[data-arm="peer-T"]')).toHaveCount(1, { timeout: 60_000 });
  const colours = await page.evaluate(() => {
    const out: Record<string, [string, string]> = {};
    for (const arm of ['peer-S', 'peer-T']) {
      const dot = document.querySelector<SVGElement>(`[data-testid="overlap-plot"] circle[data-arm="${arm}"]`);
      const swatch = document.querySelector<HTMLElement>(`[data-testid="score-mean-${arm}"] .arm-swatch`);
      out[arm] = [dot ? getComputedStyle(dot).fill : 'none', swatch ? getComputedStyle(swatch).backgroundColor : 'none'];
    }
    return out;
  });
  for (const [arm, [dot, board]] of Object.entries(colours)) expect(dot, arm).toBe(board);
  expect(colours['peer-S'][0]).not.toBe(colours['peer-T'][0]);
  const origin = new URL(page.url()).host;
  expect(errors.filter((e) => !e.includes(`WebSocket connection to 'ws://${origin}/room' failed`))).toEqual([]);
});


test("an unpaired room of the overlap preset: each laptop trains A with the next partner alone, and the panel and projector fill with a point each", async ({ page, browser }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  const presenter = new Presenter(page);
  await presenter.lab.open(`?backend=wasm&v=1&preset=overlap&s=${b64({ steps: STEPS, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue(String(STEPS));
  const baseSeed = 31;
  await presenter.lab.setField('seed', baseSeed);
  // Before the room is made, the create panel says what its seats will train.
  const link = await presenter.createRoom(perTest.server.url, { plan: "each student's browser trains A with one partner (S, T, B50, B0, B80, X, in turn), with a seed of its own" });
  await expect(page.getByTestId('room-pairs-note')).toContainText('Partner levels:');

  const plot = page.getByTestId('overlap-plot');
  await expect(page.getByTestId('panel-overlap')).toBeVisible();
  await expect(plot).toHaveAttribute('data-points', '0');

  // Seat k trains A with level k mod 6, the ends first (S, then T), then the middle (B50); no pairs.
  const TRAINED = ['peer-S', 'peer-T', 'peer-B50'];
  const students: Student[] = [];
  for (let i = 0; i < TRAINED.length; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    students.push(s);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: baseSeed + i });
    await expect(presenter.seat(i)).toHaveAttribute('data-level', TRAINED[i]);
    await expect(presenter.seat(i).getByTestId('room-seat-level')).toHaveText(`A with partner ${TRAINED[i].slice('peer-'.length)}`);
  }
  await expect(students[0].seatLine).toContainText('you train A with partner S (a sibling from its own seeds), both models yourself');
  await expect(students[1].seatLine).toContainText("you train A with partner T (A's twin: the same weights, its own samples), both models yourself");
  // A student's page shows its own level's pair: A and its partner, the one peer arm.
  await expect(students[2].page.getByTestId('hero')).toHaveAttribute('data-arms', 'peer-B50');
  await presenter.startForEverybody();
  await presenter.waitAllDone(TRAINED.length, STEPS, 480_000);
  await expect(presenter.status).toHaveText('Online: the class run is over.');

  // The presenter's browser trained nothing: one point per seat, in its partner's arm.
  await expect(plot).toHaveAttribute('data-points', String(TRAINED.length), { timeout: 60_000 });
  for (const arm of TRAINED) expect(await plot.locator(`circle[data-arm="${arm}"]`).count(), arm).toBe(1);
  await expect(page.getByTestId('overlap-summary')).toContainText(`${TRAINED.length} points from ${TRAINED.length} runs`);
  const table = page.getByTestId('overlap-table');
  await expect(table.locator('caption')).toHaveText("The class's points (a run per browser)");
  const seeds = await table.locator('tbody tr td:first-child').allTextContents();
  expect(seeds.sort()).toEqual(TRAINED.map((_, i) => String(baseSeed + i)).sort());
  await expect(page.getByTestId('panel-overlap')).toContainText('a browser of the class trains one partner: one point');

  // The claims box says what each browser trained (not "the same experiment").
  await expect(page.getByTestId('seed-claims').locator('.seed-claims-lead')).toHaveText("Every browser in the class trains A with one partner, both models itself, with its own seed: each browser is one run of its partner's arm.");
  await page.screenshot({ path: test.info().outputPath('overlap-unpaired-presenter.png'), fullPage: true });
  await students[1].page.screenshot({ path: test.info().outputPath('overlap-unpaired-student.png') });
  // The projector view: a chart for each partner the class trained, the same points, a headline per partner.
  await page.getByTestId('room-projector').click();
  await expect(page.getByTestId('projector-class')).toBeVisible({ timeout: 30_000 });
  const projector = page.getByTestId('projector');
  const ARMS = ['peer-S', 'peer-B50', 'peer-T'];
  await expect(projector.getByTestId('hero')).toHaveAttribute('data-arms', ARMS.join('|'));
  for (const arm of ARMS) await expect(projector.getByTestId(`chart-hero-${arm}`)).toBeVisible();
  // Each chart's class line is the mean of the one browser that trained its arm, and the key says so.
  await expect(projector.getByTestId('hero-key-class')).toHaveText(`class: mean of the browsers that trained the arm (1 each, ${TRAINED.length} in all)`);
  await expect(projector.getByTestId('overlap-plot')).toHaveAttribute('data-points', String(TRAINED.length));
  await expect(projector.getByTestId('overlap-summary')).toContainText(`from ${TRAINED.length} runs`);
  await expect(projector.getByTestId('projector-headline')).toContainText('Graded by a partner, the models got better with S in');
  // No more than RESULTS: no fitted line through the points, the ends' difference in words.
  expect(await projector.getByTestId('overlap-plot').locator('line[data-testid]').count()).toBe(0);
  await expect(projector.getByTestId('overlap-summary')).toContainText("A's gain next to S:");
  await expect(projector.getByTestId('panel-overlap')).toContainText('a steady fall over the five levels was not shown');
  // One colour per arm and partner everywhere: the panel's legend and each main chart's heading
  // have the arm's colour of the scoreboard.
  const colours = await page.evaluate(() => {
    const out: Record<string, { legend: string; board: string; chart: string }> = {};
    const colour = (el: Element | null, prop: 'color' | 'backgroundColor') => (el ? getComputedStyle(el)[prop] : 'none');
    for (const row of document.querySelectorAll<HTMLElement>('[data-testid="projector"] [data-testid^="score-mean-"]')) {
      const arm = row.dataset.testid!.slice('score-mean-'.length);
      const legend = document.querySelector(`[data-testid="projector"] [data-testid="overlap-legend-item"][data-arm="${arm}"] span`);
      out[arm] = {
        board: colour(row.querySelector('.arm-swatch'), 'backgroundColor'),
        legend: legend ? colour(legend, 'color') : 'no legend',
        chart: colour(document.querySelector(`[data-testid="projector"] [data-testid="hero-${arm}"] .arm-swatch`), 'backgroundColor'),
      };
    }
    return out;
  });
  expect(Object.keys(colours).sort()).toEqual([...ARMS].sort());
  for (const arm of ARMS) expect(colours[arm].chart, arm).toBe(colours[arm].board);
  for (const arm of ARMS.filter((a) => a.startsWith('peer-'))) expect(colours[arm].legend, arm).toBe(colours[arm].board);
  expect(new Set(ARMS.map((a) => colours[a].board)).size, 'an arm colour each').toBe(ARMS.length);
  // The panel fits a 1080 px projector.
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: test.info().outputPath('overlap-projector-1920.png') });
  const box = await projector.getByTestId('panel-overlap').boundingBox();
  expect(box!.y + box!.height, 'the overlap panel ends on a 1080 px screen').toBeLessThanOrEqual(1080);
  // Beside it, the class scoreboard shows all its columns: none cut off at its panel's edge.
  const board = await projector.locator('.scoreboard-table').evaluate((t) => {
    const panel = t.closest('.panel')!.getBoundingClientRect();
    const cells = [...t.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect().right);
    return { right: Math.max(...cells), edge: panel.right };
  });
  expect(board.right, "the scoreboard's last column ends inside its panel").toBeLessThanOrEqual(board.edge);
  // ... and so do the main charts and their key.
  const key = await projector.getByTestId('hero-key').boundingBox();
  expect(key!.y + key!.height, 'the charts and their key end on a 1080 px screen').toBeLessThanOrEqual(1080);
  for (const arm of ARMS) {
    const c = await projector.getByTestId(`chart-hero-${arm}`).boundingBox();
    expect(c!.width, `${arm}'s chart is wide enough to read`).toBeGreaterThanOrEqual(180);
  }
  // The room panel's first probe for a room server on the page's own origin (the preview server, no
  // room there) is the one expected failure; anything else is an error.
  const origin = new URL(page.url()).host;
  expect(errors.filter((e) => !e.includes(`WebSocket connection to 'ws://${origin}/room' failed`))).toEqual([]);
});
