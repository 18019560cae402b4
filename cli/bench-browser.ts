/**
 * The browser half of the benchmark: serves bench.html with Vite's dev server, opens it in the
 * system Chromium through Playwright once per backend, and collects window.__bench.
 */
import { createServer } from 'vite';
import { chromium } from '@playwright/test';
import { findChromium } from '../scripts/find-chromium.mjs';
import type { BenchRow } from '../src/core/benchmark';

type Row = BenchRow & { adapter?: string | null };

const ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function runBrowserBench(backends: string[], repeats: number): Promise<{ rows: Row[]; browser: string; skipped: string[] }> {
  const executablePath = findChromium();
  if (!executablePath) return { rows: [], browser: 'none', skipped: ['browser: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)'] };
  const server = await createServer({ server: { port: 5199, strictPort: false, host: '127.0.0.1' }, logLevel: 'error' });
  await server.listen();
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5199/';
  const browser = await chromium.launch({ executablePath, args: ARGS, headless: true });
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const b of backends) {
      console.error(`browser: benchmarking ${b} ...`);
      const page = await browser.newPage();
      try {
        await page.goto(`${url}bench.html?backend=${b}&repeats=${repeats}`);
        await page.waitForFunction(() => window.__bench !== undefined, undefined, { timeout: 20 * 60_000 });
        const result = await page.evaluate(() => window.__bench!);
        if (result.error) skipped.push(`browser ${b}: ${result.error}`);
        rows.push(...result.rows);
      } catch (e) {
        skipped.push(`browser ${b}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      } finally {
        await page.close();
      }
    }
    return { rows, browser: `Chromium ${browser.version()}`, skipped };
  } finally {
    await browser.close();
    await server.close();
  }
}
