/**
 * The Content-Security-Policy of the built page (src/pwa/csp.ts; docs/RELIABILITY.md,
 * "Content-Security-Policy"): the lab trains under it with no violation, it bites, and it is
 * delivered both ways. e2e/offline.spec.ts (service worker) and e2e/backend.spec.ts (WebGPU) run
 * under it too.
 */
import { type Page, expect, test } from '@playwright/test';
import { CSP_HEADER, CSP_META } from '../src/pwa/csp';
import { LabPage } from './helpers/lab';

// The service worker as users get it: its script and its fetches run under the policy too.
test.use({ serviceWorkers: 'allow' });

interface Violation {
  directive: string;
  blocked: string;
  /** Where the refused load or code was, e.g. 'http://…/assets/index-….js:12'. */
  source?: string;
}

/** Every securitypolicyviolation event of the page, kept on window (installed before any script). */
async function watchViolations(page: Page): Promise<() => Promise<Violation[]>> {
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string; source: string }[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` }),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations);
}

interface ConsoleLog {
  /** Errors and warnings of the page and of every worker, and uncaught exceptions. */
  problems: string[];
  /** URLs of the workers started (the training worker, tfjs-wasm's blob: pthreads). */
  workers: string[];
}

/**
 * A violation inside a worker is no event on the page; Chromium logs it there or the blocked load
 * fails (a pthread's importScripts of a blob: throws NetworkError, and the page hears "worker sent
 * an error!"). So the console of the page and of every worker is kept too.
 */
function watchConsole(page: Page): ConsoleLog {
  const log: ConsoleLog = { problems: [], workers: [] };
  const keep = (where: string, type: string, text: string) => {
    if (type === 'error' || type === 'warning') log.problems.push(`${where} ${type}: ${text}`);
  };
  page.on('console', (m) => keep('page', m.type(), m.text()));
  page.on('pageerror', (e) => log.problems.push(`pageerror: ${e.message}`));
  page.on('worker', (w) => {
    log.workers.push(w.url());
    w.on('console', (m) => keep('worker', m.type(), m.text()));
  });
  return log;
}

test('the lab trains a preset on threaded wasm under the policy, with no violation', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(page);
  const log = watchConsole(page);
  const lab = new LabPage(page);
  await page.goto('/?backend=wasm&v=1&preset=quick');
  // Stop at the first problem rather than wait out a backend that never loads.
  await expect
    .poll(async () => (log.problems.length ? log.problems.join('\n') : await lab.backendStatus.textContent()), { timeout: 90_000 })
    .not.toMatch(/detecting/);
  expect(log.problems).toEqual([]);
  await expect(lab.backendStatus).toHaveText('Backend: wasm');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

  await lab.button('start').click();
  await lab.waitForPhase('done', 90_000);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  expect(await lab.step()).toBe(6);
  // The threaded variant ran: its pthread pool is blob: workers started by the training worker.
  expect(log.workers.some((u) => /\/assets\/training\.worker-.*\.js$/.test(u))).toBe(true);
  expect(log.workers.filter((u) => u.startsWith('blob:')).length).toBeGreaterThan(0);
  expect(await violations()).toEqual([]);
  expect(log.problems).toEqual([]);
});

test('inline and foreign scripts are refused and reported', async ({ page }) => {
  const violations = await watchViolations(page);
  await page.goto('/?backend=wasm');
  await expect(page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    const inline = document.createElement('script');
    inline.textContent = 'window.__inlineRan = true';
    document.head.append(inline);
    const foreign = document.createElement('script');
    foreign.src = 'https://example.com/x.js';
    const loaded = new Promise<string>((resolve) => {
      foreign.onload = () => resolve('loaded');
      foreign.onerror = () => resolve('error');
    });
    document.head.append(foreign);
    return { inline: w.__inlineRan === true, foreign: await loaded };
  });
  expect(ran).toEqual({ inline: false, foreign: 'error' });
  await expect
    .poll(violations)
    .toEqual(
      expect.arrayContaining([
        expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' }),
        expect.objectContaining({ directive: 'script-src-elem', blocked: 'https://example.com/x.js' }),
      ]),
    );
});

test('the policy is in the built page (meta) and in the server answer (header), and framing is refused', async ({ page }) => {
  const response = await page.goto('/?backend=wasm');
  expect(response?.headers()['content-security-policy']).toBe(CSP_HEADER);
  const metas = page.locator('meta[http-equiv="Content-Security-Policy"]');
  await expect(metas).toHaveCount(1);
  expect(await metas.getAttribute('content')).toBe(CSP_META);
  // Before any script: a meta only governs what follows it.
  expect(await page.evaluate(() => document.head.firstElementChild?.getAttribute('http-equiv'))).toBe('Content-Security-Policy');

  // frame-ancestors 'none' (header only): even this origin cannot frame the lab.
  const refused = page.waitForEvent('console', { predicate: (m) => /frame-ancestors/.test(m.text()), timeout: 30_000 });
  await page.evaluate(() => {
    const f = document.createElement('iframe');
    f.src = '/?backend=wasm';
    document.body.append(f);
  });
  expect((await refused).text()).toMatch(/^Framing '.*' violates .*"frame-ancestors 'none'"/);
});
