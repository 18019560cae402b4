/**
 * The mechanism behind label-free rewards, as the lab draws it: panel 1's per-arm charts of label
 * against own-vote accuracy and of rescue / mislead / shared-error rates, the untrained pair's
 * pooled maj@G as a baseline in the ensemble chart, and no hacking-gap band for the intrinsic
 * rewards (entropy, self-certainty), whose reward is not a 0-1 label match. wasm: fast and exact.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const bands = (lab: LabPage, testId: string) => lab.chart(testId).getAttribute('data-bands');

test('quick preset: mechanism charts per vote arm and the untrained pair baseline', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('quick');
  await lab.button('start').click();
  await lab.waitForPhase('done', 100_000);
  await lab.unfold('pseudo'); // folded by default

  for (const arm of ['oracle', 'self', 'peer']) {
    await expect(page.getByTestId(`mechanism-${arm}`)).toBeVisible();
    expect(await lab.series(`chart-mech-labels-${arm}`), arm).toEqual(['label · A', 'own vote · A', 'label · B', 'own vote · B']);
    expect(await lab.points(`chart-mech-labels-${arm}`), arm).toBeGreaterThan(0);
    expect(await lab.series(`chart-mech-rates-${arm}`), arm).toEqual(['rescue · A', 'mislead · A', 'shared error · A', 'rescue · B', 'mislead · B', 'shared error · B']);
    expect(await lab.points(`chart-mech-rates-${arm}`), arm).toBeGreaterThan(0);
  }
  await expect(page.getByTestId('mechanism-multiples').getByTestId(/^mechanism-none-/)).toHaveCount(0);

  // The untrained pair pooled by maj@G: a guide line per arm in the ensemble chart's legend.
  const legend = await lab.legend('chart-majg');
  for (const arm of ['oracle', 'self', 'peer']) {
    expect(legend).toContain(`${arm} · ensemble`);
    expect(legend).toContain(`untrained pair pooled · ${arm}`);
  }
  // Vote arms keep their hacking-gap band, one per member.
  expect(await bands(lab, 'chart-collapse-self')).toBe('2');
  expect(await bands(lab, 'chart-collapse-peer')).toBe('2');
  expect(errors).toEqual([]);
});

test('intrinsic rewards: no hacking-gap band and no mechanism charts, said in words', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  // The intrinsic preset's shipped warm starts, two RL steps (the last one is evaluated).
  await lab.choosePreset('intrinsic');
  await lab.setField('steps', 2);
  await expect(lab.button('start')).toBeEnabled();
  await lab.button('start').click();
  await lab.waitForPhase('done', 100_000);
  await lab.unfold('pseudo'); // folded by default

  for (const arm of ['entropy', 'certainty']) {
    expect(await lab.points(`chart-collapse-${arm}`), arm).toBeGreaterThan(0);
    expect(await bands(lab, `chart-collapse-${arm}`), arm).toBe('0');
    await expect(page.getByTestId(`collapse-note-${arm}`)).toContainText('No hacking-gap band');
    await expect(page.getByTestId(`mechanism-none-${arm}`)).toBeVisible();
    await expect(page.getByTestId(`chart-mech-labels-${arm}`)).toHaveCount(0);
    await expect(page.getByTestId(`chart-mech-rates-${arm}`)).toHaveCount(0);
  }
  expect(await bands(lab, 'chart-collapse-peer')).toBe('2');
  await expect(page.getByTestId('collapse-note-peer')).toHaveCount(0);
  expect(await lab.points('chart-mech-rates-peer')).toBeGreaterThan(0);
  expect(await lab.legend('chart-majg')).toContain('untrained pair pooled · peer');
  expect(errors).toEqual([]);
});
