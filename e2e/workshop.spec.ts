/**
 * Workshop mode and classroom links (src/app/workshop/, src/share/classroom.ts), clicked through
 * as a presenter and a student would: the audience predicts before Start, next and previous change
 * the preset and the talking point, the prediction is shown next to what the run measured; a link
 * with ?hide= does not render the controls it names, and its copies keep hiding them.
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';
import { outsideFirstScreen } from './helpers/firstScreen';

test.use({ viewport: { width: 1440, height: 900 } });

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** The experiment panel's section headings on the page. */
const section = (page: Page, name: string) => page.getByTestId('experiment-panel').locator('summary').getByText(name, { exact: true });

test('workshop mode: predict first, next and previous change the preset and the talking point, and the run answers', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await expect(page.getByTestId('workshop')).toHaveCount(0);
  await expect(lab.button('start')).toBeEnabled();

  await page.getByTestId('workshop-toggle').click();
  const card = page.getByTestId('workshop');
  await expect(card).toBeVisible();
  await expect(page.getByTestId('workshop-progress')).toHaveText('Step 1 of 7');
  await expect(page.getByTestId('workshop-title')).toHaveText('Self-reward collapses');
  await expect(page.getByTestId('preset-select')).toHaveValue('collapse');
  await expect(page.locator('html')).toHaveClass(/presenter/);
  await expect.poll(() => [param(page, 'workshop'), param(page, 'step')]).toEqual(['1', '1']);

  // Predict first: Start waits for the audience's answer, and so does the measured result.
  await expect(lab.button('start')).toBeDisabled();
  await expect(page.getByTestId('start-reason')).toContainText('Predict first');
  await expect(page.getByTestId('workshop-reveal')).toBeDisabled();
  await expect(page.getByTestId('workshop-talking-point')).toHaveCount(0);
  // ...and so does the reference run's dashed curve: hidden, its reveal waiting on the prediction.
  const refBar = page.getByTestId('reference-bar');
  await expect(refBar).toHaveAttribute('data-status', 'ready');
  await expect(refBar).toHaveAttribute('data-layer', 'off');
  await expect(page.getByTestId('reference-toggle')).toBeDisabled();
  await expect(page.getByTestId('reference-blocked')).toHaveText('Predict first: choose an answer on the workshop card, then reveal.');
  await expect(page.getByTestId('reference-only')).toHaveCount(0);
  await card.getByText('fall', { exact: true }).click();
  await expect(page.getByTestId('reference-toggle')).toBeEnabled();
  await expect(refBar).toHaveAttribute('data-layer', 'off');
  await expect(page.getByTestId('predict-down')).toBeChecked();
  await expect(lab.button('start')).toBeEnabled();
  await expect(page.getByTestId('start-reason')).toHaveCount(0);
  await page.getByTestId('workshop-reveal').click();
  await expect(page.getByTestId('workshop-talking-point')).toContainText('0.44 → 0.26');
  // The 8 seeds' answer and the reference curves are revealed together.
  await expect(refBar).toHaveAttribute('data-layer', 'on');

  // Next: another preset, another question; the prediction and the result are asked for again.
  await page.getByTestId('workshop-next').click();
  await expect(page.getByTestId('workshop-progress')).toHaveText('Step 2 of 7');
  await expect(page.getByTestId('workshop-title')).toHaveText('Peers that learn');
  await expect(page.getByTestId('preset-select')).toHaveValue('peers-learn');
  await expect.poll(() => [param(page, 'step'), param(page, 'preset')]).toEqual(['2', 'peers-learn']);
  await expect(page.getByTestId('workshop-talking-point')).toHaveCount(0);
  await expect(refBar).toHaveAttribute('data-layer', 'off');
  for (const d of ['up', 'level', 'down']) await expect(page.getByTestId(`predict-${d}`)).not.toBeChecked();
  await expect(lab.button('start')).toBeDisabled();
  await card.getByText('rise', { exact: true }).click();
  await page.getByTestId('workshop-reveal').click();
  await expect(page.getByTestId('workshop-talking-point')).toContainText('+0.16 [+0.09, +0.24], rose in all 8');
  await expect(page.getByTestId('workshop-talking-point')).not.toContainText('0.44 → 0.26');

  // Previous: back to the first step and its preset.
  await page.getByTestId('workshop-prev').click();
  await expect(page.getByTestId('workshop-title')).toHaveText('Self-reward collapses');
  await expect(page.getByTestId('preset-select')).toHaveValue('collapse');
  await expect(page.getByTestId('workshop-prev')).toBeDisabled();
  await expect(lab.button('start')).toBeDisabled();

  // A short run (3 steps, shipped warm starts): the prediction is locked, then shown next to what happened.
  await card.getByText('fall', { exact: true }).click();
  await lab.setField('steps', 3);
  await lab.button('start').click();
  await expect(page.getByTestId('predict-up')).toBeDisabled();
  await expect(page.getByTestId('outcome-prediction')).toHaveText('fall');
  await lab.waitForPhase('done');
  await expect(page.getByTestId('outcome-run')).toContainText(/the self arm's held-out pass@1 \d\.\d\d → \d\.\d\d/);
  await expect(page.getByTestId('outcome-run')).toHaveAttribute('data-direction', /^(up|level|down)$/);
  const direction = await page.getByTestId('outcome-run').getAttribute('data-direction');
  await expect(page.getByTestId('outcome-verdict')).toHaveText(direction === 'down' ? 'As predicted.' : 'Not what was predicted.');
  await expect(page.getByTestId('outcome-measured')).toContainText('fall (−0.15 on average)');
  await expect(page.getByTestId('workshop-talking-point')).toBeVisible();
  // On a 1280x720 projector the reveal is beside the charts on the first screen.
  await page.setViewportSize({ width: 1280, height: 720 });
  expect(await outsideFirstScreen(page, ['workshop-outcome', 'outcome-measured', 'chart-hero-self'])).toEqual([]);
  const talk = await page.getByTestId('workshop-talking-point').boundingBox();
  expect(talk!.y, 'the talking point starts on the first screen').toBeLessThan(720 - 40);
  await page.setViewportSize({ width: 1440, height: 900 });

  // Leaving: no card, normal type, Start as usual, the URL without the workshop.
  await page.getByTestId('workshop-toggle').click();
  await expect(card).toHaveCount(0);
  await expect(page.locator('html')).not.toHaveClass(/presenter/);
  await expect.poll(() => param(page, 'workshop')).toBeNull();
  expect(errors).toEqual([]);
});

