/**
 * Screenshots of the page for review by eye: the default link at
 * 1280x720, 1440x900 and 390x844 before, during and after its run, the workshop, presenter type,
 * the dark theme, and a class (the projector view, a student's laptop and phone), written to
 * docs/screenshots/. Opt-in, as they change the working tree:
 *
 *   npm run screenshots          (UPDATE_SCREENSHOTS=1; skipped in npm test)
 *
 * The layout itself is checked in e2e/layout.spec.ts, which npm test runs.
 */
import { mkdirSync } from 'node:fs';
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { LabPage } from './helpers/lab';
import { RoomServerProcess } from './helpers/roomServer';

const OUT = 'docs/screenshots';

// Skipped in `npm test` on purpose: these tests write docs/screenshots/ (the tree-state check would
// fail the run), and the layout checks that can fail live in layout.spec.ts. `npm run screenshots`
// sets UPDATE_SCREENSHOTS=1 and writes them for review.
test.skip(process.env.UPDATE_SCREENSHOTS !== '1', 'opt-in: npm run screenshots');

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  // Let the charts' bounded redraw (every 250 ms) catch up with the last step.
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: false });
}

const SIZES = [
  { name: '1280x720', width: 1280, height: 720 },
  { name: '1440x900', width: 1440, height: 900 },
  { name: '390x844', width: 390, height: 844 },
];

for (const size of SIZES) {
  test(`default link at ${size.name}: before, during and after its run`, async ({ page }) => {
    test.setTimeout(420_000);
    await page.setViewportSize(size);
    const lab = new LabPage(page);
    await lab.open();
    await shoot(page, `${size.name}-before`);
    await lab.button('start').click();
    await lab.waitForStep(30, 300_000);
    await shoot(page, `${size.name}-during`);
    await lab.waitForPhase('done', 300_000);
    await expect(page.getByTestId('claim-sentences')).toBeAttached();
    await shoot(page, `${size.name}-after`);
    if (size.name === '1280x720') {
      await page.getByTestId('presenter-toggle').click();
      await shoot(page, `${size.name}-presenter-after`);
      await page.getByTestId('presenter-toggle').click();
    }
    if (size.name === '1440x900') {
      await page.getByTestId('theme-toggle').click();
      await shoot(page, `${size.name}-dark-after`);
    }
  });
}

test('workshop at 1280x720: the first step, predicted', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  await lab.open('?workshop=1&step=1');
  await page.getByTestId('predict-down').check();
  await shoot(page, '1280x720-workshop-before');
});

test('workshop at 1280x720: the first step after its run, the reveal beside the charts', async ({ page }) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new LabPage(page);
  await lab.open('?workshop=1&step=1&backend=wasm');
  await page.getByTestId('predict-down').check();
  await lab.button('start').click();
  await lab.waitForPhase('done', 400_000);
  await expect(page.getByTestId('workshop-talking-point')).toBeVisible();
  await shoot(page, '1280x720-workshop-after');
});

/**
 * A class: the real room server, the presenter's projector view at 1280x720,
 * a student's laptop (1280x720) and a student's phone (390x844), before, during and after the
 * default experiment's class run. The layout of the same views is checked in projector.spec.ts.
 */
test('a class of two: projector, laptop and phone, before, during and after the run', async ({ page, browser }) => {
  test.setTimeout(900_000);
  const server = await RoomServerProcess.start();
  const contexts: BrowserContext[] = [];
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    const lab = new LabPage(page);
    await lab.open('?backend=wasm');
    await page.getByTestId('room-toggle').click();
    const field = page.getByTestId('room-server');
    await expect(field).not.toHaveValue('', { timeout: 30_000 });
    await field.fill(server.url);
    await page.getByTestId('room-create').click();
    const link = await page.getByTestId('room-link').inputValue({ timeout: 30_000 });
    await page.getByTestId('room-projector').click();
    const student = async (viewport: { width: number; height: number }, mobile: boolean): Promise<Page> => {
      const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
      contexts.push(context);
      const p = await context.newPage();
      await p.goto(`${link}&backend=wasm`);
      await expect(p.getByTestId('room-seat-line')).toBeVisible({ timeout: 90_000 });
      await expect(p.getByTestId('backend-status')).toHaveText('Backend: wasm', { timeout: 90_000 });
      return p;
    };
    const laptop = await student({ width: 1280, height: 720 }, false);
    const phone = await student({ width: 390, height: 844 }, true);
    await expect(page.getByTestId('projector-count')).toHaveText('2 joined');
    await shoot(page, 'class-projector-before');
    await shoot(laptop, 'class-laptop-before');
    await shoot(phone, 'class-phone-before');

    await page.getByTestId('projector-start').click();
    await expect(page.getByTestId('projector-progress')).toHaveText(/training at RL steps? ([3-9]\d|\d{3})/, { timeout: 400_000 });
    await shoot(page, 'class-projector-during');
    await shoot(laptop, 'class-laptop-during');
    await shoot(phone, 'class-phone-during');

    await expect(page.getByTestId('projector-progress')).toHaveText(/^The class run is over/, { timeout: 600_000 });
    await expect(page.getByTestId('seed-claims')).toHaveAttribute('data-running', 'false', { timeout: 30_000 });
    for (const p of [laptop, phone]) await expect(p.getByTestId('room-class-over')).toBeVisible({ timeout: 60_000 });
    await shoot(page, 'class-projector-after');
    await shoot(laptop, 'class-laptop-after');
    await shoot(phone, 'class-phone-after');
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await server.dispose();
  }
});
