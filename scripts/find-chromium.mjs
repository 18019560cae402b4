// Locate a Chromium/Chrome executable for Playwright without downloading one.
//
//   import { findChromium } from './scripts/find-chromium.mjs';
//   const path = findChromium();   // absolute path or null
//
// Order: $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser, google-chrome /
// google-chrome-stable (then chromium / chromium-browser) on $PATH, then a browser Playwright
// installed itself (`npx playwright install chromium`), if it is on disk.
// Run directly (`node scripts/find-chromium.mjs`) to print the path, exit 1 if none.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_HINT =
  'No Chromium found. Install one with `apt-get install chromium` (Debian/Ubuntu, as root), ' +
  'or point CHROMIUM_PATH at a Chromium/Chrome executable ' +
  '(e.g. CHROMIUM_PATH=/usr/bin/google-chrome npm test).';

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function playwrightChromium() {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core');
    const path = chromium.executablePath();
    return path && isExecutableFile(path) ? path : null;
  } catch {
    return null;
  }
}

/** @returns {string | null} */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (isExecutableFile(fromEnv)) return fromEnv;
    console.warn(`find-chromium: CHROMIUM_PATH=${fromEnv} is not an executable file; looking elsewhere.`);
  }
  for (const fixed of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (isExecutableFile(fixed)) return fixed;
  }
  for (const name of ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser']) {
    const found = onPath(name);
    if (found) return found;
  }
  return playwrightChromium();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = findChromium();
  if (path) {
    console.log(path);
  } else {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
}
