/**
 * Share links (src/share/url.ts, src/app/shareLink.ts): the URL holds the experiment, survives a
 * reload, opens the same in another page, refuses tampered links in words, and the same link on
 * the same backend trains the same run. wasm throughout: it is fast and bit-deterministic.
 */
import { type Page, expect, test } from '@playwright/test';
import { collectErrors, inNewContext } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The merge patch a page's URL holds (s=), decoded; null when there is none. */
function patchOf(url: string): unknown {
  const s = new URL(url).searchParams.get('s');
  return s === null ? null : JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
}

async function fieldValues(page: Page): Promise<Record<string, string>> {
  const lab = new LabPage(page);
  await lab.openSection('GRPO');
  const out: Record<string, string> = { preset: await page.getByTestId('preset-select').inputValue() };
  for (const f of ['steps', 'seed', 'evalEvery', 'grpo.learningRate', 'members.0.warmStartSteps']) out[f] = await page.getByTestId(`field-${f}`).inputValue();
  return out;
}

test('an edited experiment is in the URL: it survives a reload and opens the same in a new page', async ({ page, context }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  const historyLength = await page.evaluate(() => history.length);
  await lab.choosePreset('quick');
  await lab.setField('steps', 4);
  await lab.setField('seed', 42);
  await lab.openSection('GRPO');
  await lab.setField('grpo.learningRate', 0.002);

  // The URL follows the edits (debounced replaceState): only what differs from the preset.
  await expect.poll(() => patchOf(page.url())).toEqual({ seed: 42, steps: 4, grpo: { learningRate: 0.002 } });
  const url = new URL(page.url());
  expect(url.searchParams.get('v')).toBe('1');
  expect(url.searchParams.get('preset')).toBe('quick');
  expect(url.searchParams.get('backend')).toBe('wasm');
  expect(await page.evaluate(() => history.length)).toBe(historyLength); // replaced, never pushed
  const expected = { preset: 'quick', steps: '4', seed: '42', evalEvery: '3', 'grpo.learningRate': '0.002', 'members.0.warmStartSteps': '200' };
  expect(await fieldValues(page)).toEqual(expected);

  await page.reload();
  await expect(lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
  expect(await fieldValues(page)).toEqual(expected);
  await expect(page.getByTestId('preset-about')).toContainText('edited');
  await expect(page.getByTestId('link-error')).toHaveCount(0);

  // The same URL in another page (without a clipboard: Copy link shows the link to copy by hand).
  const other = await context.newPage();
  const otherErrors = collectErrors(other);
  await other.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
  const otherLab = new LabPage(other);
  await otherLab.open(url.search);
  expect(await fieldValues(other)).toEqual(expected);
  await other.getByTestId('copy-link').click();
  await expect(other.getByTestId('copy-link-fallback')).toHaveValue(url.href);

  // With a clipboard, Copy link puts the URL there.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link-status')).toHaveText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  expect([...errors, ...otherErrors]).toEqual([]);
});

test('a tampered link is explained as text; the default experiment loads and the page works', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const img = '<img src=x onerror=alert(1)>';
  const cases = [
    { query: '?v=1&preset=quick&s=!!!notbase64', says: 'the changes (s=) are not valid base64url text' },
    { query: `?v=1&preset=quick&s=${b64({ grpo: { learningRate: -0.001 } })}`, says: 'grpo.learningRate: Too small' },
    { query: `?v=1&preset=quick&s=${b64({ arms: [{ id: img, scheme: 'self', members: ['A'] }] })}`, says: 'arms.0.id: ids are 1-24 letters' },
    { query: `?v=1&preset=${encodeURIComponent(img)}`, says: `there is no preset "${img}"` },
    { query: '?v=9&preset=quick', says: 'made by a newer Cohort Lab' },
  ];
  const lab = new LabPage(page);
  for (const c of cases) {
    await lab.open(`${c.query}&backend=wasm`);
    const notice = page.getByTestId('link-error');
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(page.getByTestId('link-message')).toContainText(c.says);
    await expect(page.getByTestId('link-message')).toContainText('Showing the default experiment instead.');
    // Text, never HTML: the page has no <img> at all.
    await expect(page.locator('img')).toHaveCount(0);
    await expect(page.getByTestId('preset-select')).toHaveValue('peers-learn');
    await expect(page.getByTestId('preset-about')).not.toContainText('edited');
    await expect(lab.button('start')).toBeEnabled();
  }

  // Still a working page: choose a preset, the URL becomes a clean link, the notice can go.
  await lab.choosePreset('quick');
  await expect.poll(() => new URL(page.url()).searchParams.get('preset')).toBe('quick');
  expect(new URL(page.url()).searchParams.get('s')).toBeNull();
  expect(new URL(page.url()).searchParams.get('backend')).toBe('wasm');
  await page.getByTestId('link-error').getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByTestId('link-error')).toHaveCount(0);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
});

test('the same link on the same backend trains the same run', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const query = `?backend=wasm&v=1&preset=quick&s=${b64({ steps: 2 })}`;

  async function lastMetrics(p: Page): Promise<{ step: number; arms: Record<string, Record<string, { reward: number | null; loss: number | null }>> }> {
    const errors = collectErrors(p);
    const lab = new LabPage(p);
    await lab.open(query);
    await expect(p.getByTestId('field-steps')).toHaveValue('2');
    await lab.button('start').click();
    await lab.waitForPhase('done');
    const json = await lab.stepCounter.getAttribute('data-last-metrics');
    expect(errors).toEqual([]);
    return JSON.parse(json ?? 'null');
  }

  const first = await lastMetrics(page);
  await page.close();
  // A fresh browser context: nothing shared with the first page but the link.
  const second = await inNewContext(browser, lastMetrics);
  expect(first.step).toBe(2);
  expect(Object.keys(first.arms)).toEqual(['oracle', 'self', 'peer']);
  expect(typeof first.arms.self.A.reward).toBe('number');
  expect(typeof first.arms.peer.B.loss).toBe('number');
  expect(second).toEqual(first);
});

