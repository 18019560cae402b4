#!/usr/bin/env node
// Render the app icons (public/icons/*.png) from public/icons/icon.svg in the system Chromium,
// offline: the web manifest (vite.config.ts, src/app/pwa/pwaOptions.ts) lists them.
//   node scripts/make-icons.mjs
// icon-192.png and icon-512.png are the SVG as drawn (rounded corners, transparent outside);
// icon-maskable-512.png has a full-bleed background (no corner radius) so a launcher can crop it
// to its own shape: the drawing stays inside the safe zone (a circle of 40% of the size).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { INSTALL_HINT, findChromium } from './find-chromium.mjs';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const svg = readFileSync(join(dir, 'icon.svg'), 'utf8');
const maskable = svg.replace(/ rx="\d+"/, '');
if (maskable === svg) throw new Error('icon.svg: the background <rect rx=...> was not found');

const executablePath = findChromium();
if (!executablePath) {
  console.error(INSTALL_HINT);
  process.exit(1);
}
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const [name, source, size] of [
    ['icon-192.png', svg, 192],
    ['icon-512.png', svg, 512],
    ['icon-maskable-512.png', maskable, 512],
  ]) {
    await page.setViewportSize({ width: size, height: size });
    const sized = source.replace('width="512" height="512"', `width="${size}" height="${size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.locator('svg').screenshot({ path: join(dir, name), omitBackground: true });
    console.log(`wrote public/icons/${name} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