test('a workshop link opens at its step; a step out of range is explained', async ({ page }) => {
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&workshop=1&step=4');
  await expect(page.getByTestId('workshop-title')).toHaveText('Does a peer teach?');
  await expect(page.getByTestId('preset-select')).toHaveValue('peers-teach');
  await expect(lab.button('start')).toBeDisabled();

  await lab.open('?backend=wasm&workshop=1&step=9');
  await expect(page.getByTestId('workshop-progress')).toHaveText('Step 7 of 7');
  await expect(page.getByTestId('classroom-warning')).toContainText('step=9 is not a step of this workshop (1-7): showing step 7.');
  await expect(page.getByTestId('workshop-next')).toBeDisabled();
  await expect.poll(() => param(page, 'step')).toBe('7');
  expect(errors).toEqual([]);
});

test('the overlap step asks first how different a partner should be, then quotes the confirmation seeds and reads a short run', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&workshop=1&step=6');
  const card = page.getByTestId('workshop');
  await expect(page.getByTestId('workshop-title')).toHaveText('How different should your study partner be?');
  await expect(page.getByTestId('preset-select')).toHaveValue('overlap');
  await expect(card).toContainText('Next to its sibling S, compared with next to its twin T, A will gain');
  // Predict first, as on every step.
  await expect(lab.button('start')).toBeDisabled();
  await expect(page.getByTestId('workshop-talking-point')).toHaveCount(0);
  await card.getByText('more', { exact: true }).click();
  await page.getByTestId('workshop-reveal').click();
  const talk = page.getByTestId('workshop-talking-point');
  await expect(talk).toContainText('fresh seeds (201-212)');
  await expect(talk).toContainText('+0.15 [+0.05, +0.25], 10 of 12 seeds; shown with Holm');
  await expect(talk).toContainText('+0.27 [−0.03, +0.56]; not shown');

  // A short run (3 steps): the card reads A's gain next to S and next to T off this run.
  await lab.setField('steps', 3);
  await lab.button('start').click();
  await expect(page.getByTestId('outcome-prediction')).toHaveText('more');
  await lab.waitForPhase('done', 180_000);
  await expect(page.getByTestId('outcome-run')).toContainText(/A gained [+−]?\d\.\d\d in peer-S and [+−]?\d\.\d\d in peer-T/);
  await expect(page.getByTestId('outcome-measured')).toContainText('more (+0.15 on average)');
  expect(errors).toEqual([]);
});

test('a classroom link hides the controls it names, shows the rest, and links copied from it keep hiding them', async ({ page, context }) => {
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm&hide=arms,grpo,speed,step,bogus');
  await expect(page.getByTestId('classroom-warning')).toContainText('Unknown control "bogus" in hide= ignored');

  async function expectClassroomPage(p: Page): Promise<void> {
    // Hidden: not in the page at all.
    await expect(section(p, 'Arms (reward schemes)')).toHaveCount(0);
    await expect(section(p, 'GRPO')).toHaveCount(0);
    await expect(p.getByTestId('speed')).toHaveCount(0);
    await expect(p.getByTestId('step')).toHaveCount(0);
    await expect(p.locator('[data-testid^="field-grpo."]')).toHaveCount(0);
    // The rest is there.
    await expect(section(p, 'Task and run')).toBeVisible();
    await expect(section(p, 'Cohort')).toBeVisible();
    await expect(p.getByTestId('preset-select')).toBeVisible();
    for (const id of ['start', 'pause', 'reset']) await expect(p.getByTestId(id)).toBeVisible();
    await expect(p.getByTestId('chart-pass1')).toBeVisible();
  }
  await expectClassroomPage(page);

  // An edit rewrites the share params; hide= stays, so Copy link copies a classroom link.
  await lab.setField('seed', 11);
  await expect.poll(() => param(page, 's')).not.toBeNull();
  expect(param(page, 'hide')).toBe('arms,grpo,speed,step,bogus');
  const other = await context.newPage();
  const otherErrors = collectErrors(other);
  const otherLab = new LabPage(other);
  await otherLab.open(new URL(page.url()).search);
  await expect(other.getByTestId('field-seed')).toHaveValue('11');
  await expectClassroomPage(other);

  // hide=experiment: no Experiment panel at all, the charts take the width.
  await lab.open('?backend=wasm&hide=experiment,preset');
  await expect(page.getByTestId('experiment-panel')).toHaveCount(0);
  await expect(page.getByTestId('preset-select')).toHaveCount(0);
  await expect(page.getByTestId('classroom-warning')).toHaveCount(0);
  await expect(page.getByTestId('chart-pass1')).toBeVisible();
  await expect(lab.button('start')).toBeEnabled();
  expect([...errors, ...otherErrors]).toEqual([]);
});
