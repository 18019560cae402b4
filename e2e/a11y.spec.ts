/**
 * Accessibility of the main views, checked by axe-core (every rule it runs by default): a fresh
 * page, a run in progress and its end (tables open), the dark theme, and the shortcuts dialog.
 * No serious or critical violation may remain. Also: the controls are reached with Tab and
 * each shows a visible focus ring when reached by keyboard.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

async function seriousViolations(page: Page, view: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  // Moderate and minor findings are reported, not failed on.
  for (const v of result.violations.filter((x) => x.impact !== 'serious' && x.impact !== 'critical')) {
    test.info().annotations.push({ type: 'axe', description: `${view}: ${v.id} (${v.impact}) ${v.nodes.length} node(s)` });
  }
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${view}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('axe: fresh page, during and after a short run, dark theme, shortcuts dialog', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  const found: string[] = [];
  found.push(...(await seriousViolations(page, 'fresh page')));

  await lab.choosePreset('quick');
  await lab.setField('steps', 12);
  await page.getByTestId('speed').selectOption('2');
  await lab.button('start').click();
  await lab.waitForStep(2, 120_000);
  found.push(...(await seriousViolations(page, 'during a run')));
  await lab.waitForPhase('done', 120_000);
  await page.getByTestId('chart-pass1-table-toggle').click();
  await page.getByTestId('chart-collapse-self-table-toggle').click();
  await page.getByTestId('smoothing').fill('0.5');
  found.push(...(await seriousViolations(page, 'after the run, tables open, smoothed')));

  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  found.push(...(await seriousViolations(page, 'dark theme')));

  await page.getByTestId('shortcuts-button').click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  found.push(...(await seriousViolations(page, 'shortcuts dialog')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();

  expect(found).toEqual([]);
  expect(errors).toEqual([]);
});

test('keyboard: Tab reaches every kind of control, each with a visible focus ring, and Enter operates it', async ({ page }) => {
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  const wanted = ['smoothing', 'theme-toggle', 'shortcuts-button', 'start', 'speed', 'report-png', 'preset-select', 'chart-pass1-table-toggle', 'chart-pass1-png', 'toggle-pseudo', 'run-details-toggle'];
  const reached = new Map<string, string>();
  for (let i = 0; i < 400 && reached.size < wanted.length; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      return { id: el.dataset.testid ?? '', outline: `${s.outlineStyle} ${s.outlineWidth}`, visible: el.matches(':focus-visible') };
    });
    if (focus && wanted.includes(focus.id) && !reached.has(focus.id)) {
      expect(focus.visible, focus.id).toBe(true);
      expect(focus.outline, focus.id).toMatch(/^solid [23]px$/);
      reached.set(focus.id, focus.outline);
    }
  }
  expect([...reached.keys()].sort()).toEqual([...wanted].sort());
  // Operable: Enter on a focused toggle works like a click.
  await page.getByTestId('chart-pass1-table-toggle').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chart-pass1-table')).toBeVisible();
  // A folded panel unfolds from the keyboard too.
  await page.getByTestId('toggle-pseudo').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('panel-pseudo')).toHaveAttribute('data-open', 'true');
  await expect(page.getByTestId('chart-pseudo')).toBeVisible();
});
