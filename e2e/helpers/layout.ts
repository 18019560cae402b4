/**
 * Layout checks of the lab page, read from the page as a student's browser lays it out:
 * horizontal overflow, the hero charts on the first screen, legend keys over the limit, and axis
 * labels longer than the side of the plot they name (uPlot draws them on the canvas, centred on
 * that side: a longer one is cut). Each returns the problems found, in words ([] when none).
 */
import type { Page } from '@playwright/test';

/** Elements wider than the window, and the page's scroll width beyond it. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > w + 1) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${w} px window`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= w + 1) continue;
      // Inside a scroll container (a wide table that scrolls on its own) is fine.
      let p = el.parentElement;
      let scrolls = false;
      while (p && p !== document.body) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') {
          scrolls = true;
          break;
        }
        p = p.parentElement;
      }
      if (!scrolls) out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} ends at ${Math.round(r.right)} px`);
      if (out.length > 5) break;
    }
    return out;
  });
}

/** Each hero chart's plot must lie wholly inside the first screen (the page scrolled to the top). */
export async function heroOutsideFirstScreen(page: Page): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(() => {
    const h = window.innerHeight;
    const w = document.documentElement.clientWidth;
    const charts = [...document.querySelectorAll<HTMLElement>('.chart-canvas[data-testid^="chart-hero-"]')];
    if (charts.length === 0) return ['no hero chart on the page'];
    // On a phone the charts stack: the first must be on the first screen.
    const wanted = w < 700 ? charts.slice(0, 1) : charts;
    return wanted
      .map((c) => ({ id: c.dataset.testid, r: (c.querySelector('.u-over') ?? c).getBoundingClientRect() }))
      .filter(({ r }) => r.top < 0 || r.bottom > h || r.height < 100)
      .map(({ id, r }) => `${id}: plot ${Math.round(r.top)}-${Math.round(r.bottom)} px in a ${h} px window`);
  });
}

/** Legend keys (arm colours, line styles) with more entries than `max`. */
export async function legendsOverLimit(page: Page, max: number): Promise<string[]> {
  return page.evaluate((limit) => {
    return [...document.querySelectorAll<HTMLElement>('.legend-key')]
      .filter((k) => Number(k.dataset.entries) > limit)
      .map((k) => `${k.dataset.testid}: ${k.dataset.entries} entries`);
  }, max);
}

/** Axis labels longer than the side of the plot they are drawn along. */
export async function cutAxisLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.chart-canvas[data-label-font]')) {
      ctx.font = el.dataset.labelFont ?? '';
      const y = ctx.measureText(el.dataset.yLabel ?? '').width;
      ctx.font = el.dataset.xLabelFont ?? '';
      const x = ctx.measureText(el.dataset.xLabel ?? '').width;
      const h = Number(el.dataset.plotHeight);
      const w = Number(el.dataset.plotWidth);
      if (y > h) out.push(`${el.dataset.testid}: y label "${el.dataset.yLabel}" is ${Math.round(y)} px along a ${h} px plot`);
      if (x > w) out.push(`${el.dataset.testid}: x label "${el.dataset.xLabel}" is ${Math.round(x)} px along a ${w} px plot`);
    }
    return out;
  });
}

/** Every detail panel unfolded (so their charts and legends are laid out and checked too). */
export async function unfoldAll(page: Page): Promise<void> {
  const folded = page.locator('.panel-toggle[aria-expanded="false"]');
  for (let n = await folded.count(); n > 0; n = await folded.count()) await folded.first().click();
}
