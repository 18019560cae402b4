/**
 * The page as it is laid out: no sideways scroll, the hero charts on the first screen
 * from before Start to after the run (normal, presenter, workshop), legend keys of at most 6
 * entries, and no axis label cut. Checks on the browser's own layout, not on pixels.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';
import { outsideFirstScreen } from './helpers/firstScreen';
import { cutAxisLabels, heroOutsideFirstScreen, horizontalOverflow, legendsOverLimit, unfoldAll } from './helpers/layout';

const MAX_KEY_ENTRIES = 6; // src/app/charts/legendKeys.ts

// The service worker as users get it: its offline notice is part of the layout checked here.
test.use({ serviceWorkers: 'allow' });

test.describe('1280x720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the default link: the hero on the first screen before, during and after a run; every chart legible', async ({ page }) => {
    test.setTimeout(180_000);
    const errors = collectErrors(page);
    const lab = new LabPage(page);
    await lab.open('?backend=wasm');
    await expect(page.getByTestId('hero')).toHaveAttribute('data-arms', 'self|peer');
    await expect(page.getByTestId('hero-start')).toContainText('Self-reward collapses, peers learn, the oracle leads');
    // Plain words first: the tagline uses no term of the trade, and every term the hero's first
    // sentences use opens its glossary entry.
    const tagline = (await page.locator('.tagline').textContent()) ?? '';
    for (const jargon of ['GRPO', 'pass@1', 'label', 'RL', 'self-reward', 'collapse', 'arm', 'peer', 'oracle']) expect(tagline, jargon).not.toMatch(new RegExp(`\\b${jargon}\\b`, 'i'));
    const terms = await page.getByTestId('hero').locator('[data-term]').evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
    for (const t of ['term-majority-vote', 'term-grpo', 'term-pass-at-1', 'term-held-out', 'term-warm-start', 'term-arm', 'term-rl-step']) expect(terms, t).toContain(t);
    expect(await heroOutsideFirstScreen(page), 'before the run').toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // A short run of the same pair (quick: 6 steps) for during and after.
    await lab.choosePreset('quick');
    // One Start on the screen (the hero card once carried a second one); the hero card points to it.
    await expect(page.getByRole('button', { name: /Start$/ })).toHaveCount(1);
    await expect(page.getByTestId('hero-start-hint')).toContainText('Start in the run bar at the top');
    // One step a second, so "during the run" is looked at during it (the 6 steps take a second or two at full speed).
    await page.getByTestId('speed').selectOption('1');
    await lab.button('start').click();
    // The keyboard's focus moves to Pause, not to the body.
    await expect(page.getByTestId('pause')).toBeFocused();
    await lab.waitForStep(2, 120_000);
    await expect(page.getByTestId('run-bar-progress')).toHaveAttribute('data-stage', 'RL steps');
    expect(await heroOutsideFirstScreen(page), 'during the run').toEqual([]);
    await lab.waitForPhase('done', 120_000);
    await expect(page.getByTestId('claim-sentences')).toBeVisible();
    expect(await heroOutsideFirstScreen(page), 'after the run').toEqual([]);
    expect(await lab.points('chart-hero-self')).toBeGreaterThan(0);

    // Every panel unfolded: its legends short, its axis labels whole, nothing wider than the window.
    await unfoldAll(page);
    expect(await legendsOverLimit(page, MAX_KEY_ENTRIES)).toEqual([]);
    expect(await cutAxisLabels(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);
    const keys = await lab.legendKeys('chart-majg');
    expect(keys.colours.slice(0, 3)).toEqual(['oracle', 'self', 'peer']);
    expect(keys.lines).toEqual(expect.arrayContaining(['member A', 'member B']));
    expect(errors).toEqual([]);
  });

  test('presenter type and the workshop keep the hero on the first screen', async ({ page }) => {
    const lab = new LabPage(page);
    await lab.open('?backend=wasm');
    await page.getByTestId('presenter-toggle').click();
    await expect(page.locator('html')).toHaveClass(/presenter/);
    expect(await heroOutsideFirstScreen(page), 'presenter').toEqual([]);
    expect(await cutAxisLabels(page), 'presenter').toEqual([]);
    await page.getByTestId('presenter-toggle').click();

    // No ?backend=: on this machine WebGPU is SwiftShader's emulation, so its notice shows above the stage.
    await lab.open('?workshop=1&step=1');
    await expect(page.getByTestId('workshop')).toBeVisible();
    await expect(page.getByTestId('emulation-hint')).toBeVisible({ timeout: 60_000 });
    expect(await heroOutsideFirstScreen(page), 'workshop').toEqual([]);
    // The question the audience answers before Start is on the first screen too.
    const choice = await page.getByTestId('predict-down').boundingBox();
    expect(choice && choice.y + choice.height).toBeLessThanOrEqual(720);
    expect(await horizontalOverflow(page)).toEqual([]);
  });
});

for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 740 }]) {
  test(`phone ${viewport.width}x${viewport.height}: no sideways scroll, results before the experiment, the scoreboard as cards`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(viewport);
    const lab = new LabPage(page);
    await lab.open('?backend=wasm&v=1&preset=quick');
    expect(await horizontalOverflow(page), 'before the run').toEqual([]);
    expect(await heroOutsideFirstScreen(page)).toEqual([]);
    // The one sentence that says what to watch stays on a phone, on the first screen.
    expect(await outsideFirstScreen(page, ['hero-watch'])).toEqual([]);
    await expect(page.getByTestId('hero-watch')).toHaveText('When reward climbs while held-out pass@1 falls, the model is fooling itself.');
    // The offline notice, where it shows, is a one-line chip, not a banner.
    const offline = page.getByTestId('offline-ready');
    if (await offline.isVisible()) expect((await offline.boundingBox())!.height).toBeLessThan(32);
    await lab.button('start').click();
    await lab.waitForPhase('done', 120_000);
    await unfoldAll(page);
    await page.getByTestId('run-details-toggle').click();
    expect(await horizontalOverflow(page), 'after the run, every panel open').toEqual([]);
    expect(await cutAxisLabels(page)).toEqual([]);
    // Results first: the scoreboard is above the experiment panel.
    const score = await page.getByTestId('scoreboard').boundingBox();
    const experiment = await page.getByTestId('experiment-panel').boundingBox();
    expect(score!.y).toBeLessThan(experiment!.y);
    // One card per arm: its numbers stacked under each other, not in columns.
    const now = await page.getByTestId('score-self-now').boundingBox();
    const change = await page.getByTestId('score-self-change').boundingBox();
    expect(change!.y).toBeGreaterThan(now!.y);
  });
}
