/**
 * Screenshots of the page for review by eye (issue 23, "tested by looking"): the default link at
 * 1280x720, 1440x900 and 390x844 before, during and after its run, the workshop, presenter type and
 * the dark theme, written to docs/screenshots/. Opt-in, as they change the working tree:
 *
 *   npm run screenshots          (UPDATE_SCREENSHOTS=1; skipped in npm test)
 *
 * The layout itself is checked in e2e/layout.spec.ts, which npm test runs.
 */
import { mkdirSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { LabPage } from './helpers/lab';

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
