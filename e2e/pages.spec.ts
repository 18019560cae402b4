/**
 * The lab on a static host (docs/LAB.md, "Put the lab online"): built as the GitHub Pages workflow
 * builds it (.github/workflows/pages.yml), under a base path, and served by a plain static server
 * that sends no header but the content type (no cross-origin isolation, no CSP header), as Pages
 * does. The default link opens, trains its first RL step, every request stays under the base path
 * (page, worker, wasm, warm starts, manifest, icons, service worker), the service worker's scope
 * is the base, and Copy link gives the hosted address: on 127.0.0.1 with a note that it opens only
 * on this computer; under a host name (Chromium maps lab.test to this machine) without one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { chromium, expect, test } from '@playwright/test';
import { findChromium } from '../scripts/find-chromium.mjs';
import { serveStatic } from '../scripts/static-server.mjs';
import { collectErrors } from './helpers';

const BASE = '/cohort-lab/';
const OUT = 'test-results/pages-dist';

test.use({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });

/** The workflow's build command: `npm run build -- --base "/${{ github.event.repository.name }}/"`. */
function workflowBuild(): string {
  const yml = readFileSync('.github/workflows/pages.yml', 'utf8');
  const run = /run: (npm run build -- --base .+)$/m.exec(yml)?.[1];
  if (!run) throw new Error('.github/workflows/pages.yml has no step `npm run build -- --base ...`');
  expect(yml).toMatch(/uses: actions\/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist\n/);
  return run;
}

let served: { server: Server; requests: string[]; url: string };

test.beforeAll(async () => {
  test.setTimeout(300_000);
  expect(workflowBuild()).toContain('--base "/${{ github.event.repository.name }}/"');
  // The workflow's build with this repository's name; `vite build` alone (the typecheck is npm test's own part).
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--base', BASE, '--outDir', OUT, '--emptyOutDir'], { stdio: 'inherit', timeout: 240_000 });
  served = await serveStatic(OUT, BASE);
});

test.afterAll(() => served?.server.close());

test('a base-path build on a plain static server: the default link trains, and Copy link gives the hosted address', async ({ page, context }) => {
  test.setTimeout(300_000);
  const { requests, url } = served;
  const errors = collectErrors(page);
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  await expect(page.getByTestId('backend-status')).not.toHaveText(/detecting/, { timeout: 90_000 });
  // No header asks for isolation, so wasm runs without threads; the lab must not need them.
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(false);
  await page.getByTestId('start').click();
  await expect.poll(async () => Number(await page.getByTestId('rl-step').getAttribute('data-step')), { timeout: 180_000, intervals: [250, 500, 1000] }).toBeGreaterThanOrEqual(1);

  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(url);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!;
    const m = await (await fetch(link.href)).json();
    return { href: link.href, start: new URL(m.start_url, link.href).href, icons: m.icons.map((i: { src: string }) => new URL(i.src, link.href).href) };
  });
  expect(manifest.start).toBe(url);
  for (const icon of manifest.icons) {
    expect(icon.startsWith(url)).toBe(true);
    expect((await page.request.get(icon)).status(), icon).toBe(200);
  }

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link-status')).toHaveText('Link copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(page.url());
  expect(copied.startsWith(url)).toBe(true);
  // 127.0.0.1 is this computer: the link opens only here, and the page says so.
  await expect(page.getByTestId('copy-link-local')).toContainText('It names this computer (127.0.0.1:');

  // Everything the page, its workers and its service worker asked for stayed under the base path.
  expect(requests.filter((p) => !p.startsWith(BASE))).toEqual([]);
  expect(requests.some((p) => p.endsWith('.wasm'))).toBe(true);
  expect(requests.some((p) => p.startsWith(`${BASE}warmstarts/`))).toBe(true);
  expect(errors).toEqual([]);
});

test('under a host name, Copy link gives that address and no note about this computer', async () => {
  test.setTimeout(120_000);
  const port = new URL(served.url).port;
  // A name other computers could use, mapped to this machine by Chromium itself (no DNS, no network).
  const browser = await chromium.launch({
    executablePath: findChromium() ?? undefined,
    args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP lab.test 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const errors = collectErrors(page);
    const hosted = `http://lab.test:${port}${BASE}?v=1&preset=quick`;
    await page.goto(hosted);
    await expect(page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
    await page.getByTestId('copy-link').click();
    // Plain http under a name is not a secure context: no clipboard, so the link is shown to copy by hand.
    const shown = page.getByTestId('copy-link-fallback');
    await expect(shown).toHaveValue(/^http:\/\/lab\.test:\d+\/cohort-lab\/\?v=1&preset=quick/);
    expect(await shown.inputValue()).toBe(page.url());
    await expect(page.getByTestId('copy-link-local')).toHaveCount(0);
    expect(errors.filter((e) => !/service ?worker|offline support/i.test(e))).toEqual([]);
  } finally {
    await browser.close();
  }
});
