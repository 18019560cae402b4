/**
 * The presenter's projector view of a class and what students see beside it
 * (build 2), with the real room server (cli/room/room.ts in a child process) and a class of two: a
 * laptop and a 390x844 phone, each in its own browser context. The presenter's window is
 * 1280x720, a projector's. The quick preset on wasm.
 *
 *   before Start: a large QR code and the address, the count of browsers joined, none of the
 *     presenter's own run controls, the seats in a side drawer, the same view after a reload;
 *   during and after the run: the class's hero charts, its scoreboard and its claims all on the
 *     first screen, the class's progress in words ("the class run is over");
 *   a student: "you" and "class: mean of 2 browsers" in the key, its seat's seed is no edit, and
 *     after its run "the class run is over; a new run here is yours alone".
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { outsideFirstScreen } from './helpers/firstScreen';
import { Presenter, Student } from './helpers/classRoom';
import { cutAxisLabels, heroOutsideFirstScreen, horizontalOverflow } from './helpers/layout';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1280, height: 720 } });

const STEPS = 6;
const perTest = roomServerPerTest<Student>();


/** axe-core's serious and critical findings on the page as it is now (as e2e/a11y.spec.ts reads them). */
async function seriousViolations(page: Page, view: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${view}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** What the projector view must hold on its first screen once the class trains. */
const CLASS_ON_SCREEN = ['hero', 'chart-hero-self', 'chart-hero-peer', 'scoreboard', 'seed-claims'];

test('the projector view: join code, then the class on one 1280x720 screen; students see themselves beside the class', async ({ page, browser }) => {
  test.setTimeout(480_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  await page.getByTestId('room-projector').click();
  const view = page.getByTestId('projector');
  await expect(view).toBeVisible();

  // A page on 127.0.0.1: the address is this computer's only, said loudly before anything is projected.
  await expect(page.getByTestId('projector-link-warning')).toContainText('Students cannot open this address');
  await expect(page.getByTestId('room-qr')).toHaveCount(0);
  await expect(page.getByTestId('projector-address')).toHaveCount(0);
  await page.getByTestId('projector-link-anyway').click();
  // Before Start: a QR code a phone reads from the back of a room, the address, the count.
  const qr = page.getByTestId('room-qr');
  const box = await qr.boundingBox();
  expect(box!.width, 'the QR code is large').toBeGreaterThanOrEqual(400);
  expect(box!.y + box!.height).toBeLessThanOrEqual(720);
  await expect(page.getByTestId('projector-address')).toHaveText(link);
  // A short code beside the QR, typeable from the back of a room.
  await expect(page.getByTestId('projector-code')).toHaveText(/^[A-Z2-9]{3} [A-Z2-9]{3}$/);
  await expect(page.getByTestId('projector-count')).toHaveText('0 joined');
  // Predict first: the question is on the join screen; the measured answer is not.
  await expect(page.getByTestId('projector-question')).toHaveText(/^Predict first\. .+/);
  // The room's title is the experiment's title, not an internal preset id ("peers-learn, seed 110").
  const title = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
  expect(title).toMatch(/^[A-Z].*, seed \d+$/);
  expect(title).not.toMatch(/^[a-z0-9]+(-[a-z0-9]+)*, seed/);
  // None of the presenter's own run: no run bar, no Start of its own, no experiment panel.
  for (const id of ['run-bar', 'start', 'hero-start', 'experiment-panel', 'scoreboard']) await expect(page.getByTestId(id)).toHaveCount(0);

  // A laptop and a phone join.
  const laptop = await Student.join(browser, link);
  perTest.students.push(laptop);
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phone = new Student(await phoneContext.newPage(), phoneContext);
  perTest.students.push(phone);
  await phone.open(link);
  await expect(page.getByTestId('projector-count')).toHaveText('2 joined');
  await expect(page.getByTestId('projector-count')).toHaveAttribute('data-seats', '2');
  expect(await seriousViolations(page, 'join screen')).toEqual([]);

  // The seats and the room's controls are in a drawer.
  await expect(page.getByTestId('room-seat')).toHaveCount(0);
  await page.getByTestId('projector-drawer-toggle').click();
  await expect(page.getByTestId('projector-drawer')).toBeVisible();
  await expect(page.getByTestId('room-seat')).toHaveCount(2);
  await expect(page.getByTestId('room-close')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('projector-drawer')).toHaveCount(0);

  // A reload of the presenter's page opens the same view of the same room.
  await page.reload();
  await expect(view).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('projector-count')).toHaveText('2 joined', { timeout: 30_000 });

  // One RL step a second on the laptop: the class is surely training when the screen is read.
  await laptop.page.getByTestId('speed').selectOption('1');
  await page.getByTestId('projector-start').click();
  await expect(page.getByTestId('projector-class')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('projector-progress')).toHaveText(/training at RL steps? \d/, { timeout: 60_000 });
  await expect(page.getByTestId('seed-claims')).toBeVisible({ timeout: 60_000 });
  expect(await outsideFirstScreen(page, CLASS_ON_SCREEN), 'during the run').toEqual([]);
  // The reference run stays hidden until the presenter reveals it (after the class has predicted).
  const reveal = page.getByTestId('projector-reveal');
  await expect(reveal).toHaveAttribute('data-revealed', 'no');
  // While runs train, the scoreboard's last column is where they are now, not their end.
  await expect(page.getByTestId('scoreboard-mean-last')).toHaveText('now');
  await expect(page.getByTestId('hero-key')).not.toContainText('(dashed)');
  expect(await horizontalOverflow(page)).toEqual([]);
  // A student's laptop keeps its hero charts on the first screen under the room's panel.
  expect(await heroOutsideFirstScreen(laptop.page), 'a student during the run').toEqual([]);

  // After the run: the class's numbers, in words and on one screen.
  await expect(page.getByTestId('projector-progress')).toHaveText(`The class run is over: all 2 browsers finished ${STEPS} RL steps.`, { timeout: 240_000 });
  const claims = page.getByTestId('seed-claims');
  await expect(claims).toHaveAttribute('data-running', 'false', { timeout: 30_000 });
  await expect(claims.locator('h2')).toHaveText('Claims over 2 browsers');
  await expect(page.getByTestId('scoreboard-mean')).toHaveAttribute('data-seeds', '2');
  await expect(page.getByTestId('scoreboard-mean-last')).toHaveText('end');
  await expect(page.getByTestId('chart-hero-self')).toHaveAttribute('data-seeds', '2');
  await page.getByTestId('projector-reveal-button').click();
  await expect(reveal).toHaveAttribute('data-revealed', 'yes');
  await expect(page.getByTestId('hero-key')).toContainText('reference: 8 seeds, mean (dashed)');
  expect(await outsideFirstScreen(page, [...CLASS_ON_SCREEN, 'scoreboard-mean', 'seed-claim-a']), 'after the run').toEqual([]);
  expect(await horizontalOverflow(page)).toEqual([]);
  // The story in plain words, from the class's numbers, and each word of the screen defined once.
  await expect(page.getByTestId('projector-headline')).toHaveText(/^In (none|\d) of 2 browsers.* went up\. The models graded by a partner got better in \d of 2 browsers\.$/);
  await expect(page.getByTestId('projector-terms')).toContainText('held-out pass@1: the share of new problems');
  await expect(page.getByTestId('projector-terms')).toContainText('seed: the random start');
  // A 1080p projector: the same, larger.
  await page.setViewportSize({ width: 1920, height: 1080 });
  // Presenter type on the projector: the axis label at 16 px (the page's is 12).
  await expect(page.locator('[data-testid="chart-hero-self"][data-label-font], [data-testid="chart-hero-self"] [data-label-font]').first()).toHaveAttribute('data-label-font', /^600 16px/);
  await page.screenshot({ path: test.info().outputPath('projector-1920.png') });
  // No empty lower third: the side column reaches the lower third of the screen.
  const side = await page.locator('.projector-side').boundingBox();
  expect(side!.y + side!.height, 'the side column reaches the lower third').toBeGreaterThan(1080 * 0.67);
  expect(await outsideFirstScreen(page, [...CLASS_ON_SCREEN, 'scoreboard-mean', 'seed-claim-a']), 'after the run at 1920x1080').toEqual([]);
  expect(await horizontalOverflow(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });

  // The students: their run and the class told apart in the key; seat 1's seed is no edit; the class run is over.
  for (const s of [laptop, phone]) {
    await s.lab.waitForPhase('done');
    await expect(s.page.getByTestId('hero-key-you')).toHaveText("you: this browser's run");
    // One set of class numbers: each student's class is the projector's, their own run in it.
    await expect(s.page.getByTestId('hero-key-class')).toHaveText('class: mean of 2 browsers');
    await expect(s.page.getByTestId('scoreboard-mean')).toHaveAttribute('data-seeds', '2');
    await expect(s.page.getByTestId('reference-bar')).toHaveAttribute('data-layer', 'off');
    await expect(s.page.getByTestId('claim-sentences')).toBeVisible();
    await expect(s.page.getByTestId('claim-sentences')).not.toContainText('An edited experiment');
    await expect(s.page.getByTestId('room-class-over')).toHaveText(
      'Your run for the class is done and the room has all of it. The class run is over; a new run here is yours alone: it is not sent to the room.',
    );
  }
  expect(await horizontalOverflow(phone.page), 'the phone').toEqual([]);
  expect(await heroOutsideFirstScreen(laptop.page), 'a student after the run').toEqual([]);
  expect(await cutAxisLabels(page), 'the projector').toEqual([]);

  await page.getByTestId('projector-drawer-toggle').click();
  expect(await seriousViolations(page, 'the class after its run, drawer open')).toEqual([]);
  await page.getByTestId('projector-drawer-close').click();

  // Leaving the projector view gives the lab's page back, with the room's panel.
  await page.getByTestId('projector-exit').click();
  await expect(page.getByTestId('run-bar')).toBeVisible();
  await expect(page.getByTestId('room-panel')).toBeVisible();
  // Its run bar says where the class is, not "Ready" (the presenter's own browser trained nothing).
  await expect(page.getByTestId('run-phase')).toHaveText(`The class run is over: all 2 browsers finished ${STEPS} RL steps.`);
});
