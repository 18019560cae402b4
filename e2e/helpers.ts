import { type Browser, type Page, type Worker, expect } from '@playwright/test';

/** Collects console errors and uncaught exceptions from the page and from its workers. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('worker', (worker) => {
    worker.on('console', (m) => {
      if (m.type() === 'error') errors.push(`worker console: ${m.text()}`);
    });
  });
  page.on('crash', () => errors.push('page crashed'));
  return errors;
}

export interface ProbeView {
  status: string;
  result: string | null;
  error: string | null;
  banner: string | null;
  warning: string | null;
}

/** Wait until the worker has answered (result or error shown), then read what the page says. */
export async function waitForProbe(page: Page, timeout = 75_000): Promise<ProbeView> {
  await page
    .locator('[data-testid="probe-result"], [data-testid="probe-error"]')
    .first()
    .waitFor({ state: 'attached', timeout }); // in the run bar's folded Details
  const text = async (id: string) => {
    const l = page.getByTestId(id);
    // textContent: the probe and the backend's reason are in the run bar's folded Details.
    return (await l.count()) ? ((await l.first().textContent()) ?? '').trim() : null;
  };
  return {
    status: (await text('backend-status')) ?? '',
    result: await text('probe-result'),
    error: await text('probe-error'),
    banner: await text('backend-banner'),
    warning: await text('probe-warning'),
  };
}

/**
 * Playwright's handle on the training worker (not the wasm backend's thread workers, nor the
 * nested workers of its pool, which run the same script and are listed after it).
 */
export async function trainingWorker(page: Page): Promise<Worker> {
  await expect.poll(() => page.workers().filter((w) => /training\.worker/.test(w.url())).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  return page.workers().find((w) => /training\.worker/.test(w.url()))!;
}


/** Run `fn` on a page of a fresh browser context (nothing shared with other pages but what `fn` opens), then close it. */
export async function inNewContext<T>(browser: Browser, fn: (p: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}
