/**
 * What of a page lies outside its first screen (the page scrolled to the top): the projector view
 * must hold the class's charts, scoreboard and claims on one 1280x720 screen. Read
 * from the browser's own layout; each problem in words ([] when none).
 */
import type { Page } from '@playwright/test';

/** Every element named by a test id must exist, be visible and lie wholly inside the window. */
export async function outsideFirstScreen(page: Page, testIds: readonly string[]): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate((ids) => {
    const h = window.innerHeight;
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const id of ids) {
      const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
      if (!el) {
        out.push(`${id}: not on the page`);
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) out.push(`${id}: not shown`);
      else if (r.top < 0 || r.bottom > h + 1 || r.left < 0 || r.right > w + 1)
        out.push(`${id}: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in a ${w}x${h} window`);
    }
    return out;
  }, testIds);
}
